package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/store"
)

// sseEvent is one event read off a stream.
type sseEvent struct {
	id, typ string
	view    api.EventView
}

// openStream opens a case's event stream on the API at base, after the event numbered
// lastID; the stream ends with ctx.
func openStream(ctx context.Context, t *testing.T, base, tok, caseID, lastID string) <-chan sseEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v1/cases/"+caseID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan sseEvent)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				e.id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				e.typ = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e.view)
			case line == "" && e.id != "":
				select {
				case out <- e:
				case <-ctx.Done():
					return
				}
				e = sseEvent{}
			}
		}
	}()
	return out
}

// next reads the stream's next event, failing the test after a few seconds.
func next(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10 s")
	}
	return sseEvent{}
}

// TestCaseEvents reads a case's event log as JSON pages and as a stream: the stream
// starts after Last-Event-ID, gets an event appended in its process at once, and,
// dropped and reopened on another API process after the last event it saw, gets the
// next one (written without waking it: found by the poll) exactly once.
func TestCaseEvents(t *testing.T) {
	tok := s.Token(t, "evie")
	id := s.CreateCase(t, tok, "A case whose events we read")
	hub := eventhub.New()
	h := s.Handlers(stack.TaskQueue)
	h.Hub = hub
	s.UseAPI(t, h)
	log := eventhub.Notifying{Store: s.Store, Hub: hub}
	// The case's own workflow may write events too: these are told apart by type.
	appendEvent := func(events store.Events, n int) {
		t.Helper()
		if _, err := events.AppendEvents(t.Context(), id, store.Event{ID: fmt.Sprintf("test-%d", n), Type: "test.event",
			TurnID: "t1", At: time.Now(), Body: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))}); err != nil {
			t.Fatal(err)
		}
	}
	for n := 1; n <= 3; n++ {
		appendEvent(log, n)
	}
	page := s.Call(t, "GET", "/v1/cases/"+id+"/events?limit=2", tok, nil)
	evs, _ := page.Body["events"].([]any)
	if page.Status != http.StatusOK || len(evs) != 2 || page.Body["next"] != 2.0 {
		t.Fatalf("first page: %d %s", page.Status, page.Raw)
	}
	if rest := s.Call(t, "GET", "/v1/cases/"+id+"/events?after=2", tok, nil); !strings.Contains(string(rest.Raw), `"body":{"n":3}`) {
		t.Errorf("page after 2: %s", rest.Raw)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/events", s.Token(t, "mallory"), nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/events", tok, nil, "Last-Event-ID", "x"), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/events?limit=5000", tok, nil), http.StatusUnprocessableEntity, "invalid-input")

	ctx, drop := context.WithCancel(t.Context())
	stream := openStream(ctx, t, s.APIURL, tok, id, "1")
	for _, want := range []int64{2, 3} {
		if e := next(t, stream); e.id != fmt.Sprint(want) || e.typ != "test.event" || e.view.Seq != want || e.view.TurnID != "t1" {
			t.Fatalf("event %+v, want number %d", e, want)
		}
	}
	appendEvent(log, 4)
	if e := next(t, stream); e.id != "4" || string(e.view.Body) != `{"n":4}` {
		t.Fatalf("live event %+v, want number 4", e)
	}
	drop()

	other := s.Handlers(stack.TaskQueue) // another API process: no hub of its own
	s.UseAPI(t, other)
	ctx, drop = context.WithCancel(t.Context())
	defer drop()
	stream = openStream(ctx, t, s.APIURL, tok, id, "4")
	appendEvent(s.Store, 5)
	if e := next(t, stream); e.id != "5" {
		t.Fatalf("after reconnecting: %+v, want number 5", e)
	}
	appendEvent(s.Store, 6)
	if e := next(t, stream); e.id != "6" {
		t.Errorf("then %+v, want number 6 (each event once, in order)", e)
	}
}
