package schemas

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// casePrefix starts the ID of every workflow of a case.
const casePrefix = "case:"

// CaseWorkflowID is the ID of the Case workflow that runs case caseID.
func CaseWorkflowID(caseID string) string { return casePrefix + caseID }

// CaseIDOf is the case ID of a Case workflow's ID, or "" for any other ID.
func CaseIDOf(workflowID string) string {
	id, ok := strings.CutPrefix(workflowID, casePrefix)
	if !ok || strings.Contains(id, ":") {
		return ""
	}
	return id
}

// CaseOfWorkflow is the case ID of any workflow of a case (the Case workflow, or a
// tiering, turn, draft or ticket of it), or "" for a workflow of no case.
func CaseOfWorkflow(workflowID string) string {
	id, ok := strings.CutPrefix(workflowID, casePrefix)
	if !ok {
		return ""
	}
	id, _, _ = strings.Cut(id, ":")
	return id
}

// TieringWorkflowID is the ID of the Tiering child workflow's attempt n for a case.
func TieringWorkflowID(caseID string, n int) string {
	return fmt.Sprintf("%s:tiering:%d", CaseWorkflowID(caseID), n)
}

// QuotaWorkflowID is the ID of a case's Quota child workflow.
func QuotaWorkflowID(caseID string) string { return CaseWorkflowID(caseID) + ":quota" }

// TurnWorkflowID is the ID of the ChatTurn child workflow for turn n of case caseID.
func TurnWorkflowID(caseID string, n int) string {
	return fmt.Sprintf("%s:turn:%d", CaseWorkflowID(caseID), n)
}

// DraftWorkflowID is the ID of the Draft workflow that renders one revision of a draft.
// The name is the model's, not yet checked (the Draft workflow refuses a bad one), so
// it goes in as IDPart makes it: a workflow ID travels in a header that takes only
// printable ASCII, and a name the server refuses would fail the turn's every task.
func DraftWorkflowID(caseID, name string, revision int) string {
	return fmt.Sprintf("%s:draft:%s:rev-%d", CaseWorkflowID(caseID), IDPart(name), revision)
}

// maxIDPart bounds what IDPart keeps of a text; a longer one keeps its start and a
// hash of the whole.
const maxIDPart = 100

// IDPart makes a text fit into a workflow ID: printable ASCII (0x20–0x7E) as it is,
// every other byte as %XX, and at most maxIDPart bytes, a longer text keeping its
// first 64 bytes, "~" and 16 hex digits of its SHA-256, so that two texts still get
// two IDs. A text that is printable ASCII and short enough is unchanged.
func IDPart(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c <= 0x7e && c != '%' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	out := b.String()
	if len(out) <= maxIDPart {
		return out
	}
	sum := sha256.Sum256([]byte(s))
	return out[:64] + "~" + hex.EncodeToString(sum[:8])
}

// TicketWorkflowID is the ID of the SupportTicket workflow of a case's escalation n.
func TicketWorkflowID(caseID string, n int) string {
	return fmt.Sprintf("%s:ticket:%d", CaseWorkflowID(caseID), n)
}

// TurnTicketWorkflowID is the ID of the SupportTicket workflow that the model's own
// create_support_ticket call starts in a turn.
func TurnTicketWorkflowID(turnID string) string { return turnID + ":ticket" }

// IDs of a case's transcript records. They derive from the turn or the notice's number,
// so a record stored twice (a retried activity) is kept once.

// UserRecordID is the ID of a turn's user record.
func UserRecordID(turnID string) string { return turnID + ":user" }

// ToolRecordID is the ID of a turn's n-th tool record, from 1.
func ToolRecordID(turnID string, n int) string { return fmt.Sprintf("%s:tool:%d", turnID, n) }

// AssistantRecordID is the ID of a turn's assistant record.
func AssistantRecordID(turnID string) string { return turnID + ":assistant" }

// NoticeRecordID is the ID of a case's n-th notice.
func NoticeRecordID(caseID string, n int) string {
	return fmt.Sprintf("%s:notice:%d", CaseWorkflowID(caseID), n)
}

// blobCases is the blob folder that holds each case's blobs under its ID.
const blobCases = "cases/"

// CaseBlobPrefix is the prefix of every blob key of a case: its drafts and kept tool
// results.
func CaseBlobPrefix(caseID string) string { return blobCases + caseID + "/" }

// CaseOfBlobKey is the case whose blob key names, or "" for a blob of no case.
func CaseOfBlobKey(key string) string {
	rest, ok := strings.CutPrefix(key, blobCases)
	if !ok {
		return ""
	}
	id, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return id
}
