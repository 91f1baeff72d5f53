package activities

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// memoryModel is a model endpoint that answers every call with content, and keeps the
// requests' user messages.
func memoryModel(t *testing.T, content string) (*llm.Client, *[]string) {
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct{ Role, Content string }
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		asked = append(asked, body.Messages[len(body.Messages)-1].Content)
		raw, _ := json.Marshal(content)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, raw)
	}))
	t.Cleanup(srv.Close)
	return llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second}), &asked
}

// TestMemoryProposals: the model reads the case's summary, facts and the client's
// messages; of its answer, facts too long, empty or past the fifth are dropped, and an
// answer that is not JSON proposes nothing; stored, a fact's placeholders become the
// party's values, once however often the step runs; once the case's erasure has
// begun, nothing more is stored.
func TestMemoryProposals(t *testing.T) {
	ctx := t.Context()
	caseID, user := uuid.NewString(), "mem-"+uuid.NewString()[:8]
	c := store.Case{ID: caseID, UserID: user, Description: "A deposit", Language: "en", Phase: schemas.PhaseActive,
		Status: schemas.StatusClosed, Details: store.NewDetails("The landlord kept the deposit"), CreatedAt: time.Now(), UpdatedAt: time.Now()}
	c.Details["facts"] = []any{"Paid 2000 lei in 2024"}
	if _, err := st.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendRecords(ctx, store.Record{ID: caseID + ":1:u", CaseID: caseID, UserID: user, TurnNo: 1, Role: schemas.RecordUser,
		Content: "I run a bakery."}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddParty(ctx, store.Party{CaseID: caseID, FirstName: "Horia", LastName: "Vântu"}); err != nil {
		t.Fatal(err)
	}
	lib, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	in := schemas.ProposeMemory{CaseID: caseID, UserID: user, Language: "en"}
	ask := func(content string) (schemas.ProposedFacts, []string) {
		client, asked := memoryModel(t, content)
		a := &MemoryProposals{Erasures: st, Cases: st, Transcripts: st, Facts: st, Parties: st, Model: client,
			Prompts: &SystemPrompts{Library: lib, Versions: st}, Meter: &Meter{Cases: st, Budgets: st, Parties: st}}
		var s testsuite.WorkflowTestSuite
		env := s.NewTestActivityEnvironment()
		env.RegisterActivity(a)
		v, err := env.ExecuteActivity(a.AskMemoryFacts, in)
		if err != nil {
			t.Fatal(err)
		}
		var out schemas.ProposedFacts
		if err := v.Get(&out); err != nil {
			t.Fatal(err)
		}
		return out, *asked
	}
	long := strings.Repeat("x", store.MaxFactChars+1)
	got, asked := ask(`{"facts": ["Rents from {{party0.fullName}}.", "` + long + `", " ", "b", "c", "d", "e", "f"]}`)
	if want := []string{"Rents from {{party0.fullName}}.", "b", "c", "d", "e"}; strings.Join(got.Facts, "|") != strings.Join(want, "|") {
		t.Errorf("facts = %q, want %q", got.Facts, want)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "Summary: The landlord kept the deposit") || !strings.Contains(asked[0], "- Paid 2000 lei in 2024") ||
		!strings.Contains(asked[0], schemas.MemoryClientHeading+"\n- I run a bakery.") {
		t.Errorf("the model read %q", asked)
	}
	if none, _ := ask("Here are some facts: the client runs a bakery."); len(none.Facts) != 0 {
		t.Errorf("an answer that is not JSON proposed %q", none.Facts)
	}

	a := &MemoryProposals{Erasures: st, Facts: st, Parties: st}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(a)
	for _, want := range []int{2, 0} {
		v, err := env.ExecuteActivity(a.StoreMemoryFacts, schemas.StoreProposedFacts{ProposeMemory: in, Facts: got.Facts[:2]})
		var res schemas.ProposeMemoryResult
		if err != nil || v.Get(&res) != nil || res.Proposed != want {
			t.Fatalf("StoreMemoryFacts = %+v, %v; want %d stored", res, err, want)
		}
	}
	facts, err := st.ListMemoryFacts(ctx, store.OwnerID("", user))
	if err != nil || len(facts) != 2 || facts[0].Text != "Rents from Horia Vântu." || facts[0].Status != store.FactProposed || facts[0].CaseID != caseID {
		t.Errorf("stored facts = %+v, %v; want the first written in clear, proposed", facts, err)
	}
	if _, err := st.BeginErasure(ctx, schemas.Erasure{CaseID: caseID, RequestedBy: user, Reason: "request", RequestedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	v, err := env.ExecuteActivity(a.StoreMemoryFacts, schemas.StoreProposedFacts{ProposeMemory: in, Facts: []string{"one", "two", "three"}})
	var res schemas.ProposeMemoryResult
	if err != nil || v.Get(&res) != nil || res.Proposed != 0 {
		t.Errorf("StoreMemoryFacts of a case being erased = %+v, %v; want nothing stored", res, err)
	}
	if got, asked := ask(`{"facts": ["Runs a bakery."]}`); len(got.Facts) != 0 || len(asked) != 0 {
		t.Errorf("a case being erased proposed %q; the model read %q, want nothing sent", got.Facts, asked)
	}
}
