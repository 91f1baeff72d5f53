package llm_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
)

// An exchange is one recording under testdata/providers/<provider>/: a call Lexflow
// makes, what its request must and must not carry, the provider's raw HTTP answer,
// and the reply Lexflow must make of it. Its file opens with a note of the documented
// behaviour it reproduces, a "source:" line with where that is documented, and a
// "today:" line saying whether the client before provider profiles passed it; then
// come sections, each under a "-- name --" line: call, request, response (its line
// also gives the status and the content type) and want.
type exchange struct {
	note     string
	call     exchangeCall
	request  requestWant
	status   int
	ctype    string
	response string
	want     replyWant
}

// exchangeCall is the call: Complete or Stream, to the provider of the recording's
// folder unless Provider names another. After names an exchange of the same folder
// whose reply comes first in the conversation, followed by one tool message per call
// it made, with ToolResult as content.
type exchangeCall struct {
	Mode       string                `json:"mode"`
	Provider   string                `json:"provider"`
	Model      string                `json:"model"`
	BasePath   string                `json:"base_path"`
	APIKey     string                `json:"api_key"`
	APIVersion string                `json:"api_version"`
	Messages   []schemas.ChatMessage `json:"messages"`
	Tools      []string              `json:"tools"`
	After      string                `json:"after"`
	ToolResult string                `json:"tool_result"`
}

// requestWant is what the endpoint checks in Lexflow's request. Paths are dotted
// (messages.2.tool_calls.0.extra_content); KeysNowhere are keys that must appear at no
// depth of the body.
type requestWant struct {
	Path        string            `json:"path"`
	Query       map[string]string `json:"query"`
	Headers     map[string]string `json:"headers"`
	NoHeaders   []string          `json:"no_headers"`
	Equal       map[string]any    `json:"equal"`
	Absent      []string          `json:"absent"`
	KeysNowhere []string          `json:"keys_nowhere"`
}

// replyWant is the reply Lexflow must make. Text is the streamed text (the content
// when empty); NotShown are strings (the model's reasoning) that must be in neither.
// Tool calls must have IDs, each its own; an ID given must be kept.
type replyWant struct {
	Content      string              `json:"content"`
	Text         *string             `json:"text"`
	ToolCalls    []schemas.ToolCall  `json:"tool_calls"`
	FinishReason string              `json:"finish_reason"`
	Usage        *schemas.TokenUsage `json:"usage"`
	NotShown     []string            `json:"not_shown"`
	Error        *struct {
		Retryable bool   `json:"retryable"`
		Contains  string `json:"contains"`
	} `json:"error"`
}

// conformanceTools are the tools calls offer, with schemas shaped as the registry's
// (schemas/tools/*.json) and a const, which some providers refuse.
var conformanceTools = map[string]llm.Tool{
	"get_case_details": {Name: "get_case_details", Description: "Reads the case's details.", Parameters: map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
		"properties":           map[string]any{"case_id": map[string]any{"type": "string", "description": "The case."}},
		"required":             []any{"case_id"},
		"additionalProperties": false,
	}},
	"kb_search": {Name: "kb_search", Description: "Searches the knowledge base.", Parameters: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query":    map[string]any{"type": "string", "minLength": 2},
			"language": map[string]any{"type": "string", "const": "ro"},
			"filters": map[string]any{"type": "object", "additionalProperties": false,
				"properties": map[string]any{"year": map[string]any{"type": "integer", "minimum": 1990}}},
		},
		"required":             []any{"query"},
		"additionalProperties": false,
	}},
}

// TestProviderConformance replays every recording through the real client, against a
// loopback server that answers the recorded bytes and checks the request.
func TestProviderConformance(t *testing.T) {
	dirs, err := filepath.Glob("testdata/providers/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".txt")
			t.Run(filepath.Base(dir)+"/"+name, func(t *testing.T) {
				replay(t, dir, name, "")
			})
		}
	}
}

// TestParallelCallsThroughEveryProfile replays standard parallel tool calls, as vLLM
// and OpenAI stream them, through every provider's profile: each keeps both calls,
// in their order, with their IDs.
func TestParallelCallsThroughEveryProfile(t *testing.T) {
	for _, p := range llm.Providers() {
		t.Run(string(p), func(t *testing.T) {
			replay(t, "testdata/providers/vllm", "stream-parallel-tool-calls", p)
		})
	}
}

// replay runs the exchange dir/name (after the one it follows) and checks it, as the
// provider of its folder unless provider or the call names another; it returns the
// conversation sent and the reply, for an exchange that follows it.
func replay(t *testing.T, dir, name string, provider llm.Provider) ([]schemas.ChatMessage, schemas.ModelResponse) {
	t.Helper()
	ex := readExchange(t, filepath.Join(dir, name+".txt"))
	msgs := ex.call.Messages
	if ex.call.After != "" {
		before, reply := replay(t, dir, ex.call.After, provider)
		msgs = append(before, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls, Echo: reply.Echo})
		for _, c := range reply.ToolCalls {
			msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgTool, ToolCallID: c.ID, Content: ex.call.ToolResult})
		}
		msgs = append(msgs, ex.call.Messages...)
	}
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, body = r, must(io.ReadAll(r.Body))
		w.Header().Set("Content-Type", ex.ctype)
		w.WriteHeader(ex.status)
		io.WriteString(w, ex.response)
	}))
	defer srv.Close()
	provider = cmp.Or(llm.Provider(ex.call.Provider), provider, llm.Provider(filepath.Base(dir)))
	c := llm.New(llm.Endpoint{BaseURL: srv.URL + cmp.Or(ex.call.BasePath, "/v1"), Model: cmp.Or(ex.call.Model, "m"),
		APIKey: cmp.Or(ex.call.APIKey, "sk-test"), APIVersion: ex.call.APIVersion, Provider: provider, Timeout: 5 * time.Second})
	var tools []llm.Tool
	for _, n := range ex.call.Tools {
		tools = append(tools, conformanceTools[n])
	}
	var reply schemas.ModelResponse
	var err error
	var text strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	switch ex.call.Mode {
	case "complete":
		reply, err = c.Complete(ctx, msgs, tools)
	case "stream":
		reply, err = c.Stream(ctx, msgs, tools, func(s string) { text.WriteString(s) })
	default:
		t.Fatalf("mode %q: want complete or stream", ex.call.Mode)
	}
	if got == nil {
		t.Fatalf("no request reached the endpoint (error %v)", err)
	}
	checkRequest(t, ex.request, got, body)
	checkReply(t, ex, reply, text.String(), err)
	if err == nil && reply.Provider != string(provider) {
		t.Errorf("the reply names provider %q, want %q", reply.Provider, provider)
	}
	return msgs, reply
}

func checkRequest(t *testing.T, want requestWant, r *http.Request, body []byte) {
	t.Helper()
	if want.Path != "" && r.URL.Path != want.Path {
		t.Errorf("request path %s, want %s", r.URL.Path, want.Path)
	}
	for k, v := range want.Query {
		if got := r.URL.Query().Get(k); got != v {
			t.Errorf("query %s=%q, want %q", k, got, v)
		}
	}
	for k, v := range want.Headers {
		if got := r.Header.Get(k); got != v {
			t.Errorf("header %s: %q, want %q", k, got, v)
		}
	}
	for _, k := range want.NoHeaders {
		if got := r.Header.Get(k); got != "" {
			t.Errorf("header %s sent (%q), want none", k, got)
		}
	}
	var req any
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, body)
	}
	for path, v := range want.Equal {
		if got, ok := at(req, path); !ok || !reflect.DeepEqual(got, v) {
			t.Errorf("request %s = %v (present %v), want %v", path, got, ok, v)
		}
	}
	for _, path := range want.Absent {
		if got, ok := at(req, path); ok {
			t.Errorf("request %s = %v, want it absent", path, got)
		}
	}
	for _, k := range want.KeysNowhere {
		if where := find(req, k, ""); where != "" {
			t.Errorf("request carries %q at %s, which the provider refuses", k, where)
		}
	}
}

func checkReply(t *testing.T, ex exchange, reply schemas.ModelResponse, text string, err error) {
	t.Helper()
	w := ex.want
	if w.Error != nil {
		if err == nil {
			t.Fatalf("reply %+v, want an error", reply)
		}
		if got := llm.Retryable(err); got != w.Error.Retryable {
			t.Errorf("Retryable(%v) = %v, want %v", err, got, w.Error.Retryable)
		}
		if !strings.Contains(err.Error(), w.Error.Contains) {
			t.Errorf("error %q lacks the provider's %q", err, w.Error.Contains)
		}
		return
	}
	if err != nil {
		t.Fatalf("error %v, want a reply", err)
	}
	if reply.Content != w.Content {
		t.Errorf("content %q, want %q", reply.Content, w.Content)
	}
	if ex.call.Mode == "stream" {
		wantText := w.Content
		if w.Text != nil {
			wantText = *w.Text
		}
		if text != wantText {
			t.Errorf("streamed text %q, want %q", text, wantText)
		}
	}
	for _, s := range w.NotShown {
		if strings.Contains(reply.Content, s) || strings.Contains(text, s) {
			t.Errorf("the reply shows %q, which is the model's reasoning", s)
		}
	}
	if reply.FinishReason != w.FinishReason {
		t.Errorf("finish reason %q, want %q", reply.FinishReason, w.FinishReason)
	}
	if w.Usage != nil && reply.Usage != *w.Usage {
		t.Errorf("usage %+v, want %+v", reply.Usage, *w.Usage)
	}
	if len(reply.ToolCalls) != len(w.ToolCalls) {
		t.Fatalf("tool calls %+v, want %+v", reply.ToolCalls, w.ToolCalls)
	}
	ids := map[string]bool{}
	for i, c := range reply.ToolCalls {
		wc := w.ToolCalls[i]
		if c.Name != wc.Name || c.Arguments != wc.Arguments || (wc.ID != "" && c.ID != wc.ID) {
			t.Errorf("tool call %d = %+v, want %+v", i, c, wc)
		}
		if c.ID == "" || ids[c.ID] {
			t.Errorf("tool call %d has ID %q: every call needs its own, for its tool message", i, c.ID)
		}
		ids[c.ID] = true
	}
}

// readExchange parses a recording.
func readExchange(t *testing.T, path string) exchange {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	var ex exchange
	var current string
	var b strings.Builder
	flush := func() {
		if current == "" {
			ex.note = b.String()
		} else {
			sections[current] = b.String()
		}
		b.Reset()
	}
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") {
			flush()
			current = strings.TrimSuffix(strings.TrimPrefix(line, "-- "), " --")
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	if !strings.Contains(ex.note, "\nsource: http") || !strings.Contains(ex.note, "\ntoday: ") {
		t.Fatalf("%s: the note must say what it reproduces, its source: and how the earlier client did (today:)", path)
	}
	for name, text := range sections {
		fields := strings.Fields(name)
		switch fields[0] {
		case "call":
			decode(t, path, text, &ex.call)
		case "request":
			decode(t, path, text, &ex.request)
		case "want":
			decode(t, path, text, &ex.want)
		case "response":
			if len(fields) != 3 {
				t.Fatalf("%s: want \"-- response <status> <content type> --\"", path)
			}
			status, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatalf("%s: status %q", path, fields[1])
			}
			ex.status, ex.ctype, ex.response = status, fields[2], text
		default:
			t.Fatalf("%s: unknown section %q", path, name)
		}
	}
	if ex.status == 0 {
		t.Fatalf("%s: no response section", path)
	}
	return ex
}

func decode(t *testing.T, path, text string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// at returns the value at a dotted path of decoded JSON.
func at(v any, path string) (any, bool) {
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[p]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// find returns the path of the first key named k at any depth of v, or "".
func find(v any, k, path string) string {
	switch x := v.(type) {
	case map[string]any:
		for key, val := range x {
			if key == k {
				return strings.TrimPrefix(path+"."+key, ".")
			}
			if where := find(val, k, path+"."+key); where != "" {
				return where
			}
		}
	case []any:
		for i, val := range x {
			if where := find(val, k, fmt.Sprintf("%s.%d", path, i)); where != "" {
				return where
			}
		}
	}
	return ""
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
