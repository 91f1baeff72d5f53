package llm_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

// TestRecordThenReplay records a turn of two steps, one answered at once and one
// streamed, through the real client from the offline model, with an API key that
// must appear in no file; then a client whose endpoint is gone replays the turn
// from the recordings, and a request no recording answers fails finally, naming
// what was asked and what was recorded.
func TestRecordThenReplay(t *testing.T) {
	srv, err := offline.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const key = "sk-secret-never-written-0123456789"
	rec := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, APIKey: key, Timeout: 10 * time.Second, Record: dir})
	ctx := context.Background()
	first := []schemas.ChatMessage{
		{Role: schemas.MsgSystem, Content: "You are Lexflow.\n\nCase ID: c-1\nLanguage: ro\nRole: assistant\n"},
		{Role: schemas.MsgUser, Content: "Arată-mi detaliile cazului"},
	}
	call, err := rec.Complete(ctx, first, []llm.Tool{caseTool})
	if err != nil {
		t.Fatal(err)
	}
	second := append(first,
		schemas.ChatMessage{Role: schemas.MsgAssistant, ToolCalls: call.ToolCalls},
		schemas.ChatMessage{Role: schemas.MsgTool, ToolCallID: call.ToolCalls[0].ID, Content: "case_details:\nsummary: {\"current\":\"Chiria\"}"})
	var pieces []string
	answer, err := rec.Stream(ctx, second, []llm.Tool{caseTool}, func(s string) { pieces = append(pieces, s) })
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(names) != 2 || filepath.Base(names[0]) != "0001-assistant-step0.json" || filepath.Base(names[1]) != "0002-assistant-step1.json" {
		t.Fatalf("recordings = %v, want 0001-assistant-step0.json and 0002-assistant-step1.json", names)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), key) || strings.Contains(strings.ToLower(string(data)), "authorization") {
			t.Errorf("%s holds the API key or a header:\n%s", name, data)
		}
	}
	if data, _ := os.ReadFile(names[1]); !strings.Contains(string(data), "data: ") || !strings.Contains(string(data), `"get_case_details"`) {
		t.Errorf("the streamed recording lacks the stream as it came or the tools so far:\n%s", data)
	}

	play := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: 10 * time.Second, Replay: dir})
	again, err := play.Complete(ctx, first, []llm.Tool{caseTool})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.ToolCalls) != 1 || again.ToolCalls[0].Name != call.ToolCalls[0].Name || again.ToolCalls[0].ID != call.ToolCalls[0].ID {
		t.Errorf("replayed call = %+v, want %+v", again.ToolCalls, call.ToolCalls)
	}
	// The system prompt and the tool's result differ: a replay matches by role,
	// step and tools called so far, not by the whole conversation.
	edited := append([]schemas.ChatMessage{{Role: schemas.MsgSystem, Content: "An edited prompt.\nRole: assistant"}}, second[1:]...)
	edited[3].Content = "case_details: another text"
	var replayed []string
	streamed, err := play.Stream(ctx, edited, []llm.Tool{caseTool}, func(s string) { replayed = append(replayed, s) })
	if err != nil {
		t.Fatal(err)
	}
	if streamed.Content != answer.Content || strings.Join(replayed, "") != strings.Join(pieces, "") || len(replayed) != len(pieces) {
		t.Errorf("replayed stream = %q in %d pieces, want %q in %d", streamed.Content, len(replayed), answer.Content, len(pieces))
	}

	reasoner := []schemas.ChatMessage{{Role: schemas.MsgSystem, Content: "Role: reasoner"}, {Role: schemas.MsgUser, Content: "Ce strategie?"}}
	_, err = play.Complete(ctx, reasoner, nil)
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound || llm.Retryable(err) {
		t.Fatalf("miss = %v, want a final 404", err)
	}
	for _, want := range []string{"role reasoner, step 0, tools so far none", `"Ce strategie?"`,
		"role assistant, step 0, tools so far none", "role assistant, step 1, tools so far get_case_details"} {
		if !strings.Contains(apiErr.Message, want) {
			t.Errorf("miss message %q lacks %q", apiErr.Message, want)
		}
	}
}

// TestReplayTellsTurnsApart replays two turns of the reasoner whose first steps share a
// key: each is answered by the recording of the message that opened it.
func TestReplayTellsTurnsApart(t *testing.T) {
	srv, err := offline.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	dir := t.TempDir()
	rec := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: 10 * time.Second, Record: dir})
	play := llm.New(llm.Endpoint{BaseURL: "http://127.0.0.1:1/v1", Model: offline.ModelName, Timeout: 10 * time.Second, Replay: dir})
	ctx := context.Background()
	turn := func(asked string) []schemas.ChatMessage {
		return []schemas.ChatMessage{{Role: schemas.MsgSystem, Content: "Role: reasoner\nLanguage: en"}, {Role: schemas.MsgUser, Content: asked}}
	}
	want := map[string]string{}
	for _, asked := range []string{"Question: Who keeps the deposit?", "Question: When does the lease end?"} {
		r, err := rec.Complete(ctx, turn(asked), nil)
		if err != nil {
			t.Fatal(err)
		}
		want[asked] = r.Content
	}
	if want["Question: Who keeps the deposit?"] == want["Question: When does the lease end?"] {
		t.Fatal("the offline model answered both turns alike: the test tells nothing")
	}
	for asked, content := range want {
		r, err := play.Complete(ctx, turn(asked), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Content != content {
			t.Errorf("replay of %q = %q, want %q", asked, r.Content, content)
		}
	}
}
