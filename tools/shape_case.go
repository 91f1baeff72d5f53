package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lexflow/lexflow/schemas"
)

// caseFileWhole are the parts of case_details that get_case_details shows whole
// before any other: what the case is about, and the research it rests on. The
// parties' placeholders come with them, and then the latest facts.
var caseFileWhole = []string{"summary", "legal_research"}

// caseFileNoteChars is kept free of the budget for the note on what was left out,
// whose list of parts is cut at half of it.
const caseFileNoteChars = 600

// shapeCaseDetails is get_case_details' shaping: a part the model asked for by path,
// cut to the budget; or the case file with its summary, its parties' placeholders and
// its legal research whole, then as many of the latest facts as fit, then the other
// fields in name order as long as each fits whole. A last line names what was left
// out and how to read it (the path argument).
func shapeCaseDetails(raw []byte, text string, chars int) string {
	var r schemas.GetCaseDetailsResult
	if json.Unmarshal(raw, &r) != nil || r.Status != schemas.ResultSuccess {
		return Fit(text, chars)
	}
	if r.Path != "" {
		return Fit(fmt.Sprintf("case_details.%s:\n%s", r.Path, compactValue(r.Value)), chars)
	}
	var b strings.Builder
	b.WriteString("case_details:")
	line := func(key, value string) { fmt.Fprintf(&b, "\n%s: %s", key, value) }
	for _, k := range caseFileWhole {
		if v, ok := r.CaseDetails[k]; ok {
			line(k, compactValue(v))
		}
	}
	parties := r.Parties
	if parties == nil {
		parties = []schemas.PartyPlaceholder{}
	}
	line("parties (placeholders to write in drafts; the values are never shown)", compactValue(parties))
	room := func() int { return chars - caseFileNoteChars - utf8.RuneCountInString(b.String()) }
	var left []string
	if facts, ok := r.CaseDetails["facts"].([]any); ok {
		from := latestThatFit(facts, room()-len("\nfacts (the latest 0000 of 0000): "))
		if from == 0 {
			line("facts", compactValue(facts))
		} else {
			line(fmt.Sprintf("facts (the latest %d of %d)", len(facts)-from, len(facts)), compactValue(facts[from:]))
			left = append(left, fmt.Sprintf("the %d oldest facts", from))
		}
	} else if v, ok := r.CaseDetails["facts"]; ok {
		line("facts", compactValue(v))
	}
	for _, k := range slices.Sorted(maps.Keys(r.CaseDetails)) {
		if k == "facts" || slices.Contains(caseFileWhole, k) {
			continue
		}
		v := compactValue(r.CaseDetails[k])
		if n := utf8.RuneCountInString(v); n+len(k)+3 > room() {
			left = append(left, fmt.Sprintf("%s (%d characters)", k, n))
			continue
		}
		line(k, v)
	}
	if len(left) == 0 {
		return Fit(b.String(), chars)
	}
	note := fmt.Sprintf("\n[Left out to fit the model's context: %s. Read one part with get_case_details and a path in dot notation, e.g. {\"path\": \"facts\"} or {\"path\": \"legal_research.legislation\"}.]",
		Clip(strings.Join(left, ", "), caseFileNoteChars/2))
	return Fit(b.String(), max(chars-utf8.RuneCountInString(note), 0)) + note
}

// latestThatFit returns the first of the latest facts whose list, as compact JSON,
// fits in room characters; at least the latest one is kept.
func latestThatFit(facts []any, room int) int {
	size := 2 // the brackets
	for i := len(facts) - 1; i >= 0; i-- {
		n := utf8.RuneCountInString(compactValue(facts[i]))
		if i < len(facts)-1 {
			n++ // the comma
		}
		if size+n > room && i < len(facts)-1 {
			return i + 1
		}
		size += n
	}
	return 0
}

// shapeReasoner is consult_reasoner's shaping: the reasoner's answer as it wrote it,
// whole up to the budget.
func shapeReasoner(raw []byte, text string, chars int) string {
	var r schemas.ConsultReasonerResult
	if json.Unmarshal(raw, &r) != nil || r.Status != schemas.ResultSuccess {
		return Fit(text, chars)
	}
	return Fit("The reasoner's answer:\n"+r.Response, chars)
}

// compactValue is v as compact JSON, with no HTML escaping.
func compactValue(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return compact(raw)
}
