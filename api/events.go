package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// Event stream bounds.
const (
	// keepAlive is how often an idle stream gets a comment line, so that proxies keep
	// it open.
	keepAlive = 15 * time.Second
	// maxStream bounds one stream: the client reconnects with Last-Event-ID.
	maxStream = time.Hour
	// streamBatch is how many events a stream reads from the store at once.
	streamBatch = 500
	// defaultEventsPage and maxEventsPage bound a JSON page of events.
	defaultEventsPage = 100
	maxEventsPage     = 1000
	// DefaultEventsPoll is how often a stream reads the store when no append in its
	// own process woke it: the most an event written by another process waits.
	DefaultEventsPoll = 100 * time.Millisecond
)

// EventView is an event as the API shows it: its number in the case's log, its type,
// the turn it belongs to, when, and its body.
type EventView struct {
	Seq    int64           `json:"seq"`
	Type   string          `json:"type"`
	TurnID string          `json:"turn_id,omitempty"`
	At     time.Time       `json:"at"`
	Body   json.RawMessage `json:"body,omitempty"`
}

func eventView(e store.Event) EventView {
	return EventView{Seq: e.Seq, Type: e.Type, TurnID: e.TurnID, At: e.At, Body: e.Body}
}

// caseEvents answers GET /v1/cases/{id}/events: with Accept: text/event-stream, the
// case's events after Last-Event-ID (or ?after=N) and then live ones as they are
// written; otherwise one JSON page of them (?after=N&limit=M).
func (h *Handlers) caseEvents(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	after, err := eventCursor(c)
	if err != nil {
		return err
	}
	if wantsStream(c) {
		return h.streamEvents(c, cs.ID, after)
	}
	limit := defaultEventsPage
	if s := c.QueryParam("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > maxEventsPage {
			return problemf(errInvalidInput, fmt.Sprintf("limit is 1 to %d", maxEventsPage))
		}
	}
	events, err := h.Store.ListEvents(c.Request().Context(), cs.ID, after, limit)
	if err != nil {
		return fmt.Errorf("%w: read events: %w", errUnavailable, err)
	}
	views := make([]EventView, len(events))
	for i, e := range events {
		views[i] = eventView(e)
		after = e.Seq
	}
	return c.JSON(http.StatusOK, map[string]any{"events": views, "next": after})
}

// eventCursor is the number a client has seen: Last-Event-ID, else ?after, else 0.
func eventCursor(c echo.Context) (int64, error) {
	s := c.Request().Header.Get("Last-Event-ID")
	if s == "" {
		s = c.QueryParam("after")
	}
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, problemf(errInvalidInput, "Last-Event-ID and after are an event's number, 0 or more")
	}
	return n, nil
}

// wantsStream reports whether the client asks for Server-Sent Events.
func wantsStream(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/event-stream")
}

// streamEvents writes the case's events after the cursor as Server-Sent Events (id:
// the number, event: the type, data: the EventView), then the new ones as they are
// written, woken by appends in this process or by a poll of the store every
// h.EventsPoll; a comment line every keepAlive keeps proxies from closing it. It ends
// when the client goes, after maxStream, or when the server shuts down (EndStreams);
// the turn it watches goes on either way.
func (h *Handlers) streamEvents(c echo.Context, caseID string, after int64) error {
	ctx := c.Request().Context()
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "text/event-stream")
	res.Header().Set("Cache-Control", "no-cache")
	res.Header().Set("X-Accel-Buffering", "no")
	res.WriteHeader(http.StatusOK)
	res.Flush()
	sub := h.Hub.Subscribe(caseID)
	defer sub.Close()
	poll := time.NewTicker(cmpDuration(h.EventsPoll, DefaultEventsPoll))
	defer poll.Stop()
	idle := time.NewTicker(keepAlive)
	defer idle.Stop()
	end := time.NewTimer(maxStream)
	defer end.Stop()
	for {
		events, err := h.Store.ListEvents(ctx, caseID, after, streamBatch)
		if err != nil {
			if ctx.Err() == nil {
				h.Log.Error("Event stream ended: the store failed", "case", caseID, "error", err)
			}
			return nil
		}
		for _, e := range events {
			data, err := json.Marshal(eventView(e))
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(res, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Type, data); err != nil {
				return nil
			}
			after = e.Seq
		}
		if len(events) > 0 {
			res.Flush()
			if len(events) == streamBatch {
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-h.streams.done():
			return nil
		case <-end.C:
			return nil
		case <-sub.C:
		case <-poll.C:
		case <-idle.C:
			if _, err := fmt.Fprint(res, ": keep-alive\n\n"); err != nil {
				return nil
			}
			res.Flush()
		}
	}
}

// streamGate ends the event streams when the server shuts down: http.Server.Shutdown
// waits for open requests without cancelling them, and a stream would hold it.
type streamGate struct {
	init, end sync.Once
	c         chan struct{}
}

func (g *streamGate) done() <-chan struct{} {
	g.init.Do(func() { g.c = make(chan struct{}) })
	return g.c
}

// EndStreams ends every event stream this API serves, now and from now on; register it
// with http.Server.RegisterOnShutdown.
func (h *Handlers) EndStreams() {
	h.streams.done()
	h.streams.end.Do(func() { close(h.streams.c) })
}

// cmpDuration is d when it is set, else def.
func cmpDuration(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
