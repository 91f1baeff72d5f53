package schemas

import (
	"encoding/json"
	"fmt"
)

// RunToolInput is one tool call for the RunTool activity: the tool's name, its
// validated arguments with the turn's bindings applied, and the blob key under which
// the raw result is kept if it is large.
type RunToolInput struct {
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	ResultKey string          `json:"result_key"`
	// Raw asks for the raw result in ToolOutput.Raw too, when it is smaller than the
	// claim-check size; a larger one is kept under ResultKey as for any call.
	Raw bool `json:"raw,omitempty"`
	// Op names the call's writes in the store (an appended log entry, say): the same
	// for every run of the call, so that a call run again after its worker was lost
	// applies them once. Empty: the activity's own op.
	Op string `json:"op,omitempty"`
}

// ToolOutput is what a tool call gives the turn: the bounded text the model reads,
// the failure the result reports (a search that found nothing, a status "error"),
// and, for a large result, the blob key of the raw result.
type ToolOutput struct {
	Text    string `json:"text"`
	Failure string `json:"failure,omitempty"`
	Ref     string `json:"ref,omitempty"`
	// Raw is the raw result, for a call that asked for it (RunToolInput.Raw) and
	// whose result is not kept under Ref.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// ToolResultKey is the blob key of a turn's call n's raw result.
func ToolResultKey(caseID string, turnNo, n int, tool string) string {
	return CaseBlobPrefix(caseID) + fmt.Sprintf("results/turn-%d/call-%d-%s.json", turnNo, n, tool)
}
