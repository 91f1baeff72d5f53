package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Caps of legislation_search's text: the articles shown and each one's excerpt.
const (
	legislationShown       = 8
	legislationExcerptRune = 700
)

// legislationWords are the words of legislation_search's text in the question's
// language: its label, the result count, no results, in force or not, and "text as
// of".
var legislationWords = map[string]struct{ label, results, none, inForce, repealed, asOf string }{
	"ro": {"Legislație", "rezultate", "Niciun rezultat", "în vigoare", "abrogat", "text la"},
	"it": {"Legislazione", "risultati", "Nessun risultato", "vigente", "non vigente", "testo al"},
	"en": {"Legislation", "results", "No results", "in force", "repealed", "text as of"},
}

// formatLegislation shows legislation_search's articles as seed 000's research tools
// show theirs: a header with the count, then each article's reference and heading,
// doc_id, status and date, URL and excerpt, at most legislationShown of them; the
// "no results" text and the labels follow the question's language.
func formatLegislation(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		Results []struct {
			Reference string `json:"reference"`
			Title     string `json:"title"`
			DocID     string `json:"doc_id"`
			AsOf      string `json:"as_of"`
			InForce   bool   `json:"in_force"`
			Excerpt   string `json:"excerpt"`
			URL       string `json:"url"`
		} `json:"results"`
		Note     string `json:"note"`
		Language string `json:"language"`
	}
	_ = json.Unmarshal(result, &r)
	w, ok := legislationWords[r.Language]
	if !ok {
		w = legislationWords["en"]
	}
	if len(r.Results) == 0 {
		text := "[" + w.label + ": " + w.none + "]"
		if r.Note != "" {
			text += "\n" + r.Note
		}
		return text, ""
	}
	lines := []string{fmt.Sprintf("[%s: %d %s]", w.label, len(r.Results), w.results)}
	for _, x := range first(r.Results, legislationShown) {
		status := w.inForce
		if !x.InForce {
			status = w.repealed
		}
		head := "- [" + x.Reference
		if x.Title != "" {
			head += " - " + x.Title
		}
		head += fmt.Sprintf("] (doc_id %s; %s; %s %s) %s", x.DocID, status, w.asOf, or(x.AsOf, "?"), x.URL)
		lines = append(lines, head+"\n  "+strings.ReplaceAll(Clip(x.Excerpt, legislationExcerptRune), "\n", " "))
	}
	return strings.Join(lines, "\n"), ""
}
