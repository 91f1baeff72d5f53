package activities

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.temporal.io/sdk/activity"

	"github.com/lexflow/lexflow/schemas"
)

// How a model call's streamed text is cut into model.delta events: the first piece at
// once, so a client sees the answer begin, then what has come every deltaEvery or
// every deltaChars characters, whichever is first, so the log is not written per token.
const (
	deltaEvery = 50 * time.Millisecond
	deltaChars = 100
)

// heartbeatEvery is how often a model call records that its worker is alive, well
// within the model activity's heartbeat timeout (workflows.modelOptions), so that a
// dead worker's call is tried again within seconds. The SDK sends the latest at most
// every 0.8 of that timeout.
const heartbeatEvery = 2 * time.Second

// deltas publishes the text of attempt's model call of role as model.delta events,
// coalesced as deltaEvery and deltaChars say. text takes each piece as it arrives and
// never waits for the store: pieces gather while an event is being written, so a slow
// store makes fewer, larger events rather than holding up the model's stream. end
// publishes what is left and returns once every event is written; it may be called
// again. Once the activity is cancelled nothing more is published: its attempt is
// over. An event's name holds the attempt and its number, so a retried call's events
// are new ones.
func (p *Publisher) deltas(ctx context.Context, role schemas.ModelRole, attempt int32) (text func(string), end func()) {
	var (
		mu     sync.Mutex
		buf    strings.Builder
		closed bool
	)
	wake := make(chan struct{}, 1)
	signal := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		n := 0
		var timer *time.Timer
		var due <-chan time.Time
		for {
			fired := false
			select {
			case <-wake:
			case <-due:
				fired, due = true, nil
			}
			mu.Lock()
			pending, last := buf.String(), closed
			flush := pending != "" && (last || fired || n == 0 || utf8.RuneCountInString(pending) >= deltaChars)
			if flush {
				buf.Reset()
			}
			mu.Unlock()
			switch {
			case flush:
				if timer != nil {
					timer.Stop()
					timer, due = nil, nil
				}
				if ctx.Err() == nil {
					n++
					p.Tell(ctx, fmt.Sprintf("%s#%d.%d", schemas.EventModelDelta, attempt, n), schemas.EventModelDelta,
						schemas.ModelDeltaEvent{Role: role, Attempt: attempt, Text: pending})
				}
			case pending != "" && timer == nil:
				timer = time.NewTimer(deltaEvery)
				due = timer.C
			}
			if last {
				return
			}
		}
	}()
	text = func(s string) {
		mu.Lock()
		buf.WriteString(s)
		mu.Unlock()
		signal()
	}
	end = func() {
		mu.Lock()
		closed = true
		mu.Unlock()
		signal()
		<-done
	}
	return text, end
}

// heartbeat records the activity's heartbeat at once and then every heartbeatEvery
// until stop is called; outside an activity it does nothing.
func heartbeat(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	activity.RecordHeartbeat(ctx)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { cancel(); <-done }
}
