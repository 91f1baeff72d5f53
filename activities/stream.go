package activities

import (
	"context"
	"fmt"
	"strings"
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

// heartbeatEvery is how often a model call tells Temporal that its worker is alive,
// a few times within the model activity's heartbeat timeout (workflows.modelOptions),
// so that a dead worker's call is tried again within seconds.
const heartbeatEvery = 2 * time.Second

// deltas publishes the text of attempt's model call of role as model.delta events,
// coalesced as deltaEvery and deltaChars say. text takes each piece as it arrives;
// end publishes what is left and returns once every event is written. An event's name
// holds the attempt and its number, so a retried call's events are new ones.
func (p *Publisher) deltas(ctx context.Context, role schemas.ModelRole, attempt int32) (text func(string), end func()) {
	in := make(chan string, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var buf strings.Builder
		var timer *time.Timer
		var due <-chan time.Time
		n := 0
		publish := func() {
			if timer != nil {
				timer.Stop()
				timer, due = nil, nil
			}
			if buf.Len() == 0 {
				return
			}
			n++
			p.Tell(ctx, fmt.Sprintf("%s#%d.%d", schemas.EventModelDelta, attempt, n), schemas.EventModelDelta,
				schemas.ModelDeltaEvent{Role: role, Attempt: attempt, Text: buf.String()})
			buf.Reset()
		}
		for {
			select {
			case piece, ok := <-in:
				if !ok {
					publish()
					return
				}
				buf.WriteString(piece)
				switch {
				case n == 0 || utf8.RuneCountInString(buf.String()) >= deltaChars:
					publish()
				case timer == nil:
					timer = time.NewTimer(deltaEvery)
					due = timer.C
				}
			case <-due:
				publish()
			}
		}
	}()
	return func(s string) { in <- s }, func() { close(in); <-done }
}

// heartbeat records the activity's heartbeat every heartbeatEvery until stop is
// called; outside an activity it does nothing.
func heartbeat(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
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
