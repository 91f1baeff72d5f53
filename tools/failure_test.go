package tools

import (
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestEveryToolHasAFailureClass checks that each registry tool says what its failure
// does (issue 37, item 4): an escalate-class tool climbs a ladder that starts with the
// reasoner, a degrade-class tool has no ladder, and the research tools degrade.
func TestEveryToolHasAFailureClass(t *testing.T) {
	for _, tool := range All() {
		switch tool.Failure {
		case Escalate:
			if !tool.Ladder.Reasoner {
				t.Errorf("%s escalates but has no ladder", tool.Name)
			}
		case Degrade:
			if tool.Ladder != (Ladder{}) {
				t.Errorf("%s degrades but has the ladder %s", tool.Name, tool.Ladder)
			}
		default:
			t.Errorf("%s has no failure class (%q)", tool.Name, tool.Failure)
		}
	}
	research := []string{schemas.ToolNormattivaSearch, schemas.ToolEurlexSearch, schemas.ToolInfolexSearch, schemas.ToolKBSearch,
		schemas.ToolLexSearch, schemas.ToolLexSearchEnriched, schemas.ToolWebSearch, schemas.ToolLegalSQL}
	for _, name := range research {
		if tool, _ := Get(name); tool.Failure != Degrade {
			t.Errorf("%s is a research tool and must degrade, not %q", name, tool.Failure)
		}
	}
	caseTools := []string{schemas.ToolGetCaseDetails, schemas.ToolUpdateCaseDetails, schemas.ToolGetPartyIDByName,
		schemas.ToolGenerateDraftPDF, schemas.ToolCheckQuota, schemas.ToolCreateSupportTicket}
	for _, name := range caseTools {
		if tool, _ := Get(name); tool.Failure != Escalate {
			t.Errorf("%s is a case tool and must escalate, not %q", name, tool.Failure)
		}
	}
}
