package api

import (
	"fmt"
	"sync"
	"time"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/store"
)

// MaxStreamsPerUser bounds the event streams (GET …/events and streamed messages) one
// user holds open on one API process: each reads the store every LEXFLOW_EVENTS_POLL
// for up to an hour. The web app holds one per open case page, and one more while a
// message streams.
const MaxStreamsPerUser = 6

// streamRetryAfter is when a stream refused past MaxStreamsPerUser may be opened again.
const streamRetryAfter = 15 * time.Second

// streamSlots count the event streams each user holds open on this process.
type streamSlots struct {
	mu     sync.Mutex
	byUser map[string]int
}

// take holds a place for a stream of who, or answers 429 past MaxStreamsPerUser;
// release gives it back.
func (s *streamSlots) take(who auth.Identity) (release func(), err error) {
	user := store.OwnerID(who.Org, who.Subject)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byUser[user] >= MaxStreamsPerUser {
		return nil, tooMany(fmt.Sprintf("you have %d event streams open on this server, the most one user may: close one, or read the events as JSON pages (without Accept: text/event-stream)", MaxStreamsPerUser), streamRetryAfter)
	}
	if s.byUser == nil {
		s.byUser = map[string]int{}
	}
	s.byUser[user]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.byUser[user]--; s.byUser[user] == 0 {
			delete(s.byUser, user)
		}
	}, nil
}
