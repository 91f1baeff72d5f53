// Package eventhub wakes the API's event streams when a case's event log grows in the
// same process (`lexflow dev` runs the API and the worker together). Streams of
// events written by other processes are woken by their bounded poll of the store
// instead. The store tells a hub of each append through store/notify.
package eventhub

import "sync"

// Hub tells the subscribers of a case that its log grew. A nil Hub tells no one.
type Hub struct {
	mu   sync.Mutex
	subs map[string]map[*Sub]struct{}
}

// New returns an empty hub.
func New() *Hub { return &Hub{subs: map[string]map[*Sub]struct{}{}} }

// Sub is one stream's subscription to a case: C receives a value after the case's log
// grew, at most one pending, so a slow reader is woken once for many appends.
type Sub struct {
	C      <-chan struct{}
	c      chan struct{}
	hub    *Hub
	caseID string
}

// Subscribe subscribes to a case's appends until Close.
func (h *Hub) Subscribe(caseID string) *Sub {
	c := make(chan struct{}, 1)
	s := &Sub{C: c, c: c, hub: h, caseID: caseID}
	if h == nil {
		return s
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[caseID] == nil {
		h.subs[caseID] = map[*Sub]struct{}{}
	}
	h.subs[caseID][s] = struct{}{}
	return s
}

// Close ends the subscription.
func (s *Sub) Close() {
	h := s.hub
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs[s.caseID], s)
	if len(h.subs[s.caseID]) == 0 {
		delete(h.subs, s.caseID)
	}
}

// Notify wakes the subscribers of a case.
func (h *Hub) Notify(caseID string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[caseID] {
		select {
		case s.c <- struct{}{}:
		default:
		}
	}
}
