package agent

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// TestJudgeFailsWhatWentWrong scores an outcome that breaks every check at once,
// and the same outcome put right: each check must fail on the first and pass on the
// second.
func TestJudgeFailsWhatWentWrong(t *testing.T) {
	sc := Scenario{Name: "s", Kind: "drafting", Language: "en",
		Parties: []map[string]any{{"first_name": "Peregrine", "last_name": "Ashcombe"}},
		Expect: Expect{Tools: []string{"normattiva_search ok"}, VerifiedCitations: 1, Facts: []string{"the deposit was paid"},
			Draft: true, Replies: []string{"formal notice"}}}
	bad := Outcome{
		Turns: []Turn{{Message: "m", Latency: time.Second, Result: schemas.TurnResult{
			Reply:     "Ecco cosa ho trovato: il deposito non è stato restituito e non ho altro da dire.",
			ToolsUsed: []schemas.ToolUse{{Tool: "normattiva_search", Status: "error"}, {Tool: "generate_draft_pdf", Status: "error"}},
			Citations: []schemas.Citation{{Text: "art. 9999 c.c.", Status: schemas.CitationNotFound}},
			Status:    schemas.StatusWaitingUser, Steps: 3}}},
		CaseDetails: json.RawMessage(`{"facts":[{"fact":"nothing"}]}`),
		Exchanges:   []Exchange{{Role: "assistant", Strings: []string{"the client Peregrine said"}, Tokens: 100}},
	}
	s := Judge(sc, bad, nil)
	if s.Success {
		t.Fatal("a scenario where everything went wrong succeeded")
	}
	for _, want := range []string{"no call of normattiva_search ok", "0 verified citations, want at least 1", `the case file lacks "the deposit was paid"`,
		"no draft was produced", "the client was asked a question where none was needed", `no reply says "formal notice"`,
		"parties' data reached a model: Peregrine", "a reply is in it, not en"} {
		if !strings.Contains(strings.Join(s.Failures, "\n"), want) {
			t.Errorf("failures %q lack %q", s.Failures, want)
		}
	}
	if s.Unverified != 1 || s.TokensPerTurn != 100 || s.StepsPerTurn != 3 || s.LatencyMeanMS != 1000 {
		t.Errorf("measures = %+v", s)
	}
	good := bad
	good.Turns = []Turn{{Message: "m", Latency: time.Second, Result: schemas.TurnResult{
		Reply:     "Here is the formal notice, citing art. 2043 c.c.:\n- normattiva_search: Qualunque fatto doloso o colposo\n  che cagiona ad altri un danno ingiusto",
		ToolsUsed: []schemas.ToolUse{{Tool: "normattiva_search", Status: "ok"}, {Tool: "generate_draft_pdf", Status: "ok"}},
		Citations: []schemas.Citation{{Text: "art. 2043 c.c.", Status: schemas.CitationVerified}},
		Status:    schemas.StatusOpen, Steps: 3}}}
	good.CaseDetails = json.RawMessage(`{"facts":[{"fact":"{{party0.fullName}}: the deposit was paid"}]}`)
	good.Exchanges = []Exchange{{Role: "assistant", Strings: []string{"the client {{party0.fullName}} said"}, Tokens: 100}}
	if s := Judge(sc, good, nil); !s.Success {
		t.Errorf("the outcome put right failed: %q", s.Failures)
	}
	sc.Expect = Expect{Question: true}
	if s := Judge(sc, good, nil); s.Success || !strings.Contains(strings.Join(s.Failures, "\n"), "the client was not asked") {
		t.Errorf("a ladder scenario whose client was not asked: %q", s.Failures)
	}
}
