package api_test

import (
	"context"
	"net/http"
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
