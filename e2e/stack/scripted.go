package stack

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/llm/offline"
)

// ScriptedModel is a model on the chat-completions wire format that answers by a
// script, as a real model would: it reads the request it is sent, and nothing else,
// to decide its next step. It serves each model role under its own path,
// <URL>/<role>/v1, and keeps every request, so a test can read what each call
// contained. A request the script does not answer (tiering, a document's summary) goes
// to the offline model.
type ScriptedModel struct {
	*httptest.Server
	mu       sync.Mutex
	requests []ModelRequest
}

// ModelRequest is one request a ScriptedModel received.
type ModelRequest struct {
	// Role is the path's first part: "assistant" or "reasoner".
	Role     string
	Messages []ModelMessage
	// Tools are the names of the tools on offer.
	Tools  []string
	Stream bool
}

// ModelMessage is a chat message of a request.
type ModelMessage struct {
	Role       string
	Content    string
	ToolCalls  []ModelCall
	ToolCallID string
}

// ModelCall is a tool call, asked in a reply or replayed in a request.
type ModelCall struct {
	ID, Name, Arguments string
}

// ModelReply is what the script answers: text, or tool calls.
type ModelReply struct {
	Content string
	Calls   []ModelCall
}

// Script decides a request's reply; ok false leaves the request to the offline model.
type Script func(req ModelRequest) (reply ModelReply, ok bool)

// StartScriptedModel starts a ScriptedModel that stops when the test ends.
func StartScriptedModel(t *testing.T, script Script) *ScriptedModel {
	m := &ScriptedModel{}
	fallback := offline.Handler()
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		role, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		r.URL.Path = "/" + rest
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			fallback.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req, err := decodeRequest(role, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		m.mu.Lock()
		m.requests = append(m.requests, req)
		m.mu.Unlock()
		reply, ok := script(req)
		if !ok {
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			fallback.ServeHTTP(w, r)
			return
		}
		if req.Stream {
			streamReply(w, reply)
			return
		}
		writeReply(w, reply)
	}))
	t.Cleanup(m.Close)
	return m
}

// BaseURL is the OpenAI-compatible base URL of a role, for LEXFLOW_<ROLE>_BASE_URL.
func (m *ScriptedModel) BaseURL(role string) string { return m.URL + "/" + role + "/v1" }

// Requests returns the requests received so far, oldest first.
func (m *ScriptedModel) Requests() []ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}

// Text is every message's content and every call's arguments, joined: what the
// model read.
func (r ModelRequest) Text() string {
	var b strings.Builder
	for _, msg := range r.Messages {
		b.WriteString(msg.Content)
		b.WriteByte('\n')
		for _, c := range msg.ToolCalls {
			b.WriteString(c.Name + " " + c.Arguments + "\n")
		}
	}
	return b.String()
}

// Turn is the messages after the request's last user message, the turn's own steps;
// Asked is that message.
func (r ModelRequest) Turn() (asked string, steps []ModelMessage) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content, r.Messages[i+1:]
		}
	}
	return "", r.Messages
}

// Result is the text of the latest tool message answering a call of the named tool
// among msgs.
func Result(msgs []ModelMessage, tool string) (string, bool) {
	names := map[string]string{}
	out, found := "", false
	for _, msg := range msgs {
		for _, c := range msg.ToolCalls {
			names[c.ID] = c.Name
		}
		if msg.Role == "tool" && names[msg.ToolCallID] == tool {
			out, found = msg.Content, true
		}
	}
	return out, found
}

func decodeRequest(role string, body []byte) (ModelRequest, error) {
	var wire struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		return ModelRequest{}, fmt.Errorf("the request is not chat-completions JSON: %w", err)
	}
	req := ModelRequest{Role: role, Stream: wire.Stream}
	for _, t := range wire.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for _, w := range wire.Messages {
		msg := ModelMessage{Role: w.Role, ToolCallID: w.ToolCallID}
		if json.Unmarshal(w.Content, &msg.Content) != nil {
			var parts []struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(w.Content, &parts)
			for _, p := range parts {
				msg.Content += p.Text
			}
		}
		for _, c := range w.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, ModelCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	return req, nil
}

// wireCalls are a reply's calls as the wire writes them; index is set for a stream.
func wireCalls(calls []ModelCall, index bool) []map[string]any {
	out := make([]map[string]any, len(calls))
	for i, c := range calls {
		out[i] = map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
		if index {
			out[i]["index"] = i
		}
	}
	return out
}

func finishOf(r ModelReply) string {
	if len(r.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func writeReply(w http.ResponseWriter, r ModelReply) {
	msg := map[string]any{"role": "assistant", "content": r.Content}
	if len(r.Calls) > 0 {
		msg["tool_calls"] = wireCalls(r.Calls, false)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-scripted", "object": "chat.completion", "model": "scripted",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finishOf(r)}}})
}

// streamReply writes the reply as server-sent events: the text in one piece, then each
// call whole, then the finish reason.
func streamReply(w http.ResponseWriter, r ModelReply) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		raw, _ := json.Marshal(map[string]any{"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		_, _ = fmt.Fprintf(w, "data: %s\n\n", raw)
	}
	chunk(map[string]any{"role": "assistant", "content": r.Content}, nil)
	if len(r.Calls) > 0 {
		chunk(map[string]any{"tool_calls": wireCalls(r.Calls, true)}, nil)
	}
	chunk(map[string]any{}, finishOf(r))
	_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
}
