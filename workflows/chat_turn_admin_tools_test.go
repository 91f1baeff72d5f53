package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// TestChatTurnClientCannotRunSystemStats: in a client's turn, whose selection holds
// only the tools a client's roles may use, a model (steered, or a prompt-injected
// one) that calls system_stats is neither offered it nor has it run: the call is an
// unknown tool.
func TestChatTurnClientCannotRunSystemStats(t *testing.T) {
	model := &scriptedModel{replies: []schemas.ModelResponse{
		callTool(schemas.ToolSystemStats, `{}`),
		{Content: "OK."},
	}}
	in := turnIn
	in.Selection.Tools = nil
	for _, tool := range tools.All() {
		if tool.DefaultOn && tool.AllowedFor([]string{schemas.RoleUser}) {
			in.Selection.Tools = append(in.Selection.Tools, tool.Name)
		}
	}
	res := run(t, in, model, nil)
	if slices.Contains(model.requests[0].Tools, schemas.ToolSystemStats) || !slices.Contains(model.requests[0].Tools, schemas.ToolRagSearch) {
		t.Errorf("a client's turn offered %v", model.requests[0].Tools)
	}
	if use := res.ToolsUsed[0]; use.Status != schemas.ToolInvalid || !strings.Contains(use.Error, `unknown tool "system_stats"`) {
		t.Errorf("tool use = %+v", use)
	}
}
