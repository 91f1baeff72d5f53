package llm_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/fakeembed"
	"github.com/lexflow/lexflow/llm"
)

func TestEmbedderSpeaksTheEmbeddingsWireFormat(t *testing.T) {
	srv := fakeembed.New(8)
	defer srv.Close()
	e := llm.NewEmbedder(llm.Endpoint{BaseURL: srv.URL(), Model: "fake-embed", Timeout: 5 * time.Second})
	vecs, tokens, err := e.Embed(context.Background(), []string{"lease lease", "theft", "lease lease"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 3 || len(vecs[0]) != 8 || tokens != 5 {
		t.Fatalf("got %d vectors of %d, %d tokens; want 3 of 8, 5 tokens", len(vecs), len(vecs[0]), tokens)
	}
	if !slices.Equal(vecs[0], vecs[2]) || slices.Equal(vecs[0], vecs[1]) {
		t.Errorf("vectors out of order: %v", vecs)
	}
	if e.Model() != "fake-embed" {
		t.Errorf("Model = %q", e.Model())
	}
}

func TestEmbedderFailureIsRetryable(t *testing.T) {
	srv := fakeembed.New(8)
	defer srv.Close()
	srv.FailFrom(1)
	_, _, err := llm.NewEmbedder(llm.Endpoint{BaseURL: srv.URL(), Model: "m", Timeout: 5 * time.Second}).Embed(context.Background(), []string{"x"})
	var apiErr *llm.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || !llm.Retryable(err) {
		t.Fatalf("err = %v, want a retryable 500", err)
	}
}
