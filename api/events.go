package api

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/store"
)

// Event stream bounds.
const (
	// keepAlive is how often an idle stream gets a comment line, so that proxies keep
	// it open.
	keepAlive = 15 * time.Second
	// maxStream bounds one stream: the client reconnects with Last-Event-ID.
	maxStream = time.Hour
	// writeStall is how long a stream's write may wait on its client: a client that
	// stops reading is dropped after it (see httpserver.Stream).
	writeStall = 2 * keepAlive
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

// EventPage answers GET /v1/cases/{id}/events as JSON: the events, and the cursor
// to ask for the next page with (?after=).
type EventPage struct {
	Events []EventView `json:"events"`
	Next   int64       `json:"next"`
}

func eventView(e store.Event) EventView {
	return EventView{Seq: e.Seq, Type: e.Type, TurnID: e.TurnID, At: e.At, Body: e.Body}
}

// caseEvents answers GET /v1/cases/{id}/events: with Accept: text/event-stream, the
// case's events after Last-Event-ID (or ?after=N) and then live ones as they are
// written; otherwise one JSON page of them (?after=N&limit=M).
func (h *handlers) caseEvents(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	return h.events(c, cs, failuresFor(c).event)
}

// supportEvents answers a case's events, as a page or a stream, to staff whose scope
// reaches it; the read is audited once per request.
func (h *handlers) supportEvents(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	if err := h.audit(c, auditEvents, cs.OrgID, cs.ID, nil); err != nil {
		return err
	}
	return h.events(c, cs, asKept.event)
}

// events answers the case's events after the client's cursor, as view shows them to
// the caller (failuresFor): a JSON page, or a stream when the client
// asks for Server-Sent Events.
func (h *handlers) events(c echo.Context, cs store.Case, view func(store.Event) store.Event) error {
	after, err := eventCursor(c)
	if err != nil {
		return err
	}
	if wantsStream(c) {
		if _, err := streamDialect(c); err != nil {
			return err
		}
		release, err := h.streamsOpen.take(identity(c))
		if err != nil {
			return err
		}
		defer release()
		return h.streamEvents(c, cs.ID, after, view)
	}
	limit, err := pageLimit(c, defaultEventsPage, maxEventsPage)
	if err != nil {
		return err
	}
	events, err := h.Store.ListEvents(c.Request().Context(), cs.ID, after, limit)
	if err != nil {
		return fmt.Errorf("%w: read events: %w", errUnavailable, err)
	}
	views := make([]EventView, len(events))
	for i, e := range events {
		views[i] = eventView(view(e))
		after = e.Seq
	}
	return c.JSON(http.StatusOK, EventPage{Events: views, Next: after})
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

// streamEvents writes the case's events after the cursor as Server-Sent Events, then
// the new ones as they are written (see follower). It ends when the client goes, when
// the caller's token expires or maxStream passes (with a reconnect event), or when the
// server shuts down (EndStreams); the turn it watches goes on either way.
func (h *handlers) streamEvents(c echo.Context, caseID string, after int64, view func(store.Event) store.Event) error {
	f := h.follow(c, caseID, after, view)
	defer f.close()
	for {
		events, err := f.read()
		if err != nil {
			return nil
		}
		for _, e := range events {
			if f.send(e) != nil {
				return nil
			}
		}
		if len(events) < streamBatch && !f.wait(nil) {
			return nil
		}
	}
}

// follower streams a case's log as it grows, as Server-Sent Events (id: the number,
// event: the type, data: the EventView). It reads again when an append in this process
// wakes it (the hub), on a poll of the store every h.EventsPoll, or when its caller's
// own channel does; a comment line every keepAlive keeps proxies from closing it.
type follower struct {
	h      *handlers
	c      echo.Context
	caseID string
	after  int64
	// view is the caller's view of an event (failuresFor).
	view func(store.Event) store.Event
	sub  *eventhub.Sub
	poll *time.Ticker
	idle *time.Ticker
	end  *time.Timer
	// ending is why the stream ends when end fires: its token expires then, or
	// maxStream passes.
	ending StreamEnd
	// aircoach sends AIR Coach's events beside Lexflow's (?events=aircoach).
	aircoach bool
}

// EventReconnect is the type of a stream's last event when the stream ends by itself,
// its token expired or its hour passed: the client reconnects with Last-Event-ID,
// and, for an expired token, a fresh one. It has no id: it is no event of the log.
const EventReconnect = "reconnect"

// StreamEnd is the data of a reconnect event: why the stream ended (ReasonTokenExpired
// or ReasonMaxStream) and what to do.
type StreamEnd struct {
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// Why a stream ends by itself.
const (
	ReasonTokenExpired = "token-expired"
	ReasonMaxStream    = "max-duration"
)

// follow starts the stream's response and its wake-ups; view is the caller's view of
// an event.
func (h *handlers) follow(c echo.Context, caseID string, after int64, view func(store.Event) store.Event) *follower {
	res := c.Response()
	httpserver.Stream(res.Writer, writeStall)
	res.Header().Set(echo.HeaderContentType, "text/event-stream")
	res.Header().Set("Cache-Control", "no-cache")
	res.Header().Set("X-Accel-Buffering", "no")
	res.WriteHeader(http.StatusOK)
	res.Flush()
	life, ending := maxStream, StreamEnd{Reason: ReasonMaxStream, Detail: "a stream lasts an hour at most: reconnect with Last-Event-ID"}
	if exp := identity(c).Expires; !exp.IsZero() && time.Until(exp) < life {
		life = time.Until(exp)
		ending = StreamEnd{Reason: ReasonTokenExpired, Detail: "the token this stream was opened with has expired: reconnect with Last-Event-ID and a fresh token"}
	}
	aircoach, _ := streamDialect(c) // checked before the stream started
	return &follower{h: h, c: c, caseID: caseID, after: after, view: view, sub: h.Hub.Subscribe(caseID), ending: ending, aircoach: aircoach,
		poll: time.NewTicker(cmp.Or(h.EventsPoll, DefaultEventsPoll)), idle: time.NewTicker(keepAlive), end: time.NewTimer(life)}
}

func (f *follower) close() {
	f.sub.Close()
	f.poll.Stop()
	f.idle.Stop()
	f.end.Stop()
}

// read returns the events written since the last read, at most streamBatch.
func (f *follower) read() ([]store.Event, error) {
	ctx := f.c.Request().Context()
	events, err := f.h.Store.ListEvents(ctx, f.caseID, f.after, streamBatch)
	if err != nil && ctx.Err() == nil {
		f.h.Log.Error("Event stream ended: the store failed", "case", f.caseID, "error", err)
	}
	if n := len(events); n > 0 {
		f.after = events[n-1].Seq
	}
	return events, err
}

// send writes one event of the log, and after it the AIR Coach event it makes when
// the client asked for those.
func (f *follower) send(e store.Event) error {
	e = f.view(e)
	if err := f.write(e.Seq, e.Type, eventView(e)); err != nil {
		return err
	}
	if !f.aircoach {
		return nil
	}
	if ac, ok := airCoachEvent(e); ok {
		return f.writeAirCoach(ac)
	}
	return nil
}

// write writes an event with data as its JSON, and an id unless it is 0.
func (f *follower) write(id int64, typ string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	res := f.c.Response()
	httpserver.Stream(res.Writer, writeStall)
	if id > 0 {
		if _, err := fmt.Fprintf(res, "id: %d\n", id); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(res, "event: %s\ndata: %s\n\n", typ, raw); err != nil {
		return err
	}
	res.Flush()
	f.h.Metrics.EventStreamed()
	return nil
}

// wait blocks until there may be more to read, or wake fires; false when the stream
// must end: the client went, the server shuts down, or the stream's time is up (its
// token expired, or maxStream passed: then it says so in a last reconnect event).
func (f *follower) wait(wake <-chan struct{}) bool {
	for {
		select {
		case <-f.c.Request().Context().Done():
			return false
		case <-f.h.streams.done():
			return false
		case <-f.end.C:
			_ = f.write(0, EventReconnect, f.ending)
			return false
		case <-f.sub.C:
			return true
		case <-f.poll.C:
			return true
		case <-wake:
			return true
		case <-f.idle.C:
			if !f.keepAlive() {
				return false
			}
		}
	}
}

// keepAlive writes the comment line that keeps proxies from closing an idle stream,
// and says whether the client is still there.
func (f *follower) keepAlive() bool {
	httpserver.Stream(f.c.Response().Writer, writeStall)
	if _, err := fmt.Fprint(f.c.Response(), ": keep-alive\n\n"); err != nil {
		return false
	}
	f.c.Response().Flush()
	return true
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
func (h *handlers) EndStreams() {
	h.streams.done()
	h.streams.end.Do(func() { close(h.streams.c) })
}
