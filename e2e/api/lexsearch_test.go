package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// TestLegalSearchThroughLexe: with LEXE_TOOLS_URL and no SearXNG, a turn's lex_search
// posts seed 000's {"query"} to the LEXE service's /api/v1/tools/lex_search and the
// model reads its results.
func TestLegalSearchThroughLexe(t *testing.T) {
	t.Parallel()
	lexe := stack.StartLexe(t)
	c, queue := s.ServeQueue(t, "e2e-lex-search")
	s.StartHelperWorker(t, queue, 0, "LEXE_TOOLS_URL="+lexe.URL, "SEARXNG_URL=")
	tok := s.Token(t, "lex-searcher")
	r := c.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Legal research question about a deposit", "language": "en"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	turn := c.Send(t, tok, r.Body["case_id"].(string), "legal search: deposito cauzionale")
	used := stack.ToolsUsed(turn)
	if len(used) != 1 || used[0]["tool"] != "lex_search" || used[0]["status"] != "ok" {
		t.Fatalf("tools used = %v", used)
	}
	if reply, _ := turn.Body["reply"].(string); !strings.Contains(reply, "dejure.it") && !strings.Contains(reply, "Deposito cauzionale") {
		t.Errorf("reply = %q; want the LEXE service's result", reply)
	}
	if got := lexe.Bodies("/api/v1/tools/lex_search"); len(got) != 1 || got[0] != `{"query":"deposito cauzionale"}` {
		t.Errorf("the LEXE service got %q", got)
	}
}
