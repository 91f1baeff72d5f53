package api_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/schemas"
)

// TestCaseReadMakesNoTemporalCall: GET /v1/cases/{id} answers from the store, with the
// status the case's workflow recorded there: an API whose Temporal client counts its
// RPCs makes none for twenty reads, and the status it shows is the workflow's own, as
// its state query answers it, with its Seq and time.
func TestCaseReadMakesNoTemporalCall(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "rada")
	id := s.CreateCase(t, tok, "My landlord keeps the deposit of my flat")
	if r := s.Send(t, tok, id, "What can I do?"); r.Status != 200 {
		t.Fatalf("turn: %d %s", r.Status, r.Raw)
	}

	var rpcs atomic.Int64
	count := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoke grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		rpcs.Add(1)
		return invoke(ctx, method, req, reply, cc, opts...)
	}
	counted, err := client.Dial(client.Options{HostPort: s.Temporal.Address, Namespace: s.Config.TemporalNamespace,
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(count)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer counted.Close()
	reader := s.Serve(t, func(_ *config.Config, d *api.Deps) { d.Temporal = counted })
	dialed := rpcs.Load() // the client's own, when it connected

	get := func() schemas.CaseStatus {
		r := reader.Call(t, "GET", "/v1/cases/"+id, tok, nil)
		if r.Status != 200 {
			t.Fatalf("GET: %d %s", r.Status, r.Raw)
		}
		return decodeStatus(t, r.Body["state"])
	}
	for range 20 {
		get()
	}
	if n := rpcs.Load() - dialed; n != 0 {
		t.Errorf("twenty reads made %d Temporal RPCs, want none", n)
	}

	// The stored status is the workflow's, as its state query answers it, once the
	// workflow has recorded its latest change (a continue-as-new may be under way).
	v, err := s.TC.QueryWorkflow(t.Context(), schemas.CaseWorkflowID(id), "", schemas.QueryState)
	if err != nil {
		t.Fatal(err)
	}
	var queried schemas.CaseStatus
	if err := v.Get(&queried); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	shown := get()
	for shown.Seq < queried.Seq && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling the store, with a deadline
		shown = get()
	}
	if shown.Seq != queried.Seq || shown.UpdatedAt.IsZero() || shown.Turns != 1 || shown.Busy || shown.Runs != queried.Runs ||
		shown.Phase != queried.Phase || shown.Status != queried.Status || shown.Tier != queried.Tier || shown.Tier == 0 {
		t.Errorf("GET shows %+v; the workflow answers %+v", shown, queried)
	}
}

// decodeStatus decodes a response's "state" into a CaseStatus.
func decodeStatus(t *testing.T, v any) schemas.CaseStatus {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var st schemas.CaseStatus
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	return st
}
