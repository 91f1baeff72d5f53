// Package httpserver builds the HTTP servers Lexflow runs, each with read-header,
// read, write and idle timeouts, and lets a handler that must run longer (an event
// stream, an upload, a request that waits for a workflow) set its own deadlines.
package httpserver

import (
	"net/http"
	"time"
)

// Timeouts bound a server's connections: ReadHeader the request's headers, Read the
// whole request, body included, Write the answer from the end of the headers on, and
// Idle a kept-alive connection between requests.
type Timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
}

// API are the API's timeouts (its codec server's too): a request's body arrives within
// 30 seconds (an upload extends that, see Extend) and its answer within two minutes,
// which covers every answer that does not wait on a workflow; a request that waits
// longer, and an event stream, set their own deadlines.
var API = Timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 2 * time.Minute, Idle: 2 * time.Minute}

// Model are the timeouts of the offline model's server, which streams an answer for as
// long as its chunks take.
var Model = Timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 10 * time.Minute, Idle: 2 * time.Minute}

// Ops are the timeouts of an operations server (health probes, metrics), whose answers
// are small and quick.
var Ops = Timeouts{ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 30 * time.Second, Idle: time.Minute}

// New returns a server of h with the timeouts t.
func New(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}

// Extend gives the request that w answers d more, from now, to have its body read and
// its answer written, in place of its server's Read and Write timeouts: a handler that
// reads a body for longer than Read, or answers later than Write, calls it first, or
// its answer is lost.
func Extend(w http.ResponseWriter, d time.Duration) {
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(d)
	_ = rc.SetReadDeadline(deadline)
	_ = rc.SetWriteDeadline(deadline)
}

// Stream gives an answer that streams for as long as its handler says (it ends the
// stream itself) d for its next write, in place of its server's Write timeout: call
// it before each write, so that the stream outlives the timeout and a client that
// stops reading is dropped within d.
func Stream(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}
