package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// attackBodies are plausible request bodies, so that an attack reaches the route's
// authorization rather than failing on its input; a route not listed gets {}.
var attackBodies = map[string]any{
	"POST /v1/cases":                           map[string]any{"description": "a case of my own"},
	"POST /v1/cases/:id/messages":              map[string]any{"message": "show me the case details"},
	"POST /v1/cases/:id/parties":               map[string]any{"first_name": "Eve", "last_name": "Intruder"},
	"POST /v1/cases/:id/close":                 map[string]any{"note": "closed by someone else"},
	"POST /v1/cases/:id/payment":               map[string]any{"reference": "i-promise"},
	"PUT /v1/me/memory":                        map[string]any{"memory": "the attacker's own memory"},
	"PATCH /v1/me/memory/facts/:id":            map[string]any{"text": "the attacker's text"},
	"POST /v1/support/cases/:id/resume":        map[string]any{"action": "close", "note": "closing another firm's case"},
	"PUT /v1/admin/subscriptions/:id":          map[string]any{"plan": "free", "credits": map[string]int{"1": 99, "2": 99, "3": 99}},
	"PUT /v1/admin/budgets/:tenant":            map[string]any{"tokens_per_day": 1, "case_tokens_per_day": 1},
	"PUT /v1/admin/disclosures/:org":           map[string]any{"on": map[string]bool{"it": false}},
	"PUT /v1/admin/cases/:id/hold":             map[string]any{"reason": "holding another firm's case"},
	"POST /v1/billing/cases/:id/payments":      map[string]any{"reference": "fake", "amount": "0.01 EUR", "note": "free case"},
	"POST /v1/citations/check":                 map[string]any{"text": "art. 2043 c.c.", "language": "it"},
	"POST /v1/deadlines/compute":               map[string]any{"jurisdiction": "ro", "from": "2025-03-03", "amount": 3, "unit": "days"},
	"GET /v1/support/cases":                    nil,
	"GET /v1/cases/:id/drafts/:name/:revision": nil,
}

// attackQueries are query strings some routes need to do anything at all.
var attackQueries = map[string]string{
	"GET /v1/support/cases": "?status=paused_support",
	"GET /v1/admin/audit":   "?limit=1000",
}

// victim is a client's case with everything a route could leak or change.
type victim struct {
	caseID, org, canary string
	tok                 string
	// docID is a document of the case, read.
	docID string
	// payloads are the case's sealed input, for the codec server's routes.
	payloads string
}

// payloadData is the data of every payload in a codec answer, decoded from base64.
func payloadData(raw []byte) []byte {
	var out []byte
	for _, m := range payloadDataField.FindAllSubmatch(raw, -1) {
		b, _ := base64.StdEncoding.DecodeString(string(m[1]))
		out = append(out, b...)
	}
	return out
}

var payloadDataField = regexp.MustCompile(`"data":\s*"([A-Za-z0-9+/=]+)"`)

func newVictim(t *testing.T) victim {
	t.Helper()
	v := victim{org: "victim-" + uuid.NewString()[:8], canary: "CANARY-" + uuid.NewString()}
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", v.org), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	v.tok = s.Mint(t, auth.Identity{Subject: "alice", Org: v.org, Roles: []string{schemas.RoleUser}})
	v.caseID = s.CreateCase(t, v.tok, "A private matter: "+v.canary)
	if r := s.Call(t, "POST", "/v1/cases/"+v.caseID+"/parties", v.tok, map[string]any{"first_name": "Ilinca", "last_name": v.canary}); r.Status != http.StatusCreated {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "PUT", "/v1/me/memory", v.tok, map[string]any{"memory": "alice's secret: " + v.canary}); r.Status != http.StatusOK {
		t.Fatalf("memory: %d %s", r.Status, r.Raw)
	}
	s.Send(t, v.tok, v.caseID, "What do you know about my case?")
	up := s.Upload(t, v.tok, v.caseID, "evidence-"+v.canary+".txt", []byte("A letter from Ilinca "+v.canary+" about the deposit."))
	if up.Status != http.StatusAccepted {
		t.Fatalf("upload: %d %s", up.Status, up.Raw)
	}
	v.docID = up.Body["id"].(string)
	s.WaitForDocument(t, v.tok, v.caseID, v.docID)
	v.payloads = startPayloads(t, v.caseID)
	return v
}

// snapshot is everything of the victim's that an attack must leave as it was: the
// case, its parties, transcript, tickets and audit entries, the memory, the
// organization's subscription and budget, and the blob tree.
func (v victim) snapshot(t *testing.T) string {
	t.Helper()
	ctx := t.Context()
	cs, err1 := s.Store.GetCase(ctx, v.caseID)
	if cs.State != nil { // the workflow's own progress (it may continue as new meanwhile)
		st := *cs.State
		st.Runs, st.Seq, st.UpdatedAt = 0, 0, time.Time{}
		cs.State, cs.UpdatedAt = &st, time.Time{}
	}
	parties, err2 := s.Store.ListParties(ctx, v.caseID)
	records, err3 := s.Store.ListRecords(ctx, v.caseID, 0, 1000)
	tickets, err4 := s.Store.ListTickets(ctx, v.caseID)
	mem, err5 := s.Store.GetMemory(ctx, store.OwnerID(v.org, "alice"))
	sub, err6 := s.Store.GetSubscription(ctx, store.SubscriptionID("", v.org))
	audit, err7 := s.Store.ListAudit(ctx, store.AuditFilter{OrgID: v.org})
	budget, err8 := s.Store.GetBudget(ctx, schemas.TenantKey(v.org, ""))
	if errors.Is(err8, store.ErrNotFound) {
		err8 = nil
	}
	for _, err := range []error{err1, err2, err3, err4, err5, err6, err7, err8} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var blobs []string
	_ = filepath.WalkDir(s.BlobDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			blobs = append(blobs, p)
		}
		return nil
	})
	b, _ := json.Marshal(map[string]any{"case": cs, "parties": parties, "records": len(records), "tickets": tickets,
		"memory": mem.Text, "subscription": sub, "audit": audit, "budget": budget, "blobs": blobs})
	return string(b)
}

// TestEveryRouteAgainstOtherTenants calls every route of the route table on the
// victim's case as someone who must not reach it: without a token, as another
// tenant's user, as a user of the same name in another organization, and as staff of
// another organization. A route about a case answers 401, 403, 404 or 410; any other
// route may answer, but never with the victim's data; and the victim's case, store
// records and blobs stay as they were. A route added to the table is attacked too.
func TestEveryRouteAgainstOtherTenants(t *testing.T) {
	// Not parallel: the victim's snapshot holds the whole blob tree, which other tests
	// write to.
	v := newVictim(t)
	before := v.snapshot(t)
	evil := "evil-" + uuid.NewString()[:8]
	attackers := map[string]string{
		"no token":                  "",
		"another tenant's user":     s.Mint(t, auth.Identity{Subject: "mallory", Org: evil, Roles: []string{schemas.RoleUser}}),
		"alice of another org":      s.Mint(t, auth.Identity{Subject: "alice", Org: evil, Roles: []string{schemas.RoleUser}}),
		"staff of another org":      s.Mint(t, auth.Identity{Subject: "desk", Org: evil, Roles: []string{schemas.RoleSupport, schemas.RoleBilling, schemas.RoleAdmin}}),
		"user without organization": s.Mint(t, auth.Identity{Subject: "alice", Roles: []string{schemas.RoleUser}}),
	}
	attacked := 0
	for _, r := range api.Routes() {
		if r.Auth == api.Public || r.Auth == api.Webhook {
			continue
		}
		key := r.Method + " " + r.Path
		path := strings.NewReplacer(":party", "party0", ":name", "Cerere", ":revision", "1", ":tenant", "org:"+v.org, ":doc", v.docID, ":org", v.org).Replace(r.Path)
		if strings.Contains(path, "/admin/subscriptions/:id") {
			path = strings.Replace(path, ":id", "org:"+v.org, 1)
		}
		path = strings.Replace(path, ":id", v.caseID, 1) + attackQueries[key]
		body, ok := attackBodies[key]
		if !ok {
			body = map[string]any{}
		}
		if r.Auth == api.Codec {
			body = v.payloads
		}
		aboutTheVictim := strings.Contains(r.Path, ":id") || strings.Contains(r.Path, ":tenant") || strings.Contains(r.Path, ":org")
		if key == "POST /v1/admin/tools/execute" {
			// The case is named in the body: a tool that would rewrite it.
			body = map[string]any{"tool": schemas.ToolUpdateCaseDetails, "case_id": v.caseID, "args": map[string]any{"updates": map[string]any{"summary": "rewritten"}}}
			aboutTheVictim = true
		}
		for who, tok := range attackers {
			attacked++
			resp := s.Call(t, r.Method, path, tok, body)
			switch {
			case tok == "" && resp.Status != http.StatusUnauthorized:
				t.Errorf("%s as %s: %d, want 401", key, who, resp.Status)
			case aboutTheVictim && !slices.Contains([]int{401, 403, 404, 410}, resp.Status):
				t.Errorf("%s as %s: %d %s, want 403, 404 or 410", key, who, resp.Status, resp.Raw)
			case resp.Status >= 500:
				t.Errorf("%s as %s: %d %s", key, who, resp.Status, resp.Raw)
			}
			shown := append(slices.Clone(resp.Raw), payloadData(resp.Raw)...)
			if bytes.Contains(shown, []byte(v.canary)) || bytes.Contains(shown, []byte(v.caseID)) && !aboutTheVictim {
				t.Errorf("%s as %s shows the victim's data: %s", key, who, resp.Raw)
			}
		}
	}
	if after := v.snapshot(t); after != before {
		t.Errorf("the attacks changed the victim's data:\nbefore %s\nafter  %s", before, after)
	}
	t.Logf("%d requests over %d routes", attacked, len(api.Routes()))
}

// TestPublicRoutesAreTheMarkedOnes pins the routes that answer without a token, and
// checks that dev-only routes do not exist outside dev mode.
func TestPublicRoutesAreTheMarkedOnes(t *testing.T) {
	t.Parallel()
	var public []string
	for _, r := range api.Routes() {
		if r.Auth == api.Public || r.Auth == api.Webhook {
			public = append(public, r.Method+" "+r.Path)
		}
	}
	want := []string{"GET /healthz", "GET /readyz", "POST /v1/webhooks/payments", "GET /pay/:session", "POST /pay/:session", "POST /dev/token",
		"GET /", "GET /app/config.json", "GET /app/*", "OPTIONS /codec/:op", "GET /v1/openapi.json",
		"GET /v1/feeds/:file"} // a calendar feed: its secret path is the credential (TestCalendarFeed)
	if !slices.Equal(slices.Sorted(slices.Values(public)), slices.Sorted(slices.Values(want))) {
		t.Errorf("public routes = %v, want %v: a new public route must be added here on purpose", public, want)
	}
	srv := httptest.NewServer(s.NewAPI(t, "", func(cfg *config.Config, d *api.Deps) { cfg.TaskQueue, d.Dev = "no-dev", false }))
	defer srv.Close()
	for _, r := range api.Routes() {
		if !r.DevOnly {
			continue
		}
		req, _ := http.NewRequest(r.Method, srv.URL+strings.ReplaceAll(r.Path, ":session", "cs_test_x"), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s outside dev mode: %d, want 404", r.Method, r.Path, resp.StatusCode)
		}
	}
}
