package api_test

import (
	"bytes"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// startPayloads are the sealed input payloads of a case's workflow, as its history
// holds them, in the codec protocol's JSON.
func startPayloads(t *testing.T, caseID string) string {
	t.Helper()
	iter := s.TC.GetWorkflowHistory(t.Context(), schemas.CaseWorkflowID(caseID), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	ev, err := iter.Next()
	if err != nil {
		t.Fatal(err)
	}
	in := ev.GetWorkflowExecutionStartedEventAttributes().GetInput()
	if len(in.GetPayloads()) == 0 || !codec.Encrypted(in.Payloads[0]) {
		t.Fatalf("the case's input is not sealed: %v", in)
	}
	raw, err := protojson.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// decoded reads a codec answer and says whether each payload came back open, and
// whether any holds text.
func decoded(t *testing.T, r stack.Response, text string) (open []bool, holds bool) {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("codec answer %d %s", r.Status, r.Raw)
	}
	var ps commonpb.Payloads
	if err := protojson.Unmarshal(r.Raw, &ps); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps.Payloads {
		open = append(open, !codec.Encrypted(p))
		holds = holds || bytes.Contains(p.Data, []byte(text))
	}
	return open, holds
}

// TestCodecServer: the codec server opens a case's payloads for support staff whose
// scope covers it, by bearer token or by the web app's codec cookie from the Temporal
// Web UI's origin, and audits it; it leaves them sealed for other organizations'
// staff, and refuses clients, anonymous callers and other origins.
func TestCodecServer(t *testing.T) {
	t.Parallel()
	const canary = "Octavian Canaru-Codec"
	owner := s.Token(t, "codec-client")
	id := s.CreateCase(t, owner, "My employer "+canary+" has not paid me for three months")
	body := startPayloads(t, id)
	if strings.Contains(body, "Canaru") {
		t.Fatal("the sealed payload holds the canary")
	}
	ui := s.Config.TemporalUIURL
	origin := strings.TrimSuffix(ui, "/")
	staff := func(org string) string {
		return s.Mint(t, auth.Identity{Subject: "desk-" + org, Org: org, Roles: []string{schemas.RoleSupport}, Operator: org == ""})
	}

	// Bearer tokens, as the Temporal CLI sends them.
	for who, tc := range map[string]struct {
		tok    string
		status int
		open   bool
	}{
		"acme's support":      {staff("acme"), http.StatusOK, true},
		"the operator's desk": {staff(""), http.StatusOK, true},
		"another firm's desk": {staff("globex"), http.StatusOK, false},
		"the client":          {owner, http.StatusForbidden, false},
		"nobody":              {"", http.StatusUnauthorized, false},
	} {
		r := s.Call(t, "POST", "/codec/decode", tc.tok, body)
		if r.Status != tc.status {
			t.Errorf("%s: %d %s, want %d", who, r.Status, r.Raw, tc.status)
			continue
		}
		if r.Status != http.StatusOK {
			continue
		}
		open, holds := decoded(t, r, canary)
		if open[0] != tc.open || holds != tc.open {
			t.Errorf("%s: payload opened %v, holds the description %v; want %v", who, open, holds, tc.open)
		}
	}

	stack.WantProblem(t, s.Call(t, "POST", "/codec/decode", "", body, "Authorization", staff("acme")), http.StatusUnauthorized, "unauthorized")

	// The web app's codec session: an HttpOnly, SameSite=Strict cookie for /codec.
	stack.WantProblem(t, s.Call(t, "POST", "/v1/support/codec-session", owner, nil), http.StatusForbidden, "forbidden")
	r := s.Call(t, "POST", "/v1/support/codec-session", staff("acme"), nil)
	if r.Status != http.StatusOK || r.Body["endpoint"] != s.APIURL+"/codec" || r.Body["temporal_ui"] != ui {
		t.Fatalf("codec session: %d %s", r.Status, r.Raw)
	}
	cookies := (&http.Response{Header: r.Header}).Cookies()
	if len(cookies) != 1 || cookies[0].Name != "lexflow_codec" || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode ||
		cookies[0].Path != "/codec" || cookies[0].MaxAge != int((30*time.Minute).Seconds()) {
		t.Fatalf("codec cookie = %+v", cookies)
	}
	cookie := "lexflow_codec=" + cookies[0].Value
	r = s.Call(t, "POST", "/codec/decode", "", body, "Origin", origin, "Cookie", cookie)
	if open, holds := decoded(t, r, canary); !open[0] || !holds {
		t.Errorf("the Web UI with the cookie: opened %v, holds the description %v", open, holds)
	}
	if r.Header.Get("Access-Control-Allow-Origin") != origin || r.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("CORS headers for the Web UI: %v", r.Header)
	}
	r = s.Call(t, "POST", "/codec/decode", "", body, "Origin", "https://evil.example", "Cookie", cookie)
	stack.WantProblem(t, r, http.StatusForbidden, "forbidden")
	if r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another origin got CORS headers: %v", r.Header)
	}
	stack.WantProblem(t, s.Call(t, "POST", "/codec/decode", "", body, "Cookie", cookie), http.StatusUnauthorized, "unauthorized")
	stack.WantProblem(t, s.Call(t, "GET", "/v1/cases", cookies[0].Value, nil), http.StatusUnauthorized, "unauthorized")
	stack.WantProblem(t, s.Call(t, "POST", "/codec/decode", "", body, "Origin", origin, "Cookie", "lexflow_codec="+staff("acme")),
		http.StatusUnauthorized, "unauthorized")
	r = s.Call(t, "DELETE", "/v1/support/codec-session", staff("acme"), nil)
	if gone := (&http.Response{Header: r.Header}).Cookies(); r.Status != http.StatusNoContent || len(gone) != 1 || gone[0].MaxAge >= 0 {
		t.Errorf("closing the session: %d %v", r.Status, gone)
	}

	// The CORS preflight answers the Web UI's origin only.
	r = s.Call(t, "OPTIONS", "/codec/decode", "", nil, "Origin", origin, "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "content-type,x-namespace")
	if r.Status != http.StatusNoContent || r.Header.Get("Access-Control-Allow-Origin") != origin ||
		!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "X-Namespace") {
		t.Errorf("preflight from the Web UI: %d %v", r.Status, r.Header)
	}
	r = s.Call(t, "OPTIONS", "/codec/decode", "", nil, "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	if r.Status != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from another origin: %d %v", r.Status, r.Header)
	}

	// Every decode that opened the case's payloads is in the audit log.
	admin := s.Mint(t, auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true})
	entries := s.Call(t, "GET", "/v1/admin/audit?case="+id, admin, nil).Body["entries"].([]any)
	actors := map[string]int{}
	for _, e := range entries {
		if e := e.(map[string]any); e["action"] == "codec.decode" && e["org_id"] == "acme" {
			actors[e["actor"].(string)]++
		}
	}
	if actors["desk-acme"] != 2 || actors["desk-"] != 1 || actors["desk-globex"] != 0 {
		t.Errorf("codec.decode audit entries by actor = %v; want acme's desk twice (token, cookie) and the operator's once", actors)
	}

	// Encoding seals under the system key, which only the operator's staff open.
	plain := `{"payloads":[{"metadata":{"encoding":"anNvbi9wbGFpbg=="},"data":"InNpZ25hbCBpbnB1dCI="}]}`
	r = s.Call(t, "POST", "/codec/encode", staff("acme"), plain)
	if open, holds := decoded(t, r, "signal input"); open[0] || holds {
		t.Fatalf("encode: %s", r.Raw)
	}
	if open, _ := decoded(t, s.Call(t, "POST", "/codec/decode", staff("acme"), string(r.Raw)), ""); open[0] {
		t.Error("a firm's desk opened a payload under the system key")
	}
	if _, holds := decoded(t, s.Call(t, "POST", "/codec/decode", staff(""), string(r.Raw)), "signal input"); !holds {
		t.Error("the operator's desk could not open a payload under the system key")
	}
	stack.WantProblem(t, s.Call(t, "POST", "/codec/decode", staff("acme"), "not json"), http.StatusBadRequest, "bad-json")
}

// TestCodecServerForTheCLI: the Temporal CLI shows a case's history in plaintext with
// --codec-endpoint and a support token, and sealed without them.
func TestCodecServerForTheCLI(t *testing.T) {
	t.Parallel()
	const canary = "Valeriu Canaru-CLI"
	id := s.CreateCase(t, s.Token(t, "cli-client"), "My neighbour "+canary+" built a wall on my land")
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		t.Fatal(err)
	}
	// show returns the data of the payloads in the history the CLI prints.
	show := func(extra ...string) string {
		args := append([]string{"workflow", "show", "--workflow-id", schemas.CaseWorkflowID(id), "--address", s.Temporal.Address,
			"--output", "json"}, extra...)
		out, err := exec.CommandContext(t.Context(), cli, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("temporal %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(payloadData(out))
	}
	if out := show(); out == "" || strings.Contains(out, "Canaru") {
		t.Error("the CLI without the codec shows the description")
	}
	tok := s.Mint(t, auth.Identity{Subject: "desk", Org: "acme", Roles: []string{schemas.RoleSupport}})
	if out := show("--codec-endpoint", s.APIURL+"/codec", "--codec-auth", "Bearer "+tok); !strings.Contains(out, canary) {
		t.Errorf("the CLI with the codec and a support token does not show the description:\n%.2000s", out)
	}
}

// TestCaseStartedBeforeTheCodec: a case stored and started as before the codec
// existed (its document in clear, its workflow's input unsealed) goes on under workers
// that seal: it answers a turn, is closed, and its workflow completes, its old input
// still unsealed and what followed sealed.
func TestCaseStartedBeforeTheCodec(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	plain, err := client.Dial(client.Options{HostPort: s.Temporal.Address})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	const description = "An old case about a neighbour's leaking roof"
	owner := s.Token(t, "old-client")
	id := uuid.NewString()
	if _, err := s.Raw.CreateCase(ctx, store.Case{ID: id, UserID: "old-client", OrgID: "acme", Description: description, Language: "en",
		Phase: schemas.PhaseTiering, Status: schemas.StatusOpen, Details: store.NewDetails(description)}); err != nil {
		t.Fatal(err)
	}
	first, err := plain.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: schemas.CaseWorkflowID(id), TaskQueue: stack.TaskQueue},
		schemas.CaseWorkflow, schemas.CaseInput{CaseID: id, UserID: "old-client", OrgID: "acme", Language: "en", MaxSteps: 5,
			Description: description, UserWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(t, owner, id, "show me the case details")
	if r := s.Call(t, "POST", "/v1/cases/"+id+"/close", owner, nil); r.Status != http.StatusOK || r.Body["status"] != schemas.StatusClosed {
		t.Fatalf("close: %d %s", r.Status, r.Raw)
	}
	var result schemas.CaseResult
	if err := s.TC.GetWorkflow(ctx, schemas.CaseWorkflowID(id), "").Get(ctx, &result); err != nil || result.State.Status != schemas.StatusClosed {
		t.Fatalf("the case's result = %+v, %v", result.State, err)
	}
	// The first run (the case may have continued as new since) holds both.
	var sealed, unsealed int
	s.VisitHistoryPayloads(t, schemas.CaseWorkflowID(id), first.GetRunID(), func(p *commonpb.Payload) {
		if codec.Encrypted(p) {
			sealed++
		} else {
			unsealed++
		}
	})
	if unsealed == 0 || sealed == 0 {
		t.Errorf("the history has %d unsealed and %d sealed payloads; want the old input unsealed and what followed sealed", unsealed, sealed)
	}
}
