package stack

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
)

// SSEEvent is one event read off a stream: its id, type and data, and the EventView it
// holds when it is an event of the log.
type SSEEvent struct {
	ID, Type, Data string
	View           api.EventView
}

// OpenEvents opens a case's event stream on the API at base, after the event numbered
// lastID ("" for the start); the stream ends with ctx.
func OpenEvents(ctx context.Context, t *testing.T, base, tok, caseID, lastID string) <-chan SSEEvent {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v1/cases/"+caseID+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	return ReadEvents(t, req, tok)
}

// ReadEvents sends a request for Server-Sent Events and delivers the events it reads
// until the stream ends. It parses the stream itself, line by line, as this project's
// web app does.
func ReadEvents(t *testing.T, req *http.Request, tok string) <-chan SSEEvent {
	t.Helper()
	ctx := req.Context()
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan SSEEvent)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		var e SSEEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				e.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				e.Type = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				e.Data = strings.TrimPrefix(line, "data: ")
				_ = json.Unmarshal([]byte(e.Data), &e.View)
			case line == "" && e.Type != "":
				select {
				case out <- e:
				case <-ctx.Done():
					return
				}
				e = SSEEvent{}
			}
		}
	}()
	return out
}

// NextEvent reads the stream's next event, failing the test after within.
func NextEvent(t *testing.T, events <-chan SSEEvent, within time.Duration) SSEEvent {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-time.After(within):
		t.Fatalf("no event within %s", within)
	}
	return SSEEvent{}
}
