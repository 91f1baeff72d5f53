package story_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestLargeToolResults is finding 4: a result past Temporal's 2 MB payload limit (a
// 5 MB LEXE answer, a legal_sql query of 16 MB) failed its activity's completion, again
// and again, and climbed the ladder to a ticket. Now each tool's activity keeps the
// raw result in the blob store under cases/<id>/results/ and returns the bounded text
// the model reads with a reference to it.
func TestLargeToolResults(t *testing.T) {
	t.Parallel()
	article := strings.Repeat("Qualunque fatto doloso o colposo, che cagiona ad altri un danno ingiusto, obbliga al risarcimento. ", 54000)
	lexe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"text": article, "urn": "urn:nir:stato:regio.decreto:1942-03-16;262~art2043", "vigente": true})
	}))
	defer lexe.Close()
	if len(article) < 5<<20 {
		t.Fatalf("the LEXE answer has %d bytes, want 5 MB", len(article))
	}
	researcher, queue := s.ServeQueue(t, "e2e-results")
	s.StartHelperWorker(t, queue, 0, "LEXE_TOOLS_URL="+lexe.URL)
	// legal_sql is an admin's tool.
	tok := s.Mint(t, auth.Identity{Subject: "rhea", Org: "acme", Roles: []string{schemas.RoleUser, schemas.RoleAdmin}})
	id := researcher.CreateCase(t, tok, "Research on tort liability")

	for _, c := range []struct{ message, tool string }{
		{"art. 2043 c.c.", schemas.ToolNormattivaSearch},
		{"sql: SELECT text || text || text || text AS t FROM legislatie ORDER BY length(text) DESC", schemas.ToolLegalSQL},
	} {
		turn := researcher.Send(t, tok, id, c.message)
		used := stack.ToolsUsed(turn)
		if len(used) != 1 || used[0]["tool"] != c.tool || used[0]["status"] != schemas.ToolOK || turn.Body["escalation"] != nil {
			t.Fatalf("%s: %s", c.tool, turn.Raw)
		}
		ref, _ := used[0]["result_ref"].(string)
		if !strings.HasPrefix(ref, "cases/"+id+"/results/") {
			t.Fatalf("%s: result_ref %q", c.tool, ref)
		}
		info, err := os.Stat(filepath.Join(s.BlobDir, filepath.FromSlash(ref)))
		if err != nil || info.Size() < 2<<20 {
			t.Errorf("%s: the stored result: %v, %v bytes", c.tool, err, info)
		}
		if n := len(turn.Raw); n > 256<<10 {
			t.Errorf("%s: the turn's answer has %d bytes", c.tool, n)
		}
	}
}
