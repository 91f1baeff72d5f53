// Package health answers a process's readiness check: whether the services it depends
// on (Temporal, the store, the legal corpus) answer.
package health

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"sync"
	"time"
)

// Unavailable is what the answer says of a service that does not answer; the error
// itself, which may name hosts and credentials, goes to the log, not to the caller.
const Unavailable = "unavailable"

// Check is one service a process depends on.
type Check struct {
	Name string
	Ping func(ctx context.Context) error
}

// timeout bounds a readiness check, all its services together; fresh is how long an
// answer is given again.
const (
	timeout = 3 * time.Second
	fresh   = time.Second
)

// Readiness runs readiness checks at most once a second: within a second, callers get
// the last answer, so that anonymous callers cannot make a process ask its services
// more often. Its zero value is ready to use.
type Readiness struct {
	mu   sync.Mutex
	at   time.Time
	res  map[string]string
	code int
}

// Check answers the body and status of a readiness check of checks: 200 with "ok" for
// each and "status": "ok", or 503 with Unavailable for each that does not answer,
// logged to log.
func (r *Readiness) Check(ctx context.Context, log *slog.Logger, checks ...Check) (map[string]string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.res != nil && time.Since(r.at) < fresh {
		return maps.Clone(r.res), r.code
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, code := map[string]string{"status": "ok"}, http.StatusOK
	for _, c := range checks {
		res[c.Name] = "ok"
		if err := c.Ping(ctx); err != nil {
			log.Warn("Readiness check failed", "service", c.Name, "error", err)
			res[c.Name], res["status"], code = Unavailable, Unavailable, http.StatusServiceUnavailable
		}
	}
	r.at, r.res, r.code = time.Now(), res, code
	return maps.Clone(res), code
}
