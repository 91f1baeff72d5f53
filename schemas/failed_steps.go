package schemas

import "strings"

// What a case tool's failure names first, for the model and the reasoner, as seed
// 003's error texts do ("Cloud Storage upload failed", "Firestore update failed"): the
// step that failed, before the technical reason. The client never reads them: the
// ladder's sentences to the client name no step, no tool and no reason.
const (
	// FailedStoreRead: reading the case (its details, drafts or parties) from the store.
	FailedStoreRead = "Store read failed"
	// FailedStoreUpdate: writing case_details (seed 003's "Firestore update failed").
	FailedStoreUpdate = "Store update failed"
	// FailedDraftRender: rendering a draft's PDF, its steps run as one activity.
	FailedDraftRender = "Draft rendering failed"
	// FailedDraftUpload: storing a draft's PDF in the blob store (seed 003's "Cloud
	// Storage upload failed").
	FailedDraftUpload = "Draft upload failed"
	// FailedDraftRead: reading a revision's PDF stored earlier from the blob store.
	FailedDraftRead = "Draft read failed"
)

// ErrStepFailed marks a workflow's failure that names its step (see FailedSteps).
const ErrStepFailed = "StepFailed"

// FailedSteps are the steps above.
var FailedSteps = []string{FailedStoreRead, FailedStoreUpdate, FailedDraftRender, FailedDraftUpload, FailedDraftRead}

// NamesFailedStep reports whether a failure's reason starts with a failed step.
func NamesFailedStep(reason string) bool {
	for _, s := range FailedSteps {
		if strings.HasPrefix(reason, s+":") {
			return true
		}
	}
	return false
}
