package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/llm/offline"
)

// timedModel serves the offline model, streaming with a pause between chunks, and
// notes for each call when its first chunk of text and its end ([DONE]) were flushed
// to the client.
type timedModel struct {
	url string
	srv *http.Server
	mu  sync.Mutex
	log []modelCall
}

// modelCall is when a call's first text and its end were sent; zero when not (a call
// that chose tools without a word sends no text).
type modelCall struct {
	firstText, done time.Time
}

// textChunk matches a chunk whose delta carries text: not the first chunk, whose
// content is empty, nor a tool call's.
var textChunk = regexp.MustCompile(`"delta":\{"content":"[^"]`)

func startTimedModel(delay time.Duration) (*timedModel, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &timedModel{url: "http://" + l.Addr().String()}
	model := offline.HandlerWith(offline.Options{ChunkDelay: delay})
	m.srv = httpserver.New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		i := len(m.log)
		m.log = append(m.log, modelCall{})
		m.mu.Unlock()
		model.ServeHTTP(&timedWriter{ResponseWriter: w, m: m, i: i}, r)
	}), httpserver.Model)
	go func() { _ = m.srv.Serve(l) }()
	return m, nil
}

func (m *timedModel) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = m.srv.Shutdown(ctx)
}

// calls is how many calls the model has had.
func (m *timedModel) calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.log)
}

// span is when the first text of the calls from the n-th on was sent, and when the
// last of them ended.
func (m *timedModel) span(n int) (firstText, lastDone time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.log[n:] {
		if !c.firstText.IsZero() && (firstText.IsZero() || c.firstText.Before(firstText)) {
			firstText = c.firstText
		}
		if c.done.After(lastDone) {
			lastDone = c.done
		}
	}
	return firstText, lastDone
}

// timedWriter notes, at each flush, whether what it flushed held the call's first
// text or its end.
type timedWriter struct {
	http.ResponseWriter
	m       *timedModel
	i       int
	pending []byte
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.pending = append(w.pending, p...)
	return w.ResponseWriter.Write(p)
}

func (w *timedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	now := time.Now()
	w.m.mu.Lock()
	c := &w.m.log[w.i]
	if c.firstText.IsZero() && textChunk.Match(w.pending) {
		c.firstText = now
	}
	if bytes.Contains(w.pending, []byte("data: [DONE]")) {
		c.done = now
	}
	w.m.mu.Unlock()
	w.pending = w.pending[:0]
}
