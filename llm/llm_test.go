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
	c := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: 10 * time.Second})
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
			Content: "case_details:\nsummary: {\"current\":\"Chiria nu a fost returnată\"}\nfacts: [1,2]"})
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

// callers are the two ways to call a model: at once and streamed.
func callers(c *llm.Client) map[string]func([]schemas.ChatMessage) (schemas.ModelResponse, error) {
	return map[string]func([]schemas.ChatMessage) (schemas.ModelResponse, error){
		"complete": func(m []schemas.ChatMessage) (schemas.ModelResponse, error) {
			return c.Complete(context.Background(), m, nil)
		},
		"stream": func(m []schemas.ChatMessage) (schemas.ModelResponse, error) {
			return c.Stream(context.Background(), m, nil, func(string) {})
		},
	}
}

// TestErrorsAndRetries checks that each request is sent once (the library's retries are
// off), streamed or not, and that Retryable sorts the endpoint's answers as the retry
// policy needs.
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
			c := llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "sk-test", Timeout: 5 * time.Second})
			for name, call := range callers(c) {
				calls.Store(0)
				_, err := call([]schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}})
				if err == nil {
					t.Fatalf("%s: no error", name)
				}
				if got := llm.Retryable(err); got != tc.retryable {
					t.Errorf("%s: Retryable(%v) = %v, want %v", name, err, got, tc.retryable)
				}
				if n := calls.Load(); n != 1 {
					t.Errorf("%s: endpoint called %d times, want 1", name, n)
				}
				if got := auth.Load(); got != "Bearer sk-test" {
					t.Errorf("%s: Authorization = %q", name, got)
				}
			}
		})
	}
}

func TestUnreachableIsRetryable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := llm.New(llm.Endpoint{BaseURL: url + "/v1", Model: "m", Timeout: 2 * time.Second})
	for name, call := range callers(c) {
		_, err := call([]schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}})
		if err == nil || !llm.Retryable(err) {
			t.Fatalf("%s: error = %v, retryable = %v; want a retryable error", name, err, llm.Retryable(err))
		}
	}
}

// TestStreamAssemblesTheReply streams the offline model's answers, a tool call and a
// text, through the client: the reply equals the unstreamed one, usage included, and
// the text arrives in several pieces that join into it.
func TestStreamAssemblesTheReply(t *testing.T) {
	srv, err := offline.StartWith("127.0.0.1:0", offline.Options{ChunkDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	c := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: 10 * time.Second})
	for name, msgs := range map[string][]schemas.ChatMessage{
		"tool call": {{Role: schemas.MsgSystem, Content: "Case ID: c-1\nLanguage: ro"}, {Role: schemas.MsgUser, Content: "Arată-mi detaliile cazului"}},
		"text":      {{Role: schemas.MsgSystem, Content: "Case ID: c-1\nLanguage: en"}, {Role: schemas.MsgUser, Content: "Hello, who are you?"}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := c.Complete(t.Context(), msgs, []llm.Tool{caseTool})
			if err != nil {
				t.Fatal(err)
			}
			var pieces []string
			got, err := c.Stream(t.Context(), msgs, []llm.Tool{caseTool}, func(s string) { pieces = append(pieces, s) })
			if err != nil {
				t.Fatal(err)
			}
			if got.Content != want.Content || got.FinishReason != want.FinishReason || got.Usage != want.Usage || fmt.Sprint(got.ToolCalls) != fmt.Sprint(want.ToolCalls) {
				t.Errorf("streamed %+v, want %+v", got, want)
			}
			if strings.Join(pieces, "") != want.Content || (want.Content != "" && len(pieces) < 2) {
				t.Errorf("pieces %q, want several joining into %q", pieces, want.Content)
			}
		})
	}
}

// TestStreamEndingEarlyIsRetryable: a stream cut off before its finish reason, with or
// without [DONE], is a retryable error, not a short reply.
func TestStreamEndingEarlyIsRetryable(t *testing.T) {
	for name, tail := range map[string]string{"cut": "", "done": "data: [DONE]\n\n"} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Half an"},"finish_reason":null}]}`+"\n\n"+tail)
			}))
			defer srv.Close()
			c := llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second})
			var text string
			_, err := c.Stream(t.Context(), []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}}, nil, func(s string) { text += s })
			if err == nil || !llm.Retryable(err) {
				t.Fatalf("error = %v; want a retryable error", err)
			}
			if text != "Half an" {
				t.Errorf("text = %q, want the piece that came", text)
			}
		})
	}
}

// TestStreamToleratesChunkIDs: an endpoint that gives each chunk its own ID, and the
// usage chunk none, still streams one reply.
func TestStreamToleratesChunkIDs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range []string{
			`{"id":"a","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Bună "},"finish_reason":null}]}`,
			`{"id":"b","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"content":"ziua"},"finish_reason":"stop"}]}`,
			`{"id":"","object":"chat.completion.chunk","created":0,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", c)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	c := llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second})
	resp, err := c.Stream(t.Context(), []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}}, nil, func(string) {})
	if err != nil || resp.Content != "Bună ziua" || resp.Usage.Total != 5 {
		t.Fatalf("reply %+v, %v; want \"Bună ziua\" with its usage", resp, err)
	}
}
