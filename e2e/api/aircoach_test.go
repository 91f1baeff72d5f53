package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// TestAirCoachEvents: with ?events=aircoach a streamed turn carries AIR Coach's events
// (seed 002) beside Lexflow's: a tool_result with the tool's name and data for each tool
// that ran, and agent_message pieces that join into the answer; an unknown dialect is
// a 422 before any turn runs.
func TestAirCoachEvents(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "coach")
	id := s.CreateCase(t, tok, "My employer has not paid my last two salaries")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/messages?events=langgraph", tok, map[string]any{"message": "show me the case details"},
		"Accept", "text/event-stream"), http.StatusUnprocessableEntity, "invalid-input")
	r := s.Call(t, "POST", "/v1/cases/"+id+"/messages?events=aircoach", tok, map[string]any{"message": "show me the case details"},
		"Accept", "text/event-stream")
	if r.Status != http.StatusOK || !strings.Contains(string(r.Raw), "event: turn.completed") {
		t.Fatalf("stream: %d %s", r.Status, r.Raw)
	}
	var tools []string
	var answer strings.Builder
	for _, block := range strings.Split(string(r.Raw), "\n\n") {
		if strings.Contains(block, "event: ") || !strings.HasPrefix(block, "data: ") {
			continue // Lexflow's own, or a comment
		}
		var ev struct {
			Type     string         `json:"type"`
			ToolName string         `json:"tool_name"`
			Data     map[string]any `json:"data"`
			Content  string         `json:"content"`
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(block, "data: ")), &ev); err != nil {
			t.Fatalf("an AIR Coach event that is not JSON: %q", block)
		}
		switch ev.Type {
		case "tool_result":
			if ev.Data["status"] != "ok" {
				t.Errorf("tool_result %s: %v", ev.ToolName, ev.Data)
			}
			tools = append(tools, ev.ToolName)
		case "agent_message":
			answer.WriteString(ev.Content)
		default:
			t.Errorf("an AIR Coach event of type %q", ev.Type)
		}
	}
	if len(tools) != 1 || tools[0] != "get_case_details" {
		t.Errorf("tool_result events for %v, want get_case_details", tools)
	}
	if !strings.Contains(answer.String(), "get_case_details") {
		t.Errorf("agent_message pieces join into %q", answer.String())
	}
	// Without the dialect, none of them.
	plain := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"}, "Accept", "text/event-stream")
	if strings.Contains(string(plain.Raw), `"type":"tool_result"`) {
		t.Errorf("AIR Coach's events without ?events=aircoach")
	}
}
