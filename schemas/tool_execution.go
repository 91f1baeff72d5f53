package schemas

import (
	"encoding/json"
	"time"
)

// ToolArgsWait bounds the model call that writes a tool's arguments from a question,
// its retry included (workflows.toolArgsModelOptions): a run asked a question is
// waited for that much longer.
const ToolArgsWait = 155 * time.Second

// ToolExecution is an admin's direct run of one tool (POST /v1/admin/tools/execute),
// with its arguments or a question to write them from, and the case, user,
// organization and language the tool's bound arguments take, from the case it runs
// on, if any (the language guessed from the question on a run of no case).
type ToolExecution struct {
	// ID names the run: its workflow ID and the key of a raw result too large to
	// travel in its answer.
	ID   string          `json:"id"`
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	// Query is Sanctum's natural-language question, from which the tool's arguments
	// are written (Args is then empty); Tenant is charged for the model call that
	// writes them on a run of no case.
	Query    string `json:"query,omitempty"`
	Tenant   string `json:"tenant,omitempty"`
	CaseID   string `json:"case_id,omitempty"`
	UserID   string `json:"user_id,omitempty"`
	OrgID    string `json:"org_id,omitempty"`
	Language string `json:"language,omitempty"`
}

// ToolExecutionResult is what the run gives: the arguments as they ran (validated,
// defaults filled, bound to the case), the tool's raw result (or, when it is
// ClaimCheckBytes or more, the blob key it is kept under), the text the model would
// read, and how long the call took.
type ToolExecutionResult struct {
	Tool   string         `json:"tool"`
	Args   map[string]any `json:"args"`
	Status string         `json:"status"`
	// Dropped are arguments the tool's schema does not know, left out of the call.
	Dropped   []string        `json:"dropped,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	ResultRef string          `json:"result_ref,omitempty"`
	Text      string          `json:"text"`
	Error     string          `json:"error,omitempty"`
	LatencyMS int64           `json:"latency_ms"`
}

// toolRunPrefix names the runs of tools by admins: a run on a case is one of the
// case's workflows (its payloads sealed with the case's key, its events in the case's
// log, its model tokens counted to the case), others stand alone.
const toolRunPrefix = "tool-run:"

// ToolExecutionWorkflowID is the workflow ID of admin tool run id, on caseID or on
// no case ("").
func ToolExecutionWorkflowID(caseID, id string) string {
	if caseID == "" {
		return toolRunPrefix + id
	}
	return CaseWorkflowID(caseID) + ":" + toolRunPrefix + id
}

// ToolExecutionResultFolder is the blob folder that keeps run id's raw result when it
// is too large to travel in the answer: under the case's prefix for a run on a case,
// so that it is sealed with the case's key and erased with the case.
func ToolExecutionResultFolder(caseID, id string) string {
	if caseID == "" {
		return "tool-runs/" + id + "/"
	}
	return CaseBlobPrefix(caseID) + "tool-runs/" + id + "/"
}
