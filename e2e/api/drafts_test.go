package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
)

// TestDraftDownloadReadsOnlyItsCase forges, in one client's case, the draft record a
// prompt-injected model used to be able to write: a draft whose path is another
// client's PDF. The download serves the PDF stored under the requesting case's own key,
// which does not exist, and never the other client's.
func TestDraftDownloadReadsOnlyItsCase(t *testing.T) {
	t.Parallel()
	victim, attacker := s.Token(t, "vera"), s.Token(t, "mallory")
	victimCase := s.CreateCase(t, victim, "A claim against my landlord")
	turn := s.Send(t, victim, victimCase, "draft: Secret\n# Confidential\n\nOnly Vera may read this.")
	if used := stack.ToolsUsed(turn); len(used) != 1 || used[0]["status"] != "ok" {
		t.Fatalf("victim's draft turn: %s", turn.Raw)
	}
	if r := s.Call(t, "GET", "/v1/cases/"+victimCase+"/drafts/Secret/1", victim, nil); r.Status != http.StatusOK {
		t.Fatalf("the victim cannot read their own draft: %d %s", r.Status, r.Raw)
	}

	attackerCase := s.CreateCase(t, attacker, "Another lease question")
	forged := map[string]any{"draft_name": "Secret", "revision": 1, "status": "generated",
		"path": schemas.DraftPath(victimCase, "Secret", 1)}
	if _, err := s.Store.UpdateDetails(context.Background(), attackerCase, 0, "", map[string]any{"draft_status.Secret_rev1": forged}); err != nil {
		t.Fatal(err)
	}
	r := s.Call(t, "GET", "/v1/cases/"+attackerCase+"/drafts/Secret/1", attacker, nil)
	stack.WantProblem(t, r, http.StatusNotFound, "not-found")
	if detail, _ := r.Body["detail"].(string); !strings.Contains(detail, "missing from the blob store") {
		t.Errorf("the forged record was not found as a record (%q): the test did not reach the download", detail)
	}
}

// TestDraftCitationsAreChecked runs a draft citing an article the Codul civil lacks
// through chat: the draft is rendered with a last page listing it, the check is
// recorded with the revision, and the turn's reply tells the client.
func TestDraftCitationsAreChecked(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "ana")
	r := s.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Cerere de despăgubire pentru un prejudiciu", "language": "ro"})
	id := r.Body["case_id"].(string)
	turn := s.Send(t, tok, id, "proiect: Cerere\n# Cerere\n\nPotrivit art. 1357 C.civ. și art. 9999 C.civ., pârâtul răspunde.")
	reply, _ := turn.Body["reply"].(string)
	if !strings.Contains(reply, "Citări de verificat în proiect") || !strings.Contains(reply, "art. 9999 C.civ. [negăsit]") {
		t.Errorf("the reply does not tell the client: %q", reply)
	}
	r = s.Call(t, "GET", "/v1/cases/"+id+"/drafts", tok, nil)
	var list struct {
		Drafts []schemas.RenderedDraft `json:"drafts"`
	}
	if err := json.Unmarshal(r.Raw, &list); err != nil || len(list.Drafts) != 1 {
		t.Fatalf("drafts: %s, %v", r.Raw, err)
	}
	if got := list.Drafts[0].CitationsToCheck(); len(got) != 1 || got[0] != "art. 9999 C.civ.: not_found" || len(list.Drafts[0].Citations) != 2 {
		t.Errorf("recorded citations %+v", list.Drafts[0].Citations)
	}
	pdf := s.Call(t, "GET", "/v1/cases/"+id+"/drafts/Cerere/1", tok, nil)
	path := filepath.Join(t.TempDir(), "draft.pdf")
	if err := os.WriteFile(path, pdf.Raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(string(out), "\f")
	if len(pages) < 2 || !strings.Contains(pages[len(pages)-2], "Citări de verificat") || !strings.Contains(pages[len(pages)-2], "art. 9999 C.civ.: negăsit") {
		t.Errorf("the PDF's last page: %q", pages)
	}
}

// TestDraftNameOutsideASCII: a draft name the model writes with Romanian letters is
// refused by the draft tool, and the turn answers, rather than failing every workflow
// task on a workflow ID the server will not take until the turn's deadline.
func TestDraftNameOutsideASCII(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "draft-namer")
	id := s.CreateCase(t, tok, "A landlord keeps my deposit")
	turn := s.Send(t, tok, id, "proiect: Notificare de plată\n# Notificare\n\nVă rog să plătiți.")
	used := stack.ToolsUsed(turn)
	if len(used) == 0 || used[0]["tool"] != "generate_draft_pdf" || used[0]["status"] == "ok" || turn.Body["timed_out"] == true {
		t.Errorf("the turn: %s", turn.Raw)
	}
}
