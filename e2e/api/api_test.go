package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestNewcomer follows the README: create a case, ask for its details, get an stack.Answer
// that used get_case_details, and find the case and its turn in Temporal and its Web UI.
func TestNewcomer(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "alice")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "My landlord kept my deposit"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := r.Body["case_id"].(string)
	if loc := r.Header.Get("Location"); loc != "/v1/cases/"+id {
		t.Errorf("Location = %q", loc)
	}
	if r.Body["phase"] == "" || r.Body["status"] != "open" {
		t.Errorf("create answered %s", r.Raw)
	}

	r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"})
	if r.Status != http.StatusOK {
		t.Fatalf("message: %d %s", r.Status, r.Raw)
	}
	var turn schemas.TurnResult
	if err := json.Unmarshal(r.Raw, &turn); err != nil {
		t.Fatal(err)
	}
	if len(turn.ToolsUsed) != 1 || turn.ToolsUsed[0].Tool != "get_case_details" || turn.ToolsUsed[0].Status != "ok" {
		t.Fatalf("tools_used = %+v", turn.ToolsUsed)
	}
	for _, key := range []string{"tool", "args", "status", "latency_ms"} {
		if _, ok := r.Body["tools_used"].([]any)[0].(map[string]any)[key]; !ok {
			t.Errorf("tools_used entry lacks %q", key)
		}
	}
	if !strings.Contains(turn.Reply, "My landlord kept my deposit") || !strings.Contains(turn.Reply, "Sources: get_case_details") {
		t.Errorf("reply = %q", turn.Reply)
	}
	if len(turn.Sources) != 1 || turn.Phase != schemas.PhaseActive {
		t.Errorf("sources = %+v, phase = %q", turn.Sources, turn.Phase)
	}

	r = s.Call(t, "GET", "/v1/cases/"+id, tok, nil)
	if r.Status != http.StatusOK || r.Body["phase"] != schemas.PhaseActive || r.Body["user_id"] != "alice" {
		t.Errorf("get case: %d %s", r.Status, r.Raw)
	}

	r = s.Call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil)
	msgs, _ := r.Body["messages"].([]any)
	var roles []string
	for _, m := range msgs {
		m := m.(map[string]any)
		roles = append(roles, m["role"].(string))
		if m["user_id"] != "alice" || m["case_id"] != id || m["created_at"] == "" {
			t.Errorf("record lacks ownership or time: %v", m)
		}
	}
	// First the welcome and the tiering notice (tier and quota), then the turn.
	if strings.Join(roles, ",") != "assistant,assistant,user,tool,assistant" {
		t.Errorf("transcript roles = %v", roles)
	}

	// The case and its turn are workflows, the turn a child of the case.
	ctx := context.Background()
	child, err := s.TC.DescribeWorkflowExecution(ctx, schemas.TurnWorkflowID(id, 1), "")
	if err != nil {
		t.Fatal(err)
	}
	if p := child.GetWorkflowExecutionInfo().GetParentExecution(); p.GetWorkflowId() != schemas.CaseWorkflowID(id) {
		t.Errorf("turn's parent = %v", p)
	}
	v, err := s.TC.QueryWorkflow(ctx, schemas.CaseWorkflowID(id), "", schemas.QueryState)
	if err != nil {
		t.Fatal(err)
	}
	var state schemas.CaseStatus
	if err := v.Get(&state); err != nil || state.Turns != 1 || state.LastTurn != schemas.TurnWorkflowID(id, 1) {
		t.Errorf("state = %+v, %v", state, err)
	}
	// The Web UI's own API shows both.
	for _, wf := range []string{schemas.CaseWorkflowID(id), schemas.TurnWorkflowID(id, 1)} {
		resp, err := http.Get(s.Temporal.UIURL + "/api/v1/namespaces/default/workflows/" + wf)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), wf) {
			t.Errorf("Web UI for %s: %d %.200s", wf, resp.StatusCode, body)
		}
	}
}

// TestChatUpdatesCaseDetails updates case_details through chat: a dot-path replace and
// an append.
func TestChatUpdatesCaseDetails(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "carol")
	id := s.CreateCase(t, tok, "Unpaid invoice")
	for _, msg := range []string{"summary: Supplier refuses to pay invoice 12", "fact: invoice issued 3 May", "fact: reminder sent 3 June"} {
		r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": msg})
		if r.Status != http.StatusOK || !strings.Contains(string(r.Raw), `"status":"ok"`) {
			t.Fatalf("%q: %d %s", msg, r.Status, r.Raw)
		}
	}
	r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil)
	details := r.Body["case_details"].(map[string]any)
	summary := details["summary"].(map[string]any)
	if summary["current"] != "Supplier refuses to pay invoice 12" || summary["initial"] != "Unpaid invoice" {
		t.Errorf("summary = %v", summary)
	}
	if facts := details["facts"].([]any); len(facts) != 2 {
		t.Errorf("facts = %v, want two appended", facts)
	}
	// One version for the case, one for its tier, one per chat update.
	if r.Body["version"].(float64) != 4 {
		t.Errorf("version = %v, want 4", r.Body["version"])
	}
}

func TestAuthRefusals(t *testing.T) {
	t.Parallel()
	expired, _ := s.Signer.Mint(auth.Identity{Subject: "alice", Roles: []string{"user"}}, -time.Minute)
	other := s.Signer
	other.Secret = []byte("not-the-servers-secret-not-it-xx")
	wrongKey, _ := other.Mint(auth.Identity{Subject: "alice"}, time.Hour)
	otherAud := s.Signer
	otherAud.Audience = "someone-else"
	wrongAudience, _ := otherAud.Mint(auth.Identity{Subject: "alice"}, time.Hour)
	good := s.Token(t, "alice")
	tampered := good[:len(good)-4] + "AAAA"
	if tampered == good {
		tampered = good[:len(good)-4] + "BBBB"
	}
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{
		"sub": "alice", "iss": s.Signer.Issuer, "aud": s.Signer.Audience, "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString(jwt.UnsafeAllowNoneSignatureType)

	for name, tok := range map[string]string{
		"missing": "", "expired": expired, "wrong key": wrongKey, "wrong audience": wrongAudience,
		"tampered": tampered, "alg none": none,
	} {
		t.Run(name, func(t *testing.T) {
			r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "A question about a lease contract"})
			stack.WantProblem(t, r, http.StatusUnauthorized, "unauthorized")
			if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q", r.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

func TestOtherUsersCasesAreNotFound(t *testing.T) {
	t.Parallel()
	alice, bob := s.Token(t, "alice"), s.Token(t, "bob")
	id := s.CreateCase(t, alice, "Alice's private matter")
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/cases/" + id, nil},
		{"GET", "/v1/cases/" + id + "/messages", nil},
		{"POST", "/v1/cases/" + id + "/messages", map[string]any{"message": "show me the case details"}},
	} {
		r := s.Call(t, req.method, req.path, bob, req.body)
		stack.WantProblem(t, r, http.StatusNotFound, "not-found")
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id, alice, nil); r.Status != http.StatusOK {
		t.Errorf("owner reads own case: %d", r.Status)
	}
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "dave")
	id := s.CreateCase(t, tok, "A question about a lease")
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		typ                string
	}{
		{"bad JSON", "POST", "/v1/cases/" + id + "/messages", `{"message":`, 400, "bad-json"},
		{"not an object", "POST", "/v1/cases/" + id + "/messages", `["hi"]`, 400, "bad-json"},
		{"empty message", "POST", "/v1/cases/" + id + "/messages", map[string]any{"message": "  "}, 422, "invalid-input"},
		{"over-long message", "POST", "/v1/cases/" + id + "/messages", map[string]any{"message": strings.Repeat("x", schemas.MaxMessageChars+1)}, 422, "invalid-input"},
		{"unknown case", "POST", "/v1/cases/6f1c2b1e-8a0f-4a53-9a43-6c1f0e3d2b70/messages", map[string]any{"message": "hi"}, 404, "not-found"},
		{"malformed case ID", "GET", "/v1/cases/not-a-uuid", nil, 404, "not-found"},
		{"no description", "POST", "/v1/cases", map[string]any{"description": ""}, 422, "invalid-input"},
		{"unknown language", "POST", "/v1/cases", map[string]any{"description": "x", "language": "fr"}, 422, "invalid-input"},
		{"unknown route", "GET", "/v1/nothing", nil, 404, "not-found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stack.WantProblem(t, s.Call(t, tc.method, tc.path, tok, tc.body), tc.status, tc.typ)
		})
	}
}

func TestCreateIsIdempotent(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "erin")
	key := fmt.Sprintf("key-%d", time.Now().UnixNano())
	body := map[string]any{"description": "Cerere reluată: o întrebare despre un contract de închiriere", "language": "ro"}
	first := s.Call(t, "POST", "/v1/cases", tok, body, "Idempotency-Key", key)
	second := s.Call(t, "POST", "/v1/cases", tok, body, "Idempotency-Key", key)
	if first.Status != 201 || second.Status != 201 || first.Body["case_id"] != second.Body["case_id"] {
		t.Fatalf("two creates with one key: %s / %s", first.Raw, second.Raw)
	}
	third := s.Call(t, "POST", "/v1/cases", s.Token(t, "frank"), body, "Idempotency-Key", key)
	if third.Body["case_id"] == first.Body["case_id"] {
		t.Error("another user's key reused the first user's case")
	}
}

// TestRomanianCase opens a case in Romanian without naming the language: the case is
// Romanian, and so are the welcome, the tiering notice and the replies.
func TestRomanianCase(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "gheorghe")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Proprietarul nu îmi returnează garanția"})
	id := r.Body["case_id"].(string)
	r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "Arată-mi detaliile cazului"})
	reply, _ := r.Body["reply"].(string)
	if !strings.Contains(reply, "garanția") || !strings.Contains(reply, "Surse: get_case_details") {
		t.Errorf("reply = %q", reply)
	}
	if r = s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["language"] != "ro" {
		t.Errorf("language = %v, want ro", r.Body["language"])
	}
	msgs := s.Call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil).Body["messages"].([]any)
	if len(msgs) < 2 {
		t.Fatalf("messages = %v, want the welcome and the tiering notice first", msgs)
	}
	if welcome := msgs[0].(map[string]any)["content"].(string); !strings.HasPrefix(welcome, "Bun venit la Lexflow!") ||
		!strings.Contains(welcome, "abonamentul") {
		t.Errorf("welcome = %q", welcome)
	}
	if notice := msgs[1].(map[string]any)["content"].(string); !strings.HasPrefix(notice, "Nivelul cazului: 1.") {
		t.Errorf("tiering notice = %q", notice)
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	if r := s.Call(t, "GET", "/healthz", "", nil); r.Status != 200 || r.Body["status"] != "ok" {
		t.Errorf("healthz: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/readyz", "", nil); r.Status != 200 || r.Body["temporal"] != "ok" || r.Body["store"] != "ok" {
		t.Errorf("readyz: %d %s", r.Status, r.Raw)
	}
}

// TestLongCaseContinuesAsNew sends turns until the dev server suggests continue-as-new,
// and checks that the case carries on in a new run without losing a turn.
func TestLongCaseContinuesAsNew(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "hana")
	id := s.CreateCase(t, tok, "A long conversation about a lease")
	ctx := context.Background()
	var state schemas.CaseStatus
	const maxTurns = 20
	for n := 1; n <= maxTurns && state.Runs < 2; n++ {
		r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": fmt.Sprintf("turn %d", n)})
		if r.Status != 200 || r.Body["turn_id"] != schemas.TurnWorkflowID(id, n) {
			t.Fatalf("turn %d: %d %s", n, r.Status, r.Raw)
		}
		v, err := s.TC.QueryWorkflow(ctx, schemas.CaseWorkflowID(id), "", schemas.QueryState)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Get(&state); err != nil {
			t.Fatal(err)
		}
		if state.Turns != n {
			t.Fatalf("after turn %d the state counts %d", n, state.Turns)
		}
	}
	if state.Runs < 2 {
		t.Fatalf("no continue-as-new within %d turns: %+v", maxTurns, state)
	}
	r := s.Call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil)
	got := 0
	for _, m := range r.Body["messages"].([]any) {
		if m.(map[string]any)["turn_id"] != "" { // not a notice
			got++
		}
	}
	if got != 2*state.Turns {
		t.Errorf("transcript has %d turn records for %d turns", got, state.Turns)
	}
	s.RecordHistories(t, "continue-as-new", id)
}

// TestToggledOffToolNeverRuns switches get_case_details off in both request styles: the
// model is not offered it, and it never appears in tools_used.
func TestToggledOffToolNeverRuns(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ivo")
	id := s.CreateCase(t, tok, "Toggle check on a lease question")
	for _, body := range []map[string]any{
		{"message": "show me the case details", "tools": []string{"update_case_details"}},
		{"message": "show me the case details", "tools": []string{}, "normattiva_enabled": true},
	} {
		r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, body)
		if r.Status != http.StatusOK {
			t.Fatalf("%v: %d %s", body, r.Status, r.Raw)
		}
		if used := r.Body["tools_used"].([]any); len(used) != 0 {
			t.Errorf("%v: tools_used = %v", body, used)
		}
	}
	// With the defaults the same message uses the tool.
	r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"})
	if used := r.Body["tools_used"].([]any); len(used) != 1 {
		t.Errorf("defaults: tools_used = %v", used)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "hi", "tools": []string{"legal_sql"}}),
		http.StatusUnprocessableEntity, "invalid-input")
}

func TestListTools(t *testing.T) {
	t.Parallel()
	names := func(r stack.Response) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, x := range r.Body["tools"].([]any) {
			m := x.(map[string]any)
			out[m["name"].(string)] = m
		}
		return out
	}
	user := names(s.Call(t, "GET", "/v1/tools", s.Token(t, "alice"), nil))
	if _, ok := user["legal_sql"]; ok || len(user) != 22 {
		t.Errorf("a user sees %d tools (legal_sql: %v); want 22 without it", len(user), ok)
	}
	if law := user["legislation_search"]; law["toggle"] != "legislation_search_enabled" || law["default_on"] != true ||
		law["available"] != true || law["failure"] != "degrade" {
		t.Errorf("legislation_search = %v", law)
	}
	kb := user["kb_search"]
	if kb["timeout"] != "20s" || kb["toggle"] != "kb_search_enabled" || kb["default_on"] != true || kb["available"] != true ||
		kb["failure"] != "degrade" {
		t.Errorf("kb_search = %v", kb)
	}
	if details := user["get_case_details"]; details["failure"] != "escalate" {
		t.Errorf("get_case_details = %v, want the escalate failure class", details)
	}
	if web := user["web_search"]; web["available"] != true || web["default_on"] != false {
		t.Errorf("web_search = %v", web)
	}
	// A deployment without SearXNG lists the web tools as unavailable, saying why;
	// with a LEXE-tools service, its endpoints serve the legal searches.
	noSearxAPI := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.SearXNGURL, cfg.LexeToolsURL = "", "" })
	noSearx := names(noSearxAPI.Call(t, "GET", "/v1/tools", s.Token(t, "alice"), nil))
	for name, why := range map[string]string{"web_search": "SEARXNG_URL", "lex_search": "LEXE_TOOLS_URL", "lex_search_enriched": "LEXE_TOOLS_URL"} {
		if noSearx[name]["available"] != false || !strings.Contains(fmt.Sprint(noSearx[name]["unavailable"]), why) {
			t.Errorf("without SearXNG, %s = %v", name, noSearx[name])
		}
	}
	withLexeAPI := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.SearXNGURL, cfg.LexeToolsURL = "", "http://127.0.0.1:1" })
	withLexe := names(withLexeAPI.Call(t, "GET", "/v1/tools", s.Token(t, "alice"), nil))
	if withLexe["web_search"]["available"] != false || withLexe["lex_search"]["available"] != true || withLexe["lex_search_enriched"]["available"] != true {
		t.Errorf("with LEXE and no SearXNG: web %v, lex %v, enriched %v", withLexe["web_search"], withLexe["lex_search"], withLexe["lex_search_enriched"])
	}
	if retry := kb["retry"].(map[string]any); retry["max_attempts"] != float64(2) || retry["retry_interval"] != "1s" {
		t.Errorf("kb_search retry = %v", retry)
	}
	if gcd := user["get_case_details"]; gcd["available"] != true || gcd["schema"].(map[string]any)["type"] != "object" {
		t.Errorf("get_case_details = %v", gcd)
	}
	adminTok, err := s.Signer.Mint(auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := names(s.Call(t, "GET", "/v1/tools", adminTok, nil))["legal_sql"]; !ok {
		t.Error("an admin does not see legal_sql")
	}
}

func TestCancelWithoutRunningTurn(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "jana")
	id := s.CreateCase(t, tok, "Nothing running on this lease question")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/turns/current/cancel", tok, nil), http.StatusConflict, "no-turn-running")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/turns/current/cancel", s.Token(t, "someone"), nil), http.StatusNotFound, "not-found")
}

func TestMemory(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lena")
	if r := s.Call(t, "GET", "/v1/me/memory", tok, nil); r.Status != 200 || r.Body["memory"] != "" {
		t.Fatalf("new user's memory: %d %s", r.Status, r.Raw)
	}
	r := s.Call(t, "PUT", "/v1/me/memory", tok, map[string]any{"memory": "Lives in Cluj; prefers Romanian."})
	if r.Status != 200 || r.Body["memory"] != "Lives in Cluj; prefers Romanian." {
		t.Fatalf("put: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/memory", tok, nil); r.Body["memory"] != "Lives in Cluj; prefers Romanian." {
		t.Errorf("get after put: %s", r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/memory", s.Token(t, "mara"), nil); r.Body["memory"] != "" {
		t.Errorf("another user sees %s", r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/memory", tok, map[string]any{"memory": strings.Repeat("x", 4001)}), 422, "invalid-input")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/memory", tok, map[string]any{"notes": "x"}), 422, "invalid-input")
}

func TestReloadPromptsIsForAdmins(t *testing.T) {
	// Not parallel: reloading the prompts changes them for every case's turn.
	stack.WantProblem(t, s.Call(t, "POST", "/v1/admin/prompts/reload", s.Token(t, "alice"), nil), http.StatusForbidden, "forbidden")
	admin, _ := s.Signer.Mint(auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true}, time.Hour)
	r := s.Call(t, "POST", "/v1/admin/prompts/reload", admin, nil)
	sizes, _ := r.Body["prompt_bytes"].(map[string]any)
	if r.Status != 200 || r.Body["docs_count"] != float64(33) || !strings.Contains(fmt.Sprint(r.Body["message"]), "33 documents") ||
		len(sizes) != 27 || sizes["assistant.ro"] == nil || sizes["assistant.ro"].(float64) < 1000 {
		t.Errorf("reload: %d %s", r.Status, r.Raw)
	}
}

// TestLegalSQLThroughChat asks the corpus in SQL: an admin's turn runs legal_sql, a
// user's is not offered it.
func TestLegalSQLThroughChat(t *testing.T) {
	t.Parallel()
	admin, err := s.Signer.Mint(auth.Identity{Subject: "lawyer", Roles: []string{schemas.RoleAdmin}, Operator: true}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	id := s.CreateCase(t, admin, "Research on the civil code's liability article")
	q := "sql: SELECT doc_id, title FROM legislatie WHERE act_type = 'codice civile' AND article = '2043'"
	r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", admin, map[string]any{"message": q})
	used, _ := r.Body["tools_used"].([]any)
	if r.Status != 200 || len(used) != 1 || used[0].(map[string]any)["tool"] != "legal_sql" || used[0].(map[string]any)["status"] != "ok" {
		t.Fatalf("admin: %d %s", r.Status, r.Raw)
	}
	if reply := r.Body["reply"].(string); !strings.Contains(reply, "Risarcimento per fatto illecito") || !strings.HasSuffix(reply, "Sources: legal_sql") {
		t.Errorf("reply = %q", reply)
	}
	// Sanctum's fields: legal_sql is its db-query, asked the statement; the answer
	// names the model and its provider (the offline model's endpoint is generic).
	if u := used[0].(map[string]any); u["tool_id"] != "db-query" || u["tool_name"] != "legal_sql" || !strings.HasPrefix(q, "sql: "+u["query"].(string)) {
		t.Errorf("Sanctum's fields of the call: %v", u)
	}
	if r.Body["model"] != "lexflow-offline" || r.Body["provider"] != "generic" {
		t.Errorf("model %v, provider %v", r.Body["model"], r.Body["provider"])
	}
	r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", admin, map[string]any{"message": "sql: DELETE FROM legislatie"})
	if used := r.Body["tools_used"].([]any); len(used) != 1 || used[0].(map[string]any)["status"] != "error" ||
		!strings.HasPrefix(used[0].(map[string]any)["error"].(string), "Unauthorized access") {
		t.Errorf("a write: %s", r.Raw)
	}
	user := s.Token(t, "nina")
	uid := s.CreateCase(t, user, "Research")
	r = s.Call(t, "POST", "/v1/cases/"+uid+"/messages", user, map[string]any{"message": q})
	if used := r.Body["tools_used"].([]any); len(used) != 0 {
		t.Errorf("a user ran %v", used)
	}
}

// TestResearchInRomanianAndItalian asks through chat about Codul civil art. 1357,
// Codice civile art. 2043 and GDPR art. 17, and gets the real article texts.
func TestResearchInRomanianAndItalian(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "olga")
	for _, tc := range []struct {
		lang, message, tool string
		want                []string
	}{
		{"ro", "Ce prevede art. 1357 Cod civil?", "normattiva_search",
			[]string{"Cel care cauzează altuia un prejudiciu printr-o faptă ilicită", "Surse: normattiva_search"}},
		{"ro", "Ce spune art. 17 din GDPR?", "eurlex_search",
			[]string{"Persoana vizată are dreptul de a obține din partea operatorului ștergerea", "Surse: eurlex_search"}},
		{"it", "Cosa dice l'art. 2043 c.c.?", "normattiva_search",
			[]string{"Qualunque fatto doloso o colposo, che cagiona ad altri un danno ingiusto", "urn:nir:stato:regio.decreto:1942-03-16;262~art2043", "Fonti: normattiva_search"}},
		{"it", "Cosa prevede il GDPR all'articolo 17?", "eurlex_search",
			[]string{"L'interessato ha il diritto di ottenere dal titolare del trattamento la cancellazione", "32016R0679", "Fonti: eurlex_search"}},
	} {
		r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Ricerca giuridica, cercetare juridică, legal research question", "language": tc.lang})
		id := r.Body["case_id"].(string)
		r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": tc.message})
		used, _ := r.Body["tools_used"].([]any)
		if r.Status != 200 || len(used) != 1 || used[0].(map[string]any)["tool"] != tc.tool || used[0].(map[string]any)["status"] != "ok" {
			t.Errorf("%q: %d %s", tc.message, r.Status, r.Raw)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(r.Body["reply"].(string), want) {
				t.Errorf("%q: reply lacks %q:\n%s", tc.message, want, r.Body["reply"])
			}
		}
		// The article, and the act each time the reply names it: all in the corpus.
		cits, _ := r.Body["citations"].([]any)
		articles := 0
		for _, c := range cits {
			c := c.(map[string]any)
			if c["kind"] == "article" {
				articles++
			}
			if c["verified"] != true || c["status"] != "verified" || c["doc_id"] == "" {
				t.Errorf("%q: citation %v", tc.message, c)
			}
		}
		if articles != 1 {
			t.Errorf("%q: %d article citations in %v", tc.message, articles, cits)
		}
	}
}

// TestLegalWebSearch runs lex_search through chat against a server that answers as
// SearXNG does: only the legal site's result is kept.
func TestLegalWebSearch(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "pia")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Una domanda sul diritto all oblio", "language": "it"})
	id := r.Body["case_id"].(string)
	r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "ricerca legale: diritto all'oblio"})
	used, _ := r.Body["tools_used"].([]any)
	if r.Status != 200 || len(used) != 1 || used[0].(map[string]any)["tool"] != "lex_search" || used[0].(map[string]any)["status"] != "ok" {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if args := used[0].(map[string]any)["args"].(map[string]any); args["language"] != "it" {
		t.Errorf("language not taken from the case: %v", args)
	}
	reply := r.Body["reply"].(string)
	if !strings.Contains(reply, "Diritto all'oblio: la Cassazione") || strings.Contains(reply, "blog") || !strings.HasSuffix(reply, "Fonti: lex_search") {
		t.Errorf("reply = %q", reply)
	}
}

// TestEnrichedSearchThroughChat asks for an analysis: lex_search_enriched searches,
// checks the references and has the (offline) reasoner analyse the results.
func TestEnrichedSearchThroughChat(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "rita")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Una domanda sul diritto all oblio", "language": "it"})
	id := r.Body["case_id"].(string)
	r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "analisi: diritto all'oblio",
		"lex_search_enriched_enabled": true})
	used, _ := r.Body["tools_used"].([]any)
	if r.Status != 200 || len(used) != 1 || used[0].(map[string]any)["tool"] != "lex_search_enriched" || used[0].(map[string]any)["status"] != "ok" {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	reply := r.Body["reply"].(string)
	if !strings.Contains(reply, "Analisi offline di «diritto all'oblio»: 1 fonti da leggere") || !strings.HasSuffix(reply, "Fonti: lex_search_enriched") {
		t.Errorf("reply = %q", reply)
	}
}

// TestParties attaches parties to a case and resolves one through chat: the model gets
// the party's ID, and the party's data is in no Temporal history of the case.
func TestParties(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "sara")
	id := s.CreateCase(t, tok, "Dispută cu un vecin")
	const canary = "1850505123459" // a CNP that must stay in the parties store
	r := s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, map[string]any{"first_name": "Ion", "last_name": "Popescu", "cnp": canary,
		"address": "Str. Lungă 1, Cluj", "email": "ion@example.ro"})
	if r.Status != http.StatusCreated || r.Body["party_id"] != "party0" || r.Header.Get("Location") != "/v1/cases/"+id+"/parties/party0" {
		t.Fatalf("add party: %d %s", r.Status, r.Raw)
	}
	r = s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, map[string]any{"company_name": "Acme SRL", "cui": "RO123456", "aliases": []string{"firma"}})
	if r.Status != http.StatusCreated || r.Body["party_id"] != "party1" {
		t.Fatalf("add company: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id+"/parties", tok, nil); len(r.Body["parties"].([]any)) != 2 {
		t.Errorf("list: %s", r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+id+"/parties/party0", tok, nil); r.Body["cnp"] != canary {
		t.Errorf("get: %s", r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/parties/party9", tok, nil), http.StatusNotFound, "not-found")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases/"+id+"/parties", s.Token(t, "intruder"), nil), http.StatusNotFound, "not-found")
	for _, bad := range []map[string]any{{"cnp": "123"}, {"first_name": "A", "cnp": "12345"}, {"first_name": "A", "email": "nope"}, {"first_name": "A", "cui": "X1"}} {
		stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/parties", tok, bad), http.StatusUnprocessableEntity, "invalid-input")
	}

	r = s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "partea: ion popescu"})
	used, _ := r.Body["tools_used"].([]any)
	if r.Status != 200 || len(used) != 1 || used[0].(map[string]any)["tool"] != "get_party_id_by_name" || used[0].(map[string]any)["status"] != "ok" {
		t.Fatalf("chat: %d %s", r.Status, r.Raw)
	}
	if !strings.Contains(r.Body["reply"].(string), "{{party0}}") || strings.Contains(string(r.Raw), canary) {
		t.Errorf("reply = %s", r.Raw)
	}
	for _, wf := range []string{schemas.CaseWorkflowID(id), schemas.TurnWorkflowID(id, 1)} {
		iter := s.TC.GetWorkflowHistory(context.Background(), wf, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for iter.HasNext() {
			ev, err := iter.Next()
			if err != nil {
				t.Fatal(err)
			}
			if raw, _ := json.Marshal(ev); strings.Contains(string(raw), canary) || strings.Contains(string(raw), "Str. Lungă") {
				t.Fatalf("%s: event %d carries the party's data", wf, ev.GetEventId())
			}
		}
	}
}

// TestCasesAreFoundBySearchAttributes finds a case the way support staff filter the
// Web UI: by tenant, phase and status.
func TestCasesAreFoundBySearchAttributes(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "tom") // the token's org is "acme"
	id := s.CreateCase(t, tok, "A findable question about a lease")
	query := fmt.Sprintf(`WorkflowId = %q AND TenantID = "acme" AND Phase = "active" AND CaseStatus = "open"`, schemas.CaseWorkflowID(id))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		res, err := s.TC.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err == nil && len(res.GetExecutions()) == 1 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no case for %s: %v", query, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestIdempotencyKeyIsBounded sends over-long and non-printable Idempotency-Keys: each is
// refused as invalid input before it reaches Temporal (a 3,000-character key used to
// become an update ID and answer 502).
func TestIdempotencyKeyIsBounded(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ike")
	id := s.CreateCase(t, tok, "A question about a lease")
	for _, key := range []string{strings.Repeat("k", 256), strings.Repeat("k", 3000), "tab\tkey", "ключ"} {
		stack.WantProblem(t, s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "hello"}, "Idempotency-Key", key),
			http.StatusUnprocessableEntity, "invalid-input")
		stack.WantProblem(t, s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "x"}, "Idempotency-Key", key),
			http.StatusUnprocessableEntity, "invalid-input")
	}
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "hello"}, "Idempotency-Key", strings.Repeat("k", 255)); r.Status != http.StatusOK {
		t.Errorf("a 255-character key: %d %s", r.Status, r.Raw)
	}
}
