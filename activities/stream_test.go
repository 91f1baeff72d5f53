package activities

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

// deltaTexts are the texts of a case's model.delta events, in order.
func deltaTexts(t *testing.T, caseID string) []string {
	t.Helper()
	events, err := st.ListEvents(t.Context(), caseID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range events {
		if e.Type != schemas.EventModelDelta {
			continue
		}
		var d schemas.ModelDeltaEvent
		if err := json.Unmarshal(e.Body, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d.Text)
	}
	return out
}

// TestDeltasCoalesce: many small pieces that come at speed are gathered into far
// fewer events, which joined are the text.
func TestDeltasCoalesce(t *testing.T) {
	caseID := uuid.NewString()
	p := &Publisher{Events: st}
	pieces := []string{"Buna ziua, "}
	for range 60 {
		pieces = append(pieces, "chiria ")
	}
	err := runAsActivity(schemas.TurnWorkflowID(caseID, 1), func(ctx context.Context) error {
		text, end := p.deltas(ctx, schemas.ModelAssistant, 1)
		for _, s := range pieces {
			text(s)
		}
		end()
		end() // a second end is harmless
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := deltaTexts(t, caseID)
	if strings.Join(got, "") != strings.Join(pieces, "") {
		t.Fatalf("events %q, want them to join into %q", got, strings.Join(pieces, ""))
	}
	if len(got) > len(pieces)/4 {
		t.Errorf("%d pieces gave %d events; want them coalesced", len(pieces), len(got))
	}
}

// TestDeltasFlushWhileTheStreamPauses: the first piece is published at once, and a
// later one that waits in the coalescer is published after deltaEvery, though the
// stream has neither ended nor sent more.
func TestDeltasFlushWhileTheStreamPauses(t *testing.T) {
	caseID := uuid.NewString()
	p := &Publisher{Events: st}
	waitFor := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Second); len(deltaTexts(t, caseID)) < n; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("event %d is not published while the stream pauses: %q", n, deltaTexts(t, caseID))
				return
			}
		}
	}
	err := runAsActivity(schemas.TurnWorkflowID(caseID, 1), func(ctx context.Context) error {
		text, end := p.deltas(ctx, schemas.ModelAssistant, 1)
		defer end()
		text("Prima parte. ")
		waitFor(1)
		text("A doua parte.")
		waitFor(2)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := deltaTexts(t, caseID); strings.Join(got, "|") != "Prima parte. |A doua parte." {
		t.Errorf("events %q", got)
	}
}

// TestDeltasStopWithTheAttempt: text that comes after the activity is cancelled is
// not published; the attempt is over and its retry streams anew.
func TestDeltasStopWithTheAttempt(t *testing.T) {
	caseID := uuid.NewString()
	p := &Publisher{Events: st}
	err := runAsActivity(schemas.TurnWorkflowID(caseID, 1), func(ctx context.Context) error {
		ctx, cancel := context.WithCancel(ctx)
		text, end := p.deltas(ctx, schemas.ModelAssistant, 1)
		cancel()
		text("too late")
		end()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := deltaTexts(t, caseID); len(got) != 0 {
		t.Errorf("a cancelled attempt published %q", got)
	}
}

// TestCallModelStreams asks the offline model, streaming with a pause between chunks,
// through the model activity: its text comes as model.delta events that join into the
// reply, and model.step follows them.
func TestCallModelStreams(t *testing.T) {
	srv, err := offline.StartWith("127.0.0.1:0", offline.Options{ChunkDelay: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	lib, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	client := llm.New(llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: 10 * time.Second})
	m := &Model{Clients: map[schemas.ModelRole]*llm.Client{schemas.ModelAssistant: client}, Transcripts: st, Memories: st,
		Prompts: &SystemPrompts{Library: lib, Versions: st}, Events: &Publisher{Events: st}}
	caseID := uuid.NewString()
	var resp schemas.ModelResponse
	err = runAsActivity(schemas.TurnWorkflowID(caseID, 1), func(ctx context.Context) error {
		resp, err = m.CallModel(ctx, schemas.ModelRequest{Role: schemas.ModelAssistant, CaseID: caseID, TurnNo: 1, Language: "en",
			Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "Hello, who are you?"}}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got := deltaTexts(t, caseID)
	if resp.Content == "" || strings.Join(got, "") != resp.Content || len(got) < 2 {
		t.Errorf("deltas %q, want several joining into %q", got, resp.Content)
	}
	events, err := st.ListEvents(t.Context(), caseID, 0, 0)
	if err != nil || len(events) == 0 {
		t.Fatalf("ListEvents = %d events, %v", len(events), err)
	}
	if last := events[len(events)-1]; last.Type != schemas.EventModelStep {
		t.Errorf("last event %s, want model.step after the deltas", last.Type)
	}
}
