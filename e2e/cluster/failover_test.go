package cluster_test

import (
	"maps"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
)

// FailoverEnv runs TestClusterFailover when set; `make cluster-test` sets it.
const FailoverEnv = "LEXFLOW_CLUSTER_FAILOVER"

// TestClusterFailover tells a case's story on the cluster (two workers, two APIs, the
// offline model streaming slowly, as a real one would) while processes die:
//
//  1. a turn with everything up;
//  2. a turn during which worker-1 is killed, once the turn has started: the other
//     worker finishes it, after the heartbeat timeout if worker-1 held its activity;
//  3. a turn whose API process (api-1) is killed while the client waits: the client
//     sends the message again, with the same Idempotency-Key, to api-2, and gets that
//     same turn;
//  4. a turn on the survivors.
//
// Every turn completes once: one user record per turn, and each fact a turn recorded
// is in the case once. It logs how long each turn took.
func TestClusterFailover(t *testing.T) {
	if os.Getenv(FailoverEnv) == "" {
		t.Skip("make cluster-test runs it (" + FailoverEnv + "=1)")
	}
	slow := "LEXFLOW_OFFLINE_CHUNK_DELAY=100ms"
	w1 := start(t, "worker-1", "worker", slow)
	start(t, "worker-2", "worker", slow)
	a1, a2 := start(t, "api-1", "api"), start(t, "api-2", "api")
	user := token(t, "fran", "failover", schemas.RoleUser)
	id := openCase(t, a1.url, user, "failover")
	events := stack.OpenEvents(t.Context(), t, a2.url, user, id, "")
	started := func(n int) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			e := stack.NextEvent(t, events, time.Until(deadline))
			if e.Type == schemas.EventTurnStarted && e.View.TurnID == turnID(id, n) {
				return
			}
		}
		t.Fatalf("turn %d did not start within a minute", n)
	}
	send := func(base, msg string, headers ...string) <-chan answerOrErr {
		out := make(chan answerOrErr, 1)
		go func() {
			a, err := call(base, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": msg}, headers...)
			out <- answerOrErr{a, err}
		}()
		return out
	}
	wantTurn := func(a answer, n int) {
		t.Helper()
		if a.status != http.StatusOK || a.body["turn_id"] != turnID(id, n) {
			t.Fatalf("turn %d: %d %s", n, a.status, a.raw)
		}
	}

	begin := time.Now()
	wantTurn(must(t, http.StatusOK, a1.url, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": "show me the case details"}), 1)
	t.Logf("turn 1, everything up: %v", time.Since(begin).Round(time.Millisecond))

	begin = time.Now()
	pending := send(a1.url, "fact: the lease ended on 1 March")
	started(2)
	killed := time.Now()
	w1.kill()
	r := <-pending
	if r.err != nil {
		t.Fatalf("turn 2: %v", r.err)
	}
	wantTurn(r.a, 2)
	t.Logf("turn 2, worker-1 killed %v after it was sent: %v in all, %v after the kill",
		killed.Sub(begin).Round(time.Millisecond), time.Since(begin).Round(time.Millisecond), time.Since(killed).Round(time.Millisecond))

	begin = time.Now()
	key := []string{"Idempotency-Key", "failover-turn-3"}
	pending = send(a1.url, "fact: the deposit was 1,200 EUR", key...)
	started(3)
	killed = time.Now()
	a1.kill()
	if r := <-pending; r.err == nil {
		t.Fatalf("turn 3 answered %d through the API that was killed; the kill came too late to test a retry", r.a.status)
	}
	retried := time.Now()
	wantTurn(must(t, http.StatusOK, a2.url, "POST", "/v1/cases/"+id+"/messages", user,
		map[string]any{"message": "fact: the deposit was 1,200 EUR"}, key...), 3)
	t.Logf("turn 3, api-1 killed %v after it was sent, retried on api-2: %v in all, %v after the retry",
		killed.Sub(begin).Round(time.Millisecond), time.Since(begin).Round(time.Millisecond), time.Since(retried).Round(time.Millisecond))

	begin = time.Now()
	wantTurn(must(t, http.StatusOK, a2.url, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": "fact: the landlord has not answered"}), 4)
	t.Logf("turn 4, on the survivors: %v", time.Since(begin).Round(time.Millisecond))

	if got := userRecords(t, a2.url, user, id); !maps.Equal(got, map[int]int{1: 1, 2: 1, 3: 1, 4: 1}) {
		t.Errorf("user records by turn = %v, want one for each of turns 1 to 4", got)
	}
	c := must(t, http.StatusOK, a2.url, "GET", "/v1/cases/"+id, user, nil)
	var facts []string
	for _, f := range c.body["case_details"].(map[string]any)["facts"].([]any) {
		facts = append(facts, factText(f))
	}
	want := []string{"the lease ended on 1 March", "the deposit was 1,200 EUR", "the landlord has not answered"}
	if !slices.Equal(facts, want) {
		t.Errorf("facts = %q, want %q, each once", facts, want)
	}
}

// answerOrErr is a request's outcome.
type answerOrErr struct {
	a   answer
	err error
}

// factText is a recorded fact's text, whether the tool stored it as a string or an
// object with a "fact".
func factText(f any) string {
	if m, ok := f.(map[string]any); ok {
		s, _ := m["fact"].(string)
		return s
	}
	s, _ := f.(string)
	return s
}
