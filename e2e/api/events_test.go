package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sse "github.com/tmaxmax/go-sse"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/eventhub"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/notify"
)

// next reads the stream's next event, failing the test after a few seconds.
func next(t *testing.T, events <-chan stack.SSEEvent) stack.SSEEvent {
	t.Helper()
	return stack.NextEvent(t, events, 10*time.Second)
}

// TestCaseEvents reads a case's event log as JSON pages and as a stream: the stream
// starts after Last-Event-ID, gets an event appended in its process at once, and,
// dropped and reopened on another API process after the last event it saw, gets the
// next ones (written without waking it: found by the poll) exactly once, and ends when
// that process shuts down.
func TestCaseEvents(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "evie")
	id := s.CreateCase(t, tok, "A case whose events we read")
	opened := openedEvents(t, tok, id) // the case's own, from its opening
	base := opened[len(opened)-1].Seq
	hub := eventhub.New()
	first := s.Serve(t, func(_ *config.Config, d *api.Deps) { d.Hub = hub })
	log := notify.Store{Store: s.Store, Hub: hub}
	appendEvent := func(events store.Events, n int64) {
		t.Helper()
		if _, err := events.AppendEvents(t.Context(), id, store.Event{ID: fmt.Sprintf("test-%d", n), Type: "test.event",
			TurnID: "t1", At: time.Now(), Body: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))}); err != nil {
			t.Fatal(err)
		}
	}
	for n := int64(1); n <= 3; n++ {
		appendEvent(log, n)
	}
	page := first.Call(t, "GET", fmt.Sprintf("/v1/cases/%s/events?after=%d&limit=2", id, base), tok, nil)
	evs, _ := page.Body["events"].([]any)
	if page.Status != http.StatusOK || len(evs) != 2 || page.Body["next"] != float64(base+2) {
		t.Fatalf("first page: %d %s", page.Status, page.Raw)
	}
	if rest := first.Call(t, "GET", fmt.Sprintf("/v1/cases/%s/events?after=%d", id, base+2), tok, nil); !strings.Contains(string(rest.Raw), `"body":{"n":3}`) {
		t.Errorf("page after the second: %s", rest.Raw)
	}
	stack.WantProblem(t, first.Call(t, "GET", "/v1/cases/"+id+"/events", s.Token(t, "mallory"), nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, first.Call(t, "GET", "/v1/cases/"+id+"/events", tok, nil, "Last-Event-ID", "x"), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, first.Call(t, "GET", "/v1/cases/"+id+"/events?limit=5000", tok, nil), http.StatusUnprocessableEntity, "invalid-input")

	ctx, drop := context.WithCancel(t.Context())
	stream := stack.OpenEvents(ctx, t, first.APIURL, tok, id, fmt.Sprint(base+1))
	for _, want := range []int64{base + 2, base + 3} {
		if e := next(t, stream); e.ID != fmt.Sprint(want) || e.Type != "test.event" || e.View.Seq != want || e.View.TurnID != "t1" {
			t.Fatalf("event %+v, want number %d", e, want)
		}
	}
	appendEvent(log, 4)
	if e := next(t, stream); e.ID != fmt.Sprint(base+4) || string(e.View.Body) != `{"n":4}` {
		t.Fatalf("live event %+v, want number %d", e, base+4)
	}
	drop()

	other := s.NewAPI(t, "", func(_ *config.Config, d *api.Deps) { d.Hub = nil }) // another API process: no hub of its own
	otherServer := httptest.NewServer(other)
	defer otherServer.Close()
	ctx, drop = context.WithCancel(t.Context())
	defer drop()
	stream = stack.OpenEvents(ctx, t, otherServer.URL, tok, id, fmt.Sprint(base+4))
	appendEvent(s.Store, 5)
	if e := next(t, stream); e.ID != fmt.Sprint(base+5) {
		t.Fatalf("after reconnecting: %+v, want number %d", e, base+5)
	}
	appendEvent(s.Store, 6)
	if e := next(t, stream); e.ID != fmt.Sprint(base+6) {
		t.Errorf("then %+v, want number %d (each event once, in order)", e, base+6)
	}
	other.EndStreams() // as the server's shutdown does
	select {
	case e, open := <-stream:
		if open {
			t.Errorf("after EndStreams the stream sent %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Error("the stream outlived EndStreams by 10 s")
	}
}

// eventsAfter reads a case's events after a number, as JSON pages.
func eventsAfter(t *testing.T, tok, caseID string, after int64) []api.EventView {
	t.Helper()
	var out []api.EventView
	for {
		r := s.Call(t, "GET", fmt.Sprintf("/v1/cases/%s/events?after=%d&limit=1000", caseID, after), tok, nil)
		var page struct {
			Events []api.EventView `json:"events"`
			Next   int64           `json:"next"`
		}
		if r.Status != http.StatusOK || json.Unmarshal(r.Raw, &page) != nil {
			t.Fatalf("events: %d %s", r.Status, r.Raw)
		}
		if len(page.Events) == 0 {
			return out
		}
		out, after = append(out, page.Events...), page.Next
	}
}

// openedEvents waits, a bounded time, until the case's opening has published tiering's
// notice, its last event (after the welcome's notice and tiering's model step), and
// returns the events.
func openedEvents(t *testing.T, tok, caseID string) []api.EventView {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		events := eventsAfter(t, tok, caseID, 0)
		stepped := slices.ContainsFunc(events, func(e api.EventView) bool { return e.Type == schemas.EventModelStep })
		if n := len(events); stepped && events[n-1].Type == schemas.EventNotice {
			return events
		}
		if time.Now().After(deadline) {
			t.Fatalf("the case's opening published %+v, and no notice after 30 s", events)
		}
	}
}

// turnSequence is what a turn that calls a tool publishes, in order: the model's first
// step says what it is about to do and chooses the tool, the second answers; each
// streams its text as model.delta events. A "+" stands for one or more in a row.
const turnSequence = "turn.started model.delta+ model.step tool.started tool.finished model.delta+ model.step citations turn.completed"

// sequence joins event types, writing a run of model.delta events as "model.delta+".
func sequence(types []string) string {
	var out []string
	for i, typ := range types {
		switch {
		case typ != schemas.EventModelDelta:
			out = append(out, typ)
		case i == 0 || types[i-1] != typ:
			out = append(out, typ+"+")
		}
	}
	return strings.Join(out, " ")
}

// TestTurnEvents: the activities of a case publish its events. Opening the case
// publishes its status moves and tiering's notice; a turn that calls a tool publishes
// turnSequence, and the deltas of each step join into its text: the first step's
// announces the tool, the second's are the answer that turn.completed carries.
func TestTurnEvents(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ted")
	id := s.CreateCase(t, tok, "My landlord keeps my deposit")
	opened := openedEvents(t, tok, id)
	var types []string
	for _, e := range opened {
		types = append(types, e.Type)
	}
	if got := strings.Join(types, " "); !strings.Contains(got, "status") || !strings.HasSuffix(got, "status notice") {
		t.Errorf("events of the case's opening: %s; want its status moves, then tiering's notice", got)
	}
	answer := s.Send(t, tok, id, "show me the case details")
	turn := eventsAfter(t, tok, id, opened[len(opened)-1].Seq)
	types = nil
	for _, e := range turn {
		types = append(types, e.Type)
		if e.TurnID != answer.Body["turn_id"] {
			t.Errorf("%s of turn %q, want %v", e.Type, e.TurnID, answer.Body["turn_id"])
		}
	}
	if got := sequence(types); got != turnSequence {
		t.Fatalf("turn events: %s\nwant         %s", got, turnSequence)
	}
	var done schemas.TurnResult
	if err := json.Unmarshal(turn[len(turn)-1].Body, &done); err != nil || done.Reply != answer.Body["reply"] || len(done.ToolsUsed) != 1 {
		t.Errorf("turn.completed = %s\nwant the answer %s", turn[len(turn)-1].Body, answer.Raw)
	}
	var texts [2]strings.Builder // the two steps' text
	step := 0
	for _, e := range turn {
		switch e.Type {
		case schemas.EventModelStep:
			step++
		case schemas.EventModelDelta:
			var d schemas.ModelDeltaEvent
			if err := json.Unmarshal(e.Body, &d); err != nil || d.Role != schemas.ModelAssistant {
				t.Errorf("model.delta = %s", e.Body)
			}
			texts[step].WriteString(d.Text)
		case schemas.EventToolFinished:
			var finished schemas.ToolFinishedEvent
			if err := json.Unmarshal(e.Body, &finished); err != nil || finished.Tool != "get_case_details" || finished.Status != schemas.ToolOK || finished.Summary == "" {
				t.Errorf("tool.finished = %s", e.Body)
			}
		}
	}
	if got := texts[0].String(); got != "One moment: I am asking get_case_details." {
		t.Errorf("the first step's deltas say %q", got)
	}
	if got := texts[1].String(); got != done.Reply {
		t.Errorf("the answer's deltas say %q; the answer is %q", got, done.Reply)
	}
}

// streamMessage sends a message asking for Server-Sent Events and reads the stream to
// its end: the events, and their types in order.
func streamMessage(t *testing.T, c *stack.Client, tok, id, body string) ([]stack.SSEEvent, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute) // a turn's stream ends well before
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", c.APIURL+"/v1/cases/"+id+"/messages", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	var got []stack.SSEEvent
	var types []string
	for e := range stack.ReadEvents(t, req, tok) {
		got = append(got, e)
		types = append(types, e.Type)
	}
	return got, types
}

// TestStreamedTurn sends a message asking for Server-Sent Events: the response streams
// the turn's events as they are written, in order, and ends with turn.completed, whose
// number is the logged event's and whose data is the answer the request gives without
// streaming (phase and status included). A message the case refuses answers as a
// problem, not as a stream.
func TestStreamedTurn(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "stella")
	id := s.CreateCase(t, tok, "My landlord keeps my deposit")
	openedEvents(t, tok, id)
	got, types := streamMessage(t, s.Client, tok, id, `{"message":"show me the case details"}`)
	if got := sequence(types); got != turnSequence {
		t.Fatalf("streamed events: %s\nwant            %s", got, turnSequence)
	}
	last := got[len(got)-1]
	var streamed schemas.TurnResult
	if err := json.Unmarshal([]byte(last.Data), &streamed); err != nil {
		t.Fatal(err)
	}
	logged := eventsAfter(t, tok, id, 0)
	if l := logged[len(logged)-1]; l.Type != schemas.EventTurnCompleted || fmt.Sprint(l.Seq) != last.ID {
		t.Errorf("the stream's last event is number %s, the log's turn.completed %d", last.ID, l.Seq)
	}
	plain := s.Send(t, tok, id, "show me the case details")
	var answer schemas.TurnResult
	if err := json.Unmarshal(plain.Raw, &answer); err != nil {
		t.Fatal(err)
	}
	if streamed.Reply == "" || streamed.Reply != answer.Reply || streamed.Phase != answer.Phase || streamed.Status != answer.Status ||
		len(streamed.ToolsUsed) != len(answer.ToolsUsed) || streamed.TurnID != schemas.TurnWorkflowID(id, 1) {
		t.Errorf("streamed answer %s\nnon-streamed  %s", last.Data, plain.Raw)
	}

	if r := s.Call(t, "POST", "/v1/cases/"+id+"/close", tok, nil); r.Status != http.StatusOK {
		t.Fatalf("close: %d %s", r.Status, r.Raw)
	}
	refused := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "hello?"}, "Accept", "text/event-stream")
	stack.WantProblem(t, refused, http.StatusConflict, "case-closed")
}

// TestSSEClientLibraryReconnects reads a case's event stream with a real SSE client
// library (github.com/tmaxmax/go-sse), not this project's parser. The API process
// behind its URL shuts down mid-stream and another takes its place: the library
// reconnects by itself with Last-Event-ID, and gets every event once, in order.
func TestSSEClientLibraryReconnects(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lib")
	id := s.CreateCase(t, tok, "A case read by a library")
	opened := openedEvents(t, tok, id)
	base := opened[len(opened)-1].Seq
	hub := eventhub.New()
	first := s.NewAPI(t, "", func(_ *config.Config, d *api.Deps) { d.Hub = hub })
	second := s.NewAPI(t, "", nil)
	var serving atomic.Pointer[http.Handler]
	firstServer := http.Handler(first)
	serving.Store(&firstServer)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*serving.Load()).ServeHTTP(w, r) }))
	defer srv.Close()

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/v1/cases/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-ID", fmt.Sprint(base))
	client := &sse.Client{Backoff: sse.Backoff{InitialInterval: 50 * time.Millisecond, Multiplier: 1, Jitter: -1, MaxRetries: 20}}
	conn := client.NewConnection(req)
	got := make(chan sse.Event, 16)
	conn.SubscribeToAll(func(e sse.Event) { got <- e })
	go func() { _ = conn.Connect() }()
	receive := func(n int64) {
		t.Helper()
		select {
		case e := <-got:
			var view api.EventView
			if err := json.Unmarshal([]byte(e.Data), &view); err != nil || e.LastEventID != fmt.Sprint(base+n) || view.Seq != base+n ||
				string(view.Body) != fmt.Sprintf(`{"n":%d}`, n) {
				t.Fatalf("event %+v, want number %d", e, base+n)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %d within 10 s", base+n)
		}
	}
	write := func(events store.Events, n int64) {
		t.Helper()
		if _, err := events.AppendEvents(t.Context(), id, store.Event{ID: fmt.Sprintf("lib-%d", n), Type: "test.event",
			At: time.Now(), Body: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))}); err != nil {
			t.Fatal(err)
		}
	}
	for n := int64(1); n <= 3; n++ {
		write(notify.Store{Store: s.Store, Hub: hub}, n)
		receive(n)
	}
	next := http.Handler(second)
	serving.Store(&next)
	first.EndStreams() // the first process shuts down; the library reconnects to the second
	for n := int64(4); n <= 6; n++ {
		write(s.Store, n)
		receive(n)
	}
	select {
	case e := <-got:
		t.Errorf("an event more: %+v", e)
	default:
	}
}

// TestStreamedTurnThatFails: a model that refuses the request fails the turn, which
// publishes turn.failed; the streamed request ends with it, numbered like the logged
// one, its data the turn-failed problem.
func TestStreamedTurnThatFails(t *testing.T) {
	t.Parallel()
	model := startScriptedModel(t)
	refusing, queue := s.ServeQueue(t, "e2e-refusing-model")
	s.StartHelperWorker(t, queue, 0, "LEXFLOW_ASSISTANT_BASE_URL="+model.URL+"/v1", "LEXFLOW_ASSISTANT_MODEL=hostile")
	tok := s.Token(t, "fay")
	id := refusing.CreateCase(t, tok, "A question the model will refuse")
	model.next(schemas.ToolGetCaseDetails, `{}`)
	refusing.Send(t, tok, id, "hello")
	model.next("", "")
	got, types := streamMessage(t, refusing, tok, id, `{"message":"and now?"}`)
	if len(got) == 0 || got[0].Type != schemas.EventTurnStarted || got[len(got)-1].Type != schemas.EventTurnFailed {
		t.Fatalf("streamed events: %v; want turn.started first and turn.failed last", types)
	}
	last := got[len(got)-1]
	var problem struct {
		Type   string `json:"type"`
		Status int    `json:"status"`
	}
	if err := json.Unmarshal([]byte(last.Data), &problem); err != nil || !strings.HasSuffix(problem.Type, "/turn-failed") || problem.Status != http.StatusBadGateway {
		t.Errorf("turn.failed data %s; want the turn-failed problem", last.Data)
	}
	logged := eventsAfter(t, tok, id, 0)
	l := logged[len(logged)-1]
	var failed schemas.TurnFailedEvent
	if l.Type != schemas.EventTurnFailed || fmt.Sprint(l.Seq) != last.ID || json.Unmarshal(l.Body, &failed) != nil ||
		!strings.Contains(failed.Reason, "this request is refused") {
		t.Errorf("logged %s %d %s; the stream's last event is number %q", l.Type, l.Seq, l.Body, last.ID)
	}
}

// TestStreamReconnectsMidTurn reads a turn's events from one API process, drops the
// connection once the model has begun to stream, and reconnects with Last-Event-ID to
// a second API process while the turn goes on (its worker, a process apart, streams
// slowly): the two connections together deliver the turn's events as the log holds
// them, none missing, none repeated, in order.
func TestStreamReconnectsMidTurn(t *testing.T) {
	t.Parallel()
	firstAPI, queue := s.ServeQueue(t, "e2e-reconnect")
	s.StartHelperWorker(t, queue, 0, "LEXFLOW_OFFLINE_CHUNK_DELAY=150ms")
	tok := s.Token(t, "rhea")
	id := firstAPI.CreateCase(t, tok, "A turn read over two connections")
	opened := openedEvents(t, tok, id)
	base := opened[len(opened)-1].Seq
	ctx, drop := context.WithCancel(t.Context())
	stream := stack.OpenEvents(ctx, t, firstAPI.APIURL, tok, id, fmt.Sprint(base))
	answered := firstAPI.SendInBackground(tok, id, "show me the case details")
	var got []stack.SSEEvent
	for len(got) == 0 || got[len(got)-1].Type != schemas.EventModelDelta {
		got = append(got, next(t, stream))
	}
	drop()

	secondAPI := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.TaskQueue = queue }) // another API process
	ctx, drop = context.WithCancel(t.Context())
	defer drop()
	stream = stack.OpenEvents(ctx, t, secondAPI.APIURL, tok, id, got[len(got)-1].ID)
	for got[len(got)-1].Type != schemas.EventTurnCompleted {
		got = append(got, next(t, stream))
	}
	select {
	case a := <-answered:
		if a.Err != nil || a.R.Status != http.StatusOK {
			t.Fatalf("answer: %v %d %s", a.Err, a.R.Status, a.R.Raw)
		}
	case <-time.After(time.Minute):
		t.Fatal("the turn did not end")
	}
	logged := eventsAfter(t, tok, id, base)
	var want, seen []string
	for _, e := range logged {
		want = append(want, fmt.Sprint(e.Seq, " ", e.Type))
	}
	for _, e := range got {
		seen = append(seen, e.ID+" "+e.Type)
	}
	if strings.Join(seen, ", ") != strings.Join(want, ", ") {
		t.Errorf("the two connections delivered\n%s\nthe log holds\n%s", strings.Join(seen, ", "), strings.Join(want, ", "))
	}
	if deltas := strings.Count(strings.Join(seen, ","), schemas.EventModelDelta); deltas < 3 {
		t.Errorf("%d deltas; want the answer's streamed over both connections", deltas)
	}
}
