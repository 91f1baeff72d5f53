package api

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/lexflow/lexflow/store"
)

// maxLimiters bounds how many callers' buckets a process keeps; past it, the buckets of
// callers who are idle (full again) are dropped.
const maxLimiters = 10000

// rateLimits are the request-rate token buckets of one API process, per user (store
// OwnerID) and per organization: each refills at its per-minute rate and holds ten
// seconds' worth, so a client may burst a little and then keep the pace.
type rateLimits struct {
	perUser, perOrg int
	mu              sync.Mutex
	buckets         map[string]*rate.Limiter
}

// bucket returns the caller's bucket for a limit of perMinute, creating it full.
func (l *rateLimits) bucket(key string, perMinute int, now time.Time) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buckets == nil {
		l.buckets = map[string]*rate.Limiter{}
	}
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxLimiters {
			for k, old := range l.buckets {
				if old.TokensAt(now) >= float64(old.Burst()) {
					delete(l.buckets, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(float64(perMinute)/60), max(perMinute/6, 1))
		l.buckets[key] = b
	}
	return b
}

// limitRequests refuses a request past its caller's rate or their organization's with
// 429 and Retry-After. The buckets live in this process: N API replicas allow N times
// the configured rates, so each replica's share is what to configure.
func (h *handlers) limitRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		who, now := identity(c), time.Now()
		var taken []*rate.Reservation
		for _, limit := range []struct {
			key, whose string
			perMinute  int
		}{{"user/" + store.OwnerID(who.Org, who.Subject), "your", h.limits.perUser}, {"org/" + who.Org, "your organization's", h.limits.perOrg}} {
			if limit.perMinute == 0 || (limit.whose != "your" && who.Org == "") {
				continue
			}
			r := h.limits.bucket(limit.key, limit.perMinute, now).ReserveN(now, 1)
			if delay := r.DelayFrom(now); delay > 0 {
				// A refused request takes no token from any bucket.
				r.CancelAt(now)
				for _, t := range taken {
					t.CancelAt(now)
				}
				return tooMany(fmt.Sprintf("%s requests are past %d a minute", limit.whose, limit.perMinute),
					time.Duration(math.Ceil(delay.Seconds()))*time.Second)
			}
			taken = append(taken, r)
		}
		return next(c)
	}
}
