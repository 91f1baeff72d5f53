package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lexflow/lexflow/schemas"
)

// How results are measured against the assistant model's context.
const (
	// CharsPerToken is the estimate of characters a token holds: the meter's four
	// (activities.tokens, for an endpoint that reports no usage), counted here in
	// characters rather than bytes, as budgets cut texts by characters.
	CharsPerToken = 4
	// MaxShownChars bounds one result whatever the context size: the text travels in
	// the turn's workflow history with each later model call of the turn.
	MaxShownChars = 32000
)

// Tokens estimates the tokens of a text as the budgets count them: a token per
// CharsPerToken characters, rounded up.
func Tokens(s string) int { return (utf8.RuneCountInString(s) + CharsPerToken - 1) / CharsPerToken }

// Budget is how much of the assistant model's context one result of a tool may take,
// and how its text is cut to it.
type Budget struct {
	// Percent is the share of the context, in percent, one result may take.
	Percent int
	// Shape cuts a result's text to chars characters keeping what matters, reading the
	// raw result where it must; nil cuts the text by Fit.
	Shape func(raw []byte, text string, chars int) string
}

// Tokens is the budget, in estimated tokens, for a context of contextTokens (counted
// as at least schemas.MinContextTokens; 0 means schemas.DefaultContextTokens).
func (b Budget) Tokens(contextTokens int) int {
	return ContextTokens(contextTokens) * b.Percent / 100
}

// ContextTokens is the context size budgets are worked out for: n, at least
// schemas.MinContextTokens, or schemas.DefaultContextTokens for 0.
func ContextTokens(n int) int {
	if n == 0 {
		return schemas.DefaultContextTokens
	}
	return max(n, schemas.MinContextTokens)
}

// Chars is the budget in characters, at most MaxShownChars.
func (b Budget) Chars(contextTokens int) int {
	return min(b.Tokens(contextTokens)*CharsPerToken, MaxShownChars)
}

// Show is the text the model reads of one raw result of the tool, for an assistant
// model of contextTokens (0: schemas.DefaultContextTokens): the formatter's text, shaped to the
// tool's budget. failure is the formatter's.
func (t *Tool) Show(raw []byte, contextTokens int) (text, failure string) {
	text, failure = t.Format(t.Name, raw)
	chars := t.Budget.Chars(contextTokens)
	if failure != "" || t.Budget.Shape == nil {
		return Fit(text, chars), failure
	}
	return t.Budget.Shape(raw, text, chars), ""
}

// Fit cuts text to at most chars characters: whole lines from its start when a line
// ends in the last fifth of what fits, and a last line saying how much was left out.
func Fit(text string, chars int) string {
	n := utf8.RuneCountInString(text)
	if n <= chars {
		return text
	}
	note := func(left int) string {
		return fmt.Sprintf("\n[… %d more characters of this result left out to fit the model's context]", left)
	}
	keep := max(chars-utf8.RuneCountInString(note(n)), 0)
	head := string([]rune(text)[:keep])
	if i := strings.LastIndexByte(head, '\n'); i >= keep*4/5 {
		head = head[:i]
	}
	return head + note(n-utf8.RuneCountInString(head))
}

// Budgets of the tools, in percent of the assistant model's context. Research
// results are bounded by their formatters already; the case file, the reasoner's
// answer and a document's pages are what the model works from, and get the most.
var budgets = map[string]Budget{
	schemas.ToolNormattivaSearch:    {Percent: 8},
	schemas.ToolEurlexSearch:        {Percent: 8},
	schemas.ToolInfolexSearch:       {Percent: 8},
	schemas.ToolKBSearch:            {Percent: 8},
	schemas.ToolLegislationSearch:   {Percent: 8},
	schemas.ToolLexSearch:           {Percent: 8},
	schemas.ToolLexSearchEnriched:   {Percent: 8},
	schemas.ToolWebSearch:           {Percent: 6},
	schemas.ToolLegalSQL:            {Percent: 10},
	schemas.ToolGetCaseDetails:      {Percent: 15, Shape: shapeCaseDetails},
	schemas.ToolUpdateCaseDetails:   {Percent: 2},
	schemas.ToolGetPartyIDByName:    {Percent: 2},
	schemas.ToolGenerateDraftPDF:    {Percent: 2},
	schemas.ToolListDocuments:       {Percent: 8},
	schemas.ToolReadDocument:        {Percent: 15},
	schemas.ToolReadLegalText:       {Percent: 15},
	schemas.ToolCheckQuota:          {Percent: 2},
	schemas.ToolCreateSupportTicket: {Percent: 2},
	schemas.ToolConsultReasoner:     {Percent: 10, Shape: shapeReasoner},
	schemas.ToolComputeDeadline:     {Percent: 3},
	schemas.ToolProposeDeadline:     {Percent: 2},
	// generate_image answers counts and a path, never the chart's labels.
	schemas.ToolGenerateImage: {Percent: 2},
	// Edison's tools (issue 42).
	schemas.ToolRagSearch:   {Percent: 8},
	schemas.ToolSystemStats: {Percent: 4},
}

// withBudgets gives each tool its budget from budgets; a tool without one keeps the
// zero Budget, which TestEveryToolHasABudget refuses.
func withBudgets(ts []*Tool) []*Tool {
	for _, t := range ts {
		t.Budget = budgets[t.Name]
	}
	return ts
}
