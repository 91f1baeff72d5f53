package health

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"testing"
)

// TestReadinessAsksOnceASecond: within a second a check is answered again without
// asking the services; a service that fails is named.
func TestReadinessAsksOnceASecond(t *testing.T) {
	var r Readiness
	asked := 0
	down := Check{Name: "store", Ping: func(context.Context) error { asked++; return errors.New("dial tcp 10.0.0.7: refused") }}
	for range 3 {
		res, code := r.Check(t.Context(), slog.New(slog.DiscardHandler), down)
		if code != http.StatusServiceUnavailable || res["store"] != Unavailable || res["status"] != Unavailable {
			t.Fatalf("Check = %v, %d", res, code)
		}
	}
	if asked != 1 {
		t.Errorf("the service was asked %d times in a row, want once", asked)
	}
}
