package stack

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/llm/offline"
)

// ModelRecorder serves the offline model on loopback and keeps every request it
// receives, so a test can read what the models were shown.
type ModelRecorder struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

// StartModelRecorder starts a ModelRecorder that stops when the test ends.
func StartModelRecorder(t *testing.T) *ModelRecorder {
	m := &ModelRecorder{}
	model := offline.Handler()
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		m.requests = append(m.requests, string(body))
		m.mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		model.ServeHTTP(w, r)
	}))
	t.Cleanup(m.Close)
	return m
}

// Seen returns the bodies of the requests received so far, oldest first.
func (m *ModelRecorder) Seen() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.requests)
}
