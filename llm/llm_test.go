package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

var caseTool = llm.Tool{Name: "get_case_details", Description: "case details", Parameters: map[string]any{"type": "object"}}

// TestToolCallingRoundTrip drives the offline model through the real client: a tool
// call, then an answer that cites the tool's result.
func TestToolCallingRoundTrip(t *testing.T) {
	srv, err := offline.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	c := llm.New(config.Model{BaseURL: srv.BaseURL, Model: offline.ModelName}, 10*time.Second)
	ctx := context.Background()
	msgs := []schemas.ChatMessage{
		{Role: schemas.MsgSystem, Content: "You are Lexflow.\nCase ID: c-1\nLanguage: ro"},
		{Role: schemas.MsgUser, Content: "Arată-mi detaliile cazului"},
	}
	resp, err := c.Complete(ctx, msgs, []llm.Tool{caseTool})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "get_case_details" || resp.FinishReason != "tool_calls" {
		t.Fatalf("response = %+v, want one get_case_details call", resp)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(resp.ToolCalls[0].Arguments), &args); err != nil || args["case_id"] != "c-1" {
		t.Fatalf("arguments = %s", resp.ToolCalls[0].Arguments)
	}
	msgs = append(msgs,
		schemas.ChatMessage{Role: schemas.MsgAssistant, ToolCalls: resp.ToolCalls},
		schemas.ChatMessage{Role: schemas.MsgTool, ToolCallID: resp.ToolCalls[0].ID,
			Content: `{"status":"success","case_details":{"summary":{"current":"Chiria nu a fost returnată"},"facts":[1,2]}}`})
	resp, err = c.Complete(ctx, msgs, []llm.Tool{caseTool})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Chiria nu a fost returnată", "Fapte înregistrate: 2", "Surse: get_case_details"} {
		if !strings.Contains(resp.Content, want) {
			t.Errorf("answer %q lacks %q", resp.Content, want)
		}
	}
	if len(resp.ToolCalls) != 0 {
		t.Errorf("answer also calls tools: %+v", resp.ToolCalls)
	}
	if u := resp.Usage; u.Prompt == 0 || u.Completion == 0 || u.Total != u.Prompt+u.Completion {
		t.Errorf("usage = %+v, want the offline model's reported prompt and completion tokens", u)
	}
}

// TestErrorsAndRetries checks that each request is sent once (the library's retries are
// off) and that Retryable sorts the endpoint's answers as the retry policy needs.
func TestErrorsAndRetries(t *testing.T) {
	for _, tc := range []struct {
		status    int
		retryable bool
	}{
		{400, false}, {401, false}, {403, false}, {404, false}, {422, false},
		{408, true}, {409, true}, {429, true}, {500, true}, {502, true}, {503, true},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			var calls atomic.Int32
			var auth atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				auth.Store(r.Header.Get("Authorization"))
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				fmt.Fprintf(w, `{"error":{"message":"status %d","type":"test","param":null,"code":null}}`, tc.status)
			}))
			defer srv.Close()
			c := llm.New(config.Model{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "sk-test"}, 5*time.Second)
			_, err := c.Complete(context.Background(), []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}}, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if got := llm.Retryable(err); got != tc.retryable {
				t.Errorf("Retryable(%v) = %v, want %v", err, got, tc.retryable)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("endpoint called %d times, want 1", n)
			}
			if got := auth.Load(); got != "Bearer sk-test" {
				t.Errorf("Authorization = %q", got)
			}
		})
	}
}

func TestUnreachableIsRetryable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := llm.New(config.Model{BaseURL: url + "/v1", Model: "m"}, 2*time.Second)
	_, err := c.Complete(context.Background(), []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}}, nil)
	if err == nil || !llm.Retryable(err) {
		t.Fatalf("error = %v, retryable = %v; want a retryable error", err, llm.Retryable(err))
	}
}
