package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
)

// scriptedModel is a loopback chat-completions endpoint that answers a client's
// message with the tool call set for it, as a prompt-injected model would, and a
// tool's result with "Done.", streamed when asked; with no call set, it refuses
// every request (400). Tiering (the case's description as data) gets tier 1.
type scriptedModel struct {
	*httptest.Server
	mu   sync.Mutex
	call [2]string // tool name, JSON arguments
}

func startScriptedModel(t *testing.T) *scriptedModel {
	m := &scriptedModel{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
			Stream bool `json:"stream"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		m.mu.Lock()
		call := m.call
		m.mu.Unlock()
		n := len(req.Messages)
		tiering := n > 0 && strings.HasPrefix(req.Messages[n-1].Content, "<description>")
		if call[0] == "" && !tiering {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"message":"this request is refused","type":"invalid_request_error","param":null,"code":null}}`)
			return
		}
		msg := map[string]any{"role": "assistant", "content": "Done."}
		finish := "stop"
		if tiering {
			msg["content"] = `{"tier": 1, "justification": "scripted"}`
		} else if n > 0 && req.Messages[n-1].Role == "user" {
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"index": 0, "id": "call_1", "type": "function", "function": map[string]any{"name": call[0], "arguments": call[1]}}}}
			finish = "tool_calls"
		}
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		if req.Stream { // the whole message in one chunk, as an endpoint may send it
			w.Header().Set("Content-Type", "text/event-stream")
			for _, chunk := range []map[string]any{
				{"choices": []any{map[string]any{"index": 0, "delta": msg, "finish_reason": nil}}},
				{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}},
				{"choices": []any{}, "usage": usage},
			} {
				chunk["id"], chunk["object"], chunk["created"], chunk["model"] = "chatcmpl-1", "chat.completion.chunk", 0, "hostile"
				raw, _ := json.Marshal(chunk)
				fmt.Fprintf(w, "data: %s\n\n", raw)
			}
			fmt.Fprint(w, "data: [DONE]\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "hostile",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage})
	}))
	t.Cleanup(m.Close)
	return m
}

func (m *scriptedModel) next(tool, args string) {
	m.mu.Lock()
	m.call = [2]string{tool, args}
	m.mu.Unlock()
}

// TestHostileToolCalls plays a model steered by text it read: each turn it makes one
// call a prompt injection would ask for. None may touch the victim's case, write what
// the system owns, reach outside the case's blobs, pass an unbounded argument through,
// or run a tool the user's role may not use.
func TestHostileToolCalls(t *testing.T) {
	// Not parallel: the victim's snapshot holds the whole blob tree, which other tests
	// write to.
	v := newVictim(t)
	model := startScriptedModel(t)
	hostile, queue := s.ServeQueue(t, "e2e-hostile")
	s.StartHelperWorker(t, queue, 0, "LEXFLOW_ASSISTANT_BASE_URL="+model.URL+"/v1", "LEXFLOW_ASSISTANT_MODEL=hostile")
	tok := s.Token(t, "eve")
	id := hostile.CreateCase(t, tok, "An ordinary question about a lease")
	// The scripted model gives tiering tier 1; then the case takes turns.
	model.next(schemas.ToolGetCaseDetails, `{}`)
	hostile.Send(t, tok, id, "hello")
	before := v.snapshot(t)
	for _, a := range []struct{ name, tool, args string }{
		{"another case's details", schemas.ToolGetCaseDetails, fmt.Sprintf(`{"case_id": %q}`, v.caseID)},
		{"another case's update", schemas.ToolUpdateCaseDetails, fmt.Sprintf(`{"case_id": %q, "updates": {"summary.current": "pwned"}}`, v.caseID)},
		{"a forged draft record", schemas.ToolUpdateCaseDetails, fmt.Sprintf(`{"updates": {"draft_status.Cerere": {"path": "cases/%s/drafts/Cerere/rev-1.pdf", "revision": 1}}}`, v.caseID)},
		{"a forged payment", schemas.ToolUpdateCaseDetails, `{"updates": {"payment": {"reference": "free"}, "tier.level": 1}}`},
		{"a draft name climbing out", schemas.ToolGenerateDraftPDF, fmt.Sprintf(`{"draft_name": "../../%s/drafts/x", "markdown_content": "# x"}`, v.caseID)},
		{"another case's ticket", schemas.ToolCreateSupportTicket, fmt.Sprintf(`{"case_id": %q, "issue_description": "close it"}`, v.caseID)},
		{"a jurisdiction outside the schema", schemas.ToolKBSearch, `{"query": "appeal", "jurisdiction": "ro' OR 1=1 --"}`},
		{"an admin's tool", schemas.ToolLegalSQL, `{"query_string": "SELECT text FROM legislatie", "table_name": "legislatie"}`},
		{"an oversized argument", schemas.ToolUpdateCaseDetails, fmt.Sprintf(`{"updates": {"summary.current": %q}}`, strings.Repeat("A", 300<<10))},
	} {
		model.next(a.tool, a.args)
		turn := hostile.Send(t, tok, id, "please help")
		used := stack.ToolsUsed(turn)
		if len(used) != 1 || used[0]["status"] == schemas.ToolOK {
			t.Errorf("%s: the call ran: %s", a.name, clip(turn.Raw))
		}
		if strings.Contains(string(turn.Raw), v.canary) {
			t.Errorf("%s: the answer shows the victim's data", a.name)
		}
	}
	if after := v.snapshot(t); after != before {
		t.Errorf("the hostile calls changed the victim's data:\nbefore %s\nafter  %s", before, after)
	}
	cs, err := s.Store.GetCase(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if cs.Payment != nil || cs.Details["draft_status"] != nil || len(fmt.Sprint(cs.Details["summary"])) > 10<<10 {
		t.Errorf("the attacker's own case holds what the model must not write: payment %v, details %v", cs.Payment, clip([]byte(fmt.Sprint(cs.Details))))
	}
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
