package activities

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
)

// deadTemporal is a client of a Temporal frontend that does not answer: a loopback
// port that takes connections and never speaks.
func deadTemporal(t *testing.T) client.Client {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	c, err := client.NewLazyClient(client.Options{HostPort: l.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// closedStore is a store on the test's FerretDB whose connection is closed: every
// call to it fails.
func closedStore(t *testing.T) *mongostore.Store {
	t.Helper()
	s, err := mongostore.Open(t.Context(), ferretURI, "activities")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSystemStatsDegradesByPart: with Temporal not answering, system_stats still
// answers within its bound what the corpus and the store know, naming the parts that
// failed; the operator's staff get every organization's tokens, an organization's
// admin its own and neither the task queue nor the store's sizes; a store that fails costs only its part; with no part answering, it
// fails so that its policy retries it.
func TestSystemStatsDegradesByPart(t *testing.T) {
	ctx := context.Background()
	org := "stats-" + time.Now().Format("150405.000000")
	day := Day(time.Now())
	if err := st.RecordTokens(ctx, store.TokenUse{ID: org + "-1", Tenant: schemas.TenantKey(org, ""), CaseID: "c", Day: day, Tokens: 1234, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateCase(ctx, store.Case{ID: org + "-case", UserID: "u", OrgID: org, Details: store.NewDetails("x")}); err != nil {
		t.Fatal(err)
	}
	a := &Operations{Temporal: deadTemporal(t), TaskQueue: "lexflow", StuckAfter: 30 * time.Minute, Corpus: lc, Budgets: st, Sizes: st, CallTimeout: time.Second}

	start := time.Now()
	out, err := a.SystemStats(ctx, schemas.SystemStatsArgs{})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s with Temporal silent; the parts are bounded by 1 s each", took)
	}
	if err != nil || out.Status != schemas.ResultSuccess || out.Corpus == nil || out.Corpus.Articles == 0 || out.TaskQueue != nil || out.Cases != nil {
		t.Fatalf("operator's stats: %+v, %v", out, err)
	}
	if len(out.Failed) != 2 || out.Failed[0].Part != schemas.StatsCases || out.Failed[1].Part != schemas.StatsTaskQueue || out.Failed[0].Reason == "" {
		t.Errorf("failed parts %+v, want cases and task_queue with their reasons", out.Failed)
	}
	if len(out.Omitted) != 0 || out.Tokens == nil || out.Tokens.Day != day || out.Tokens.Tokens < 1234 {
		t.Errorf("the operator's view: omitted %+v, tokens %+v; want every organization's tokens, %s's 1234 among them", out.Omitted, out.Tokens, org)
	}
	if out.Store == nil || len(out.Store.Collections) != len(store.SizedCollections) {
		t.Fatalf("the operator's store sizes: %+v", out.Store)
	}
	for i, c := range out.Store.Collections {
		if c.Name != store.SizedCollections[i] || (c.Name == store.SizeCases && c.Documents < 1) {
			t.Errorf("store collection %d = %+v, want %s, with the case stored", i, c, store.SizedCollections[i])
		}
	}

	out, err = a.SystemStats(ctx, schemas.SystemStatsArgs{OrganizationID: &org})
	if err != nil || out.Organization != org || out.Tokens == nil || out.Tokens.Tokens != 1234 || out.Tokens.Day != day || out.TaskQueue != nil || out.Store != nil {
		t.Fatalf("organization's stats: %+v, %v", out, err)
	}
	if len(out.Omitted) != 2 || out.Omitted[0].Part != schemas.StatsTaskQueue || out.Omitted[1].Part != schemas.StatsStore ||
		len(out.Failed) != 1 || out.Failed[0].Part != schemas.StatsCases || out.Failed[0].Reason != "unavailable" {
		t.Errorf("organization's omitted %+v, failed %+v", out.Omitted, out.Failed)
	}

	closed := closedStore(t)
	a.Sizes, a.Budgets = closed, closed
	out, err = a.SystemStats(ctx, schemas.SystemStatsArgs{})
	if err != nil || out.Store != nil || out.Corpus == nil || out.Corpus.Articles == 0 {
		t.Fatalf("with the store failing: %+v, %v", out, err)
	}
	if len(out.Failed) != 4 || out.Failed[1].Part != schemas.StatsStore || !strings.Contains(out.Failed[1].Reason, "count") ||
		out.Failed[3].Part != schemas.StatsTokens || !strings.Contains(out.Failed[3].Reason, "tokens") {
		t.Errorf("with the store failing, failed %+v, want cases, store and tokens (with their reasons) and task_queue", out.Failed)
	}

	a.Corpus = nil
	if _, err := a.SystemStats(ctx, schemas.SystemStatsArgs{}); err == nil || !strings.Contains(err.Error(), "task_queue") ||
		!strings.Contains(err.Error(), "corpus") || !strings.Contains(err.Error(), "store") || !strings.Contains(err.Error(), "tokens") {
		t.Errorf("nothing answering: %v, want an error naming every part", err)
	}
}
