package schemas

import (
	"crypto/sha256"
	"fmt"
)

// Names of the deadline tools.
const (
	ToolComputeDeadline = "compute_deadline"
	ToolProposeDeadline = "propose_deadline"
)

// ProposeDeadlineWorkflow proposes one deadline: it stores it as proposed and tells
// the case's owner. The assistant's propose_deadline and the court watch start it.
const ProposeDeadlineWorkflow = "ProposeDeadline"

// ComputeDeadlineArgs are compute_deadline's arguments: POST /v1/deadlines/compute's
// body, which internal/deadline.Request decodes alike (tested).
type ComputeDeadlineArgs struct {
	Jurisdiction string `json:"jurisdiction"`
	From         string `json:"from"`
	Amount       int    `json:"amount"`
	Unit         string `json:"unit"`
	Direction    string `json:"direction,omitempty"`
	Code         string `json:"code,omitempty"`
	Suspension   *bool  `json:"suspension,omitempty"`
}

// ProposeDeadlineArgs are propose_deadline's arguments: a deadline as its proposer
// sees it, its day computed by the codes' rules (Computation) or named (Due, with the
// Jurisdiction whose court's zone it ends in).
type ProposeDeadlineArgs struct {
	CaseID       string               `json:"case_id"`
	Title        string               `json:"title"`
	Source       DeadlineSource       `json:"source"`
	Computation  *ComputeDeadlineArgs `json:"computation,omitempty"`
	Due          string               `json:"due,omitempty"`
	Jurisdiction string               `json:"jurisdiction,omitempty"`
}

// Who proposes a deadline (ProposeDeadline.ProposedBy).
const (
	ProposedByAssistant = "assistant"
	ProposedByCourt     = "court"
)

// ProposeDeadline is the ProposeDeadlineWorkflow's input and the ProposeDeadline
// activity's: DeadlineID names the proposal, so proposing it again finds the first.
type ProposeDeadline struct {
	DeadlineID string              `json:"deadline_id"`
	ProposedBy string              `json:"proposed_by"`
	Args       ProposeDeadlineArgs `json:"args"`
}

// ProposedDeadline is propose_deadline's result: the proposed deadline's ID, day and
// status, or why it was refused.
type ProposedDeadline struct {
	Status       string `json:"status"`
	DeadlineID   string `json:"deadline_id,omitempty"`
	Due          string `json:"due,omitempty"`
	Deadline     string `json:"deadline_status,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// Proposal is the ProposeDeadline activity's answer: the tool's result, and the
// notification to send the case's owner (nil when nothing was proposed).
type Proposal struct {
	Result ProposedDeadline `json:"result"`
	Notify *Notification    `json:"notify,omitempty"`
}

// ProposalID is the ID of the deadline a turn's propose_deadline call proposes: the
// same arguments in the same turn are the same proposal. It has a UUID's form, as
// every deadline ID has.
func ProposalID(turnID string, args []byte) string {
	sum := sha256.Sum256(append([]byte(turnID+"\x00"), args...))
	sum[6] = sum[6]&0x0f | 0x50 // version 5's nibble, as uuid.NewSHA1 sets it
	sum[8] = sum[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}

// ProposeDeadlineWorkflowID is the ID of the workflow that proposes deadline id in
// case caseID: a workflow of the case, sealed with its key.
func ProposeDeadlineWorkflowID(caseID, id string) string {
	return CaseWorkflowID(caseID) + ":deadline-proposal:" + id
}

// ComputedDeadline is compute_deadline's result: POST /v1/deadlines/compute's answer,
// or why the rules cannot compute the term.
type ComputedDeadline struct {
	Status       string            `json:"status"`
	Due          string            `json:"due,omitempty"`
	EndsAt       string            `json:"ends_at,omitempty"`
	Zone         string            `json:"zone,omitempty"`
	Rules        []DeadlineRule    `json:"rules,omitempty"`
	NonWorking   []DeadlineSkipped `json:"non_working,omitempty"`
	ErrorMessage string            `json:"error_message,omitempty"`
}

// DeadlineRule is a rule a computation applied, with its article.
type DeadlineRule struct {
	ID      string `json:"id"`
	Article string `json:"article"`
	Detail  string `json:"detail"`
}

// DeadlineSkipped is a day, or days to To, that a computation stepped over, and why.
type DeadlineSkipped struct {
	Date   string `json:"date"`
	To     string `json:"to,omitempty"`
	Reason string `json:"reason"`
}
