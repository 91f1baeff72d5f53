package api_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/disclosure"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestDraftDisclosesAIAsTheOrganizationWordsIt: an Italian firm's admin reads the
// default AI disclosure (on for Italian cases, off for the others), words it their
// own way, and switches it on for Romanian cases (audited); wordings that cannot be a
// line and another firm's admin are refused. A draft of one of the firm's Italian
// cases then carries the firm's line, as pdftotext reads the downloaded PDF.
func TestDraftDisclosesAIAsTheOrganizationWordsIt(t *testing.T) {
	t.Parallel()
	org := fmt.Sprintf("studio-%d", time.Now().UnixNano())
	if _, err := s.Store.PutSubscription(t.Context(), store.Subscription{ID: store.SubscriptionID("", org), Plan: "e2e",
		Credits: map[string]int{"1": 10, "2": 10, "3": 10}}); err != nil {
		t.Fatal(err)
	}
	admin := s.Mint(t, auth.Identity{Subject: "titolare", Org: org, Roles: []string{schemas.RoleAdmin}})
	other := s.Mint(t, auth.Identity{Subject: "boss", Org: org + "-other", Roles: []string{schemas.RoleAdmin}})
	tok := s.Mint(t, auth.Identity{Subject: "giulia", Org: org, Roles: []string{schemas.RoleUser}})
	path := "/v1/admin/disclosures/" + org

	r := s.Call(t, "GET", path, admin, nil)
	if lines, _ := r.Body["lines"].(map[string]any); r.Status != http.StatusOK || lines["it"] != disclosure.Texts["it"] || lines["ro"] != "" || lines["en"] != "" {
		t.Fatalf("the default disclosure: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "GET", path, other, nil), http.StatusForbidden, "forbidden")
	stack.WantProblem(t, s.Call(t, "PUT", path, other, map[string]any{"on": map[string]bool{"it": false}}), http.StatusForbidden, "forbidden")
	for _, bad := range []map[string]any{
		{"texts": map[string]string{"it": "Riga uno\nriga due"}},
		{"texts": map[string]string{"it": strings.Repeat("a", disclosure.MaxChars+1)}},
		{"texts": map[string]string{"de": "Mit KI erstellt."}},
		{"on": map[string]bool{"fr": true}},
	} {
		stack.WantProblem(t, s.Call(t, "PUT", path, admin, bad), http.StatusUnprocessableEntity, "invalid-input")
	}
	own := "Atto predisposto dallo Studio con l'ausilio dell'intelligenza artificiale (art. 13 L. 132/2025)."
	r = s.Call(t, "PUT", path, admin, map[string]any{"texts": map[string]string{"it": own}, "on": map[string]bool{"ro": true}})
	if lines, _ := r.Body["lines"].(map[string]any); r.Status != http.StatusOK || lines["it"] != own || lines["ro"] != disclosure.Texts["ro"] || lines["en"] != "" {
		t.Fatalf("set the disclosure: %d %s", r.Status, r.Raw)
	}
	if r = s.Call(t, "GET", path, other, nil); strings.Contains(string(r.Raw), own) {
		t.Errorf("another firm's admin reads the wording: %s", r.Raw)
	}

	c := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Il locatore trattiene il deposito cauzionale", "language": "it"})
	id, _ := c.Body["case_id"].(string)
	if id == "" {
		t.Fatalf("create: %d %s", c.Status, c.Raw)
	}
	s.WaitForStatus(t, tok, id, schemas.StatusOpen, schemas.PhaseActive)
	turn := s.Send(t, tok, id, "draft: Diffida\n# Diffida\n\nSi chiede la restituzione del deposito entro 15 giorni.")
	if used := stack.ToolsUsed(turn); len(used) != 1 || used[0]["status"] != "ok" {
		t.Fatalf("draft turn: %s", turn.Raw)
	}
	pdf := s.Call(t, "GET", "/v1/cases/"+id+"/drafts/Diffida/1", tok, nil)
	file := filepath.Join(t.TempDir(), "draft.pdf")
	if err := os.WriteFile(file, pdf.Raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if text := strings.Join(strings.Fields(string(out)), " "); !strings.Contains(text, own) {
		t.Errorf("the draft's text = %q, want the firm's disclosure %q", text, own)
	}
}
