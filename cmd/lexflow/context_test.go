package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/modelctx"
	"github.com/lexflow/lexflow/schemas"
)

// TestContextCommand: lexflow context asks the API's context route with the admin's
// token and prints each message under its part's kind, turn, tool and size; an
// answer other than 200 is an error that quotes it.
func TestContextCommand(t *testing.T) {
	view := api.ContextView{CaseID: "c-1", Tools: []string{"kb_search"}, ToolTokens: 90, Context: modelctx.Context{
		ContextTokens: 32768, HistoryBudget: 13107, Tokens: 40, Dropped: []modelctx.Dropped{{TurnNo: 1, Line: "Turn 1."}},
		Messages: []schemas.ChatMessage{{Role: "system", Content: "You are Lexflow."},
			{Role: "assistant", ToolCalls: []schemas.ToolCall{{ID: "call_ab", Name: "kb_search", Arguments: `{"query":"deposit"}`}}},
			{Role: "tool", ToolCallID: "call_ab", Content: "[KB Massimario: 1 risultati]"}},
		Parts: []modelctx.Part{{Kind: "system", Chars: 16, Tokens: 4}, {Kind: "tool_calls", TurnNo: 2, Chars: 28, Tokens: 7},
			{Kind: "tool", TurnNo: 2, Tool: "kb_search", Chars: 29, Tokens: 8, Note: "cut to the tool's budget"}}}}
	var asked *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r
		if r.Header.Get("Authorization") != "Bearer admin-token" {
			http.Error(w, `{"type":"forbidden"}`, http.StatusForbidden)
			return
		}
		_ = json.NewEncoder(w).Encode(view)
	}))
	defer srv.Close()
	cfg := config.Config{PublicURL: srv.URL}
	var out bytes.Buffer
	if err := runContext(t.Context(), cfg, []string{"--token", "admin-token", "--message", "and now?", "c-1"}, &out); err != nil {
		t.Fatal(err)
	}
	if asked.URL.Path != "/v1/admin/cases/c-1/context" || asked.URL.Query().Get("message") != "and now?" {
		t.Errorf("asked %s", asked.URL)
	}
	for _, want := range []string{"reads 3 messages, about 40 tokens of a context of 32768", "1 earlier turns are left out",
		"--- #1 system: 16 characters, 4 tokens ---\nYou are Lexflow.", `call call_ab kb_search {"query":"deposit"}`,
		"--- #3 tool, turn 2, kb_search: 29 characters, 8 tokens (cut to the tool's budget) ---\n[KB Massimario: 1 risultati]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := runContext(t.Context(), cfg, []string{"--token", "user-token", "c-1"}, &out); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("a refused request = %v", err)
	}
	if err := runContext(t.Context(), cfg, []string{"c-1"}, &out); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("no token = %v", err)
	}
}
