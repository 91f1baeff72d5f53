package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// ask sends POST /v1/query and decodes its 200 answer.
func ask(t *testing.T, tok string, body map[string]any) schemas.QueryAnswer {
	t.Helper()
	r := s.Call(t, "POST", "/v1/query", tok, body)
	if r.Status != http.StatusOK {
		t.Fatalf("query %v: %d %s", body, r.Status, r.Raw)
	}
	var out schemas.QueryAnswer
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestQueryAnswersFromTheCorpus: /v1/query answers from the article the question cites
// and kb_search's decisions, with its citations checked; with web-search among its
// tools it suggests a search term for a question about recent case law, and runs no
// search; its tokens are charged to the caller's organization.
func TestQueryAnswersFromTheCorpus(t *testing.T) {
	// Not parallel: it counts the stack's web searches, which other tests' turns make.
	org := "query-" + uuid.NewString()[:8]
	tok := s.Mint(t, auth.Identity{Subject: "ada", Org: org, Roles: []string{schemas.RoleUser}})
	searches := s.WebSearches.Load()

	got := ask(t, tok, map[string]any{"question": "Che cosa prevede l'art. 2043 c.c. sul risarcimento del danno?", "top_k": 3})
	if len(got.Sources) < 2 || len(got.Sources) > 4 || got.Sources[0].DocID != "it/rd-262-1942/art-2043" || got.Sources[0].Tool != schemas.ToolNormattivaSearch {
		t.Fatalf("sources %+v", got.Sources)
	}
	for _, src := range got.Sources[1:] {
		if src.Tool != schemas.ToolKBSearch || src.Reference == "" || src.Excerpt == "" {
			t.Errorf("kb source %+v", src)
		}
	}
	if !strings.Contains(got.Answer, "art. 2043 c.c.") || got.SearchTerm != "" || got.ClarifyingQuestions == nil || got.Usage.Total == 0 ||
		got.Model == "" || got.Provider != "generic" {
		t.Errorf("answer %+v", got)
	}
	var verified bool
	for _, c := range got.Citations {
		verified = verified || (c.Text == "art. 2043 c.c." && c.Status == schemas.CitationVerified)
	}
	if !verified {
		t.Errorf("citations %+v lack art. 2043 c.c., verified", got.Citations)
	}

	hinted := ask(t, tok, map[string]any{"question": "Qual è l'ultima giurisprudenza sull'art. 2043 c.c.?", "tools": []string{"web-search"}})
	if hinted.SearchTerm != "ultima giurisprudenza art 2043" {
		t.Errorf("search_term %q", hinted.SearchTerm)
	}
	if same := ask(t, tok, map[string]any{"question": "Qual è l'ultima giurisprudenza sull'art. 2043 c.c.?"}); same.SearchTerm != "" {
		t.Errorf("a search term without web-search among the tools: %q", same.SearchTerm)
	}
	// Sanctum's db-query is a tool /query takes, and turns no hints on.
	if sql := ask(t, tok, map[string]any{"question": "Qual è l'ultima giurisprudenza sull'art. 2043 c.c.?", "tools": []string{"db-query"}}); sql.SearchTerm != "" {
		t.Errorf("a search term with db-query among the tools: %q", sql.SearchTerm)
	}
	if n := s.WebSearches.Load() - searches; n != 0 {
		t.Errorf("the queries ran %d web searches", n)
	}
	used, err := s.Store.TokensUsed(t.Context(), schemas.TenantKey(org, ""), "", activities.Day(s.Now())) // the stack's day: see stack.Clock
	if err != nil || used.Tenant < got.Usage.Total {
		t.Errorf("the organization was charged %+v, %v; the first query alone used %d", used, err, got.Usage.Total)
	}
}

// TestQueryFindsTheLawForAClientsQuestion: a question in a client's words, citing no
// article, is answered from an article that governs it (for the unpaid rent: the
// tenant's duty to pay, its date, or the landlord's termination for it), which
// legislation_search found first, before kb_search's decisions.
func TestQueryFindsTheLawForAClientsQuestion(t *testing.T) {
	t.Parallel()
	tok := s.Mint(t, auth.Identity{Subject: "eve", Org: "query-" + uuid.NewString()[:8], Roles: []string{schemas.RoleUser}})
	for _, c := range []struct {
		question string
		want     []string
	}{
		{"Il cane della vicina mi ha morso al parco: il proprietario dell'animale deve pagarmi i danni?", []string{"it/rd-262-1942/art-2052"}},
		{"Chiriașul meu nu plătește chiria la termen de trei luni: ce pot face?",
			[]string{"ro/legea-287-2009/art-1796", "ro/legea-287-2009/art-1797", "ro/legea-287-2009/art-1817"}},
	} {
		got := ask(t, tok, map[string]any{"question": c.question, "top_k": 2})
		var laws []string
		for _, src := range got.Sources {
			if src.Tool == schemas.ToolLegislationSearch {
				laws = append(laws, src.DocID)
				if src.Reference == "" || src.Excerpt == "" || src.URL == "" {
					t.Errorf("legislation source %+v", src)
				}
			}
		}
		if len(laws) == 0 || !slices.Contains(c.want, laws[0]) || got.Sources[0].Tool != schemas.ToolLegislationSearch {
			t.Errorf("%q: sources %+v, want one of %s from legislation_search first", c.question, got.Sources, c.want)
			continue
		}
		if !strings.Contains(got.Answer, "art. "+laws[0][strings.LastIndex(laws[0], "-")+1:]) {
			t.Errorf("%q: the answer does not name the article %s: %s", c.question, laws[0], got.Answer)
		}
	}
}

// TestQueryRefusals: bad input is refused before any workflow starts, and a tenant
// whose model-token budget is used up gets 402 budget-exhausted with Retry-After.
func TestQueryRefusals(t *testing.T) {
	t.Parallel()
	org := "query-" + uuid.NewString()[:8]
	tok := s.Mint(t, auth.Identity{Subject: "bob", Org: org, Roles: []string{schemas.RoleUser}})
	for _, tc := range []struct {
		name   string
		body   any
		status int
		typ    string
	}{
		{"no question", map[string]any{"question": " "}, 422, "invalid-input"},
		{"question too long", map[string]any{"question": strings.Repeat("ă", schemas.MaxQuestionChars+1)}, 422, "invalid-input"},
		{"top_k too large", map[string]any{"question": "locațiune", "top_k": 21}, 422, "invalid-input"},
		{"negative top_k", map[string]any{"question": "locațiune", "top_k": -1}, 422, "invalid-input"},
		{"unknown tool", map[string]any{"question": "locațiune", "tools": []string{"rm -rf"}}, 422, "invalid-input"},
		{"unknown language", map[string]any{"question": "locațiune", "language": "fr"}, 422, "invalid-input"},
		{"bad JSON", `{"question":`, 400, "bad-json"},
		{"no token", map[string]any{"question": "locațiune"}, 401, "unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caller := tok
			if tc.status == 401 {
				caller = ""
			}
			stack.WantProblem(t, s.Call(t, "POST", "/v1/query", caller, tc.body), tc.status, tc.typ)
		})
	}
	admin := s.Mint(t, auth.Identity{Subject: "ops", Roles: []string{schemas.RoleAdmin}, Operator: true})
	if r := s.Call(t, "PUT", "/v1/admin/budgets/org:"+org, admin, map[string]any{"tokens_per_day": 1}); r.Status != http.StatusOK {
		t.Fatalf("budget: %d %s", r.Status, r.Raw)
	}
	ask(t, tok, map[string]any{"question": "Ce prevede art. 1357 C.civ.?"}) // under budget when it starts
	r := s.Call(t, "POST", "/v1/query", tok, map[string]any{"question": "Ce prevede art. 1357 C.civ.?"})
	stack.WantProblem(t, r, http.StatusPaymentRequired, "budget-exhausted")
	if r.Header.Get("Retry-After") == "" {
		t.Error("402 budget-exhausted without Retry-After")
	}
}
