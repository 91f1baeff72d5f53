package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/store"
)

// downTemporal and downStore fail their health checks with errors that carry the kind
// of detail a driver puts in them: addresses and credentials.
type downTemporal struct{ client.Client }

func (downTemporal) CheckHealth(context.Context, *client.CheckHealthRequest) (*client.CheckHealthResponse, error) {
	return nil, errors.New("dial tcp 10.0.3.7:7233: connect: connection refused")
}

type downStore struct{ store.Store }

func (downStore) Ping(context.Context) error {
	return errors.New("server selection error: mongodb://lexflow:s3cret@mongo.internal:27017")
}

// TestReadyHidesDriverErrors: /readyz answers anyone, so it says what is down and
// never the driver's error; /healthz, the liveness check, stays 200 meanwhile.
func TestReadyHidesDriverErrors(t *testing.T) {
	h := &handlers{Temporal: downTemporal{}, Store: downStore{}, Log: slog.New(slog.DiscardHandler)}
	srv := newServer(h, routes)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	body := rec.Body.String()
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(body, `"temporal":"unavailable"`) || !strings.Contains(body, `"store":"unavailable"`) {
		t.Errorf("readyz: %d %s", rec.Code, body)
	}
	for _, leak := range []string{"10.0.3.7", "s3cret", "mongo.internal"} {
		if strings.Contains(body, leak) {
			t.Errorf("readyz shows %q to an anonymous caller: %s", leak, body)
		}
	}
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("healthz with Temporal and the store down = %d %s, want 200: the process itself is alive", rec.Code, rec.Body)
	}
}
