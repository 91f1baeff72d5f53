package tools

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lexflow/lexflow/schemas"
)

// TestEveryToolHasABudget: each tool in the registry declares its share of the
// model's context, and no budget table entry names a tool the registry lacks.
func TestEveryToolHasABudget(t *testing.T) {
	for _, tool := range All() {
		if tool.Budget.Percent <= 0 || tool.Budget.Percent > 25 {
			t.Errorf("%s: budget of %d%% of the context; want 1 to 25", tool.Name, tool.Budget.Percent)
		}
	}
	for name := range budgets {
		if _, ok := Get(name); !ok {
			t.Errorf("budgets name %s, which the registry lacks", name)
		}
	}
}

func TestBudgetFollowsTheContext(t *testing.T) {
	b := Budget{Percent: 10}
	for _, c := range []struct{ context, tokens, chars int }{
		{0, schemas.DefaultContextTokens / 10, schemas.DefaultContextTokens / 10 * CharsPerToken},
		{1000, schemas.MinContextTokens / 10, schemas.MinContextTokens / 10 * CharsPerToken},
		{64000, 6400, 6400 * CharsPerToken},
		{1_000_000, 100_000, MaxShownChars},
	} {
		if got := b.Tokens(c.context); got != c.tokens {
			t.Errorf("10%% of %d = %d tokens, want %d", c.context, got, c.tokens)
		}
		if got := b.Chars(c.context); got != c.chars {
			t.Errorf("10%% of %d = %d characters, want %d", c.context, got, c.chars)
		}
	}
}

func TestFit(t *testing.T) {
	if got := Fit("short", 10); got != "short" {
		t.Errorf("Fit cut a text that fits: %q", got)
	}
	text := strings.Repeat("line of the result\n", 100)
	got := Fit(text, 500)
	if n := utf8.RuneCountInString(got); n > 500 {
		t.Errorf("Fit(…, 500) has %d characters", n)
	}
	head, note, _ := strings.Cut(got, "\n[… ")
	if !strings.HasSuffix(head, "line of the result") || !strings.Contains(note, "more characters of this result left out") {
		t.Errorf("Fit did not cut at a line and say so: %q", got)
	}
	if left := len(text) - len(head); !strings.HasPrefix(note, fmt.Sprint(left)) {
		t.Errorf("Fit says %q left out, want %d", note, left)
	}
}

// caseFile is a get_case_details result with n facts, three parties, a summary and
// legal research, and a long internal_notes.
func caseFile(t *testing.T, facts int, notes string) []byte {
	t.Helper()
	var fs []any
	for i := range facts {
		fs = append(fs, map[string]any{"fact": fmt.Sprintf("Fact number %02d: the tenant paid the deposit of month %d on time.", i, i), "timestamp": "2026-11-27T05:00:00Z"})
	}
	return mustJSON(t, schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess,
		CaseDetails: map[string]any{
			"summary":        map[string]any{"current": "Tenant {{party0.fullName}} claims back a deposit of 2,000 lei from {{party1.companyName}}."},
			"facts":          fs,
			"legal_research": map[string]any{"legislation": []any{"Codul civil, art. 1357", "Legea 114/1996, art. 5"}},
			"objectives":     []any{"recover the deposit"},
			"internal_notes": notes,
		},
		Parties: []schemas.PartyPlaceholder{
			{PartyID: "party0", Placeholders: []string{"{{party0.name}}", "{{party0.fullName}}"}},
			{PartyID: "party1", Placeholders: []string{"{{party1.name}}", "{{party1.companyName}}"}},
			{PartyID: "party2", Placeholders: []string{"{{party2.name}}", "{{party2.email}}"}},
		}})
}

// TestCaseDetailsWhole: a case file of twelve facts and three parties reaches the
// model whole, where the 900-character clip of old cut it after a few facts.
func TestCaseDetailsWhole(t *testing.T) {
	tool, _ := Get(schemas.ToolGetCaseDetails)
	text, failure := tool.Show(caseFile(t, 12, "short"), 0)
	if failure != "" {
		t.Fatal(failure)
	}
	for _, want := range []string{"claims back a deposit", "Fact number 00", "Fact number 11", "{{party2.email}}",
		"Legea 114/1996", "recover the deposit", "internal_notes: \"short\""} {
		if !strings.Contains(text, want) {
			t.Errorf("the case file lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Left out") || utf8.RuneCountInString(text) <= SummaryChars {
		t.Errorf("a small case file was cut (%d characters):\n%s", utf8.RuneCountInString(text), text)
	}
}

// TestCaseDetailsShaped: past its budget, the case file keeps its summary, parties,
// research and latest facts whole, and names what it left out and the path to read it.
func TestCaseDetailsShaped(t *testing.T) {
	tool, _ := Get(schemas.ToolGetCaseDetails)
	context := schemas.MinContextTokens // 614 tokens, 2,456 characters
	text, _ := tool.Show(caseFile(t, 60, strings.Repeat("n", 3000)), context)
	if n := utf8.RuneCountInString(text); n > tool.Budget.Chars(context) {
		t.Errorf("the case file has %d characters, over its budget of %d", n, tool.Budget.Chars(context))
	}
	for _, want := range []string{"claims back a deposit", "{{party2.email}}", "Legea 114/1996", "Fact number 59",
		"recover the deposit", "facts (the latest ", "internal_notes (3002 characters)", "oldest facts", `{"path": "facts"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("the shaped case file lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Fact number 00") {
		t.Errorf("the oldest fact was kept before the latest:\n%s", text)
	}
	// Research past the whole budget is cut, and the note on what was left out stays.
	huge := mustJSON(t, schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess, CaseDetails: map[string]any{
		"summary": "s", "legal_research": strings.Repeat("r", 10000), "facts": []any{"f1", "f2"}, "objectives": []any{"o"}}})
	text, _ = tool.Show(huge, context)
	if n := utf8.RuneCountInString(text); n > tool.Budget.Chars(context) || !strings.HasSuffix(text, `{"path": "legal_research.legislation"}.]`) ||
		!strings.Contains(text, "objectives (5 characters)") {
		t.Errorf("over its budget, the case file has %d characters and ends %q", n, text[max(len(text)-120, 0):])
	}
	part := mustJSON(t, schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess, Path: "legal_research.legislation", Value: []any{"Codul civil, art. 1357"}})
	if text, _ := tool.Show(part, context); text != "case_details.legal_research.legislation:\n[\"Codul civil, art. 1357\"]" {
		t.Errorf("a part read by path = %q", text)
	}
}

// TestReasonerAnswerWhole: a 3,000-character plan reaches the assistant whole, as the
// reasoner wrote it, where it was cut to 900 characters of JSON.
func TestReasonerAnswerWhole(t *testing.T) {
	tool, _ := Get(schemas.ToolConsultReasoner)
	plan := strings.Repeat("Step: cite art. 1357 «Codul civil»; then draft the notice.\n", 52)[:3000]
	text, failure := tool.Show(mustJSON(t, schemas.ConsultReasonerResult{Status: schemas.ResultSuccess, Response: plan}), 0)
	if failure != "" || text != "The reasoner's answer:\n"+plan {
		t.Errorf("the reasoner's answer reached the model as %d characters, failure %q", utf8.RuneCountInString(text), failure)
	}
	text, failure = tool.Show(mustJSON(t, schemas.ConsultReasonerResult{Status: schemas.ResultError, ErrorMessage: "no reasoner"}), 0)
	if failure != "no reasoner" || text != "[Tool consult_reasoner failed: no reasoner]" {
		t.Errorf("a failed consultation shows %q, %q", text, failure)
	}
}
