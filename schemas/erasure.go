package schemas

import "time"

// erasePrefix starts the ID of every Erase workflow. It is not casePrefix: an
// erasure's payloads are sealed with the system key, which outlives the case's.
const erasePrefix = "erase:"

// EraseWorkflowID is the ID of the Erase workflow of case caseID: one erasure per case.
func EraseWorkflowID(caseID string) string { return erasePrefix + caseID }

// RetentionScheduleID is the ID of the Temporal schedule that runs the Retention
// workflow, and the prefix of its runs' workflow IDs.
const RetentionScheduleID = "retention"

// EraseInput starts an Erase workflow: whose case, who asked, why (store.ErasureRequested
// or store.ErasureRetention) and when.
type EraseInput struct {
	CaseID string    `json:"case_id"`
	By     string    `json:"by"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// RetentionBy is who asks for the erasures that retention starts.
const RetentionBy = "retention"
