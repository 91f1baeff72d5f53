package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lexflow/lexflow/schemas"
)

// Formatter turns a tool's JSON result into the bounded text the model reads. When the
// result reports a failure, failure is its reason and text the failure text.
type Formatter func(name string, result []byte) (text, failure string)

// SummaryChars caps the summary of a result that tools_used, events and the
// transcript show (seed 001); the model reads results by their budgets (Show).
const SummaryChars = 900

// Failed is the text a failed tool call shows the model (seed 000's error shaping).
func Failed(name, reason string) string { return fmt.Sprintf("[Tool %s failed: %s]", name, reason) }

// lexeFailure returns the reason of LEXE's executor failure shape,
// {"success": false, "error": "..."}, or "".
func lexeFailure(result []byte) string {
	var r struct {
		Success *bool  `json:"success"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(result, &r) == nil && r.Success != nil && !*r.Success {
		return or(r.Error, "unknown error")
	}
	return ""
}

// formatStatus formats seed 003's {"status": ...} results: an error status becomes the
// failure text; anything else is the compact JSON, which Show cuts to the tool's
// budget.
func formatStatus(name string, result []byte) (string, string) {
	var r struct {
		Status       string `json:"status"`
		ErrorMessage string `json:"error_message"`
	}
	if json.Unmarshal(result, &r) == nil && r.Status == "error" {
		reason := or(r.ErrorMessage, "unknown error")
		return Failed(name, reason), reason
	}
	return compact(result), ""
}

func formatWebSearch(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		Results []struct{ Title, URL, Content string } `json:"results"`
	}
	_ = json.Unmarshal(result, &r)
	if len(r.Results) == 0 {
		return "[Web search: Nessun risultato]", ""
	}
	var lines []string
	for _, x := range first(r.Results, schemas.MaxWebResults) {
		lines = append(lines, fmt.Sprintf("- %s: %s", x.Title, Clip(x.Content, 500)))
	}
	return strings.Join(lines, "\n"), ""
}

func formatNormattiva(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		Text         string `json:"text"`
		URN          string `json:"urn"`
		Vigente      *bool  `json:"vigente"`
		ActTitle     string `json:"act_title"`
		Article      string `json:"article"`
		URL          string `json:"url"`
		Jurisdiction string `json:"jurisdiction"`
	}
	_ = json.Unmarshal(result, &r)
	if r.Text == "" {
		return "[Normattiva: Nessun risultato]", ""
	}
	repealed := r.Vigente != nil && !*r.Vigente
	if r.Jurisdiction == "ro" {
		// Romanian law is the Portal Legislativ's, named by its act and article.
		status := "în vigoare"
		if repealed {
			status = "abrogat"
		}
		return fmt.Sprintf("[Portal Legislativ (legislatie.just.ro): %s, art. %s - %s]\n%s\n%s", r.ActTitle, r.Article, status, r.URL, r.Text), ""
	}
	status := "VIGENTE"
	if repealed {
		status = "NON VIGENTE"
	}
	return fmt.Sprintf("[Normattiva: %s - %s]\n%s", r.URN, status, r.Text), ""
}

func formatEurlex(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct{ Text, Title, Celex string }
	_ = json.Unmarshal(result, &r)
	if r.Text == "" {
		return "[EUR-Lex: Nessun risultato]", ""
	}
	return fmt.Sprintf("[EUR-Lex: %s - %s]\n%s", r.Celex, r.Title, r.Text), ""
}

func formatInfolex(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		ArticleText string `json:"article_text"`
		Spiegazione string `json:"spiegazione"`
		Massime     []struct {
			Autorita string `json:"autorita"`
			Testo    string `json:"testo"`
		} `json:"massime"`
	}
	_ = json.Unmarshal(result, &r)
	if r.ArticleText == "" && r.Spiegazione == "" && len(r.Massime) == 0 {
		return "[InfoLex: Nessun risultato]", ""
	}
	var parts []string
	if r.ArticleText != "" {
		parts = append(parts, "Testo articolo:\n"+r.ArticleText)
	}
	if r.Spiegazione != "" {
		parts = append(parts, "Spiegazione:\n"+r.Spiegazione)
	}
	if len(r.Massime) > 0 {
		lines := []string{"Massime giurisprudenziali:"}
		for _, m := range first(r.Massime, 3) {
			lines = append(lines, fmt.Sprintf("- %s: %s", m.Autorita, Clip(m.Testo, 200)))
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n\n"), ""
}

func formatKB(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		Results []struct {
			Riferimento string   `json:"riferimento"`
			ID          string   `json:"id"`
			Testo       string   `json:"testo"`
			Text        string   `json:"text"`
			Materia     string   `json:"materia"`
			RRFScore    *float64 `json:"rrf_score"`
			Score       *float64 `json:"score"`
		} `json:"results"`
		Note string `json:"note"`
	}
	_ = json.Unmarshal(result, &r)
	if len(r.Results) == 0 {
		if r.Note != "" {
			return "[KB Massimario: Nessun risultato]\n" + r.Note, ""
		}
		return "[KB Massimario: Nessun risultato]", ""
	}
	lines := []string{fmt.Sprintf("[KB Massimario: %d risultati]", len(r.Results))}
	for _, x := range first(r.Results, 8) {
		ref := or(x.Riferimento, x.ID)
		text := or(x.Testo, x.Text)
		score := x.RRFScore
		if score == nil {
			score = x.Score
		}
		line := "- [" + ref + "]"
		if x.Materia != "" {
			line += " (" + x.Materia + ")"
		}
		if score != nil {
			line += fmt.Sprintf(" score=%.2f", *score)
		}
		lines = append(lines, line+": "+Clip(text, 1000))
	}
	return strings.Join(lines, "\n"), ""
}

// searchResult is one result of lex_search and lex_search_enriched.
type searchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Content string `json:"content"`
	Vigenza string `json:"vigenza"`
}

func formatResults(label string, results []searchResult) string {
	if len(results) == 0 {
		return "[" + label + ": Nessun risultato]"
	}
	lines := []string{fmt.Sprintf("[%s: %d risultati]", label, len(results))}
	for _, x := range first(results, 8) {
		line := fmt.Sprintf("- %s (%s): %s", Clip(x.Title, 100), x.URL, Clip(x.Content, 800))
		if x.Vigenza != "" {
			line += " [vigenza: " + x.Vigenza + "]"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func formatLexSearch(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		Results []searchResult `json:"results"`
	}
	_ = json.Unmarshal(result, &r)
	return formatResults("Legal Search", r.Results), ""
}

// formatLexSearchEnriched handles both of seed 000's shapes: A, an analysis text (or
// enriched_results in its place); B, structured results.
func formatLexSearchEnriched(name string, result []byte) (string, string) {
	if reason := lexeFailure(result); reason != "" {
		return Failed(name, reason), reason
	}
	var r struct {
		Analysis        string         `json:"analysis"`
		EnrichedResults string         `json:"enriched_results"`
		Results         []searchResult `json:"results"`
	}
	_ = json.Unmarshal(result, &r)
	if len(r.Results) > 0 {
		return formatResults("Legal Search Enriched", r.Results), ""
	}
	if analysis := or(r.Analysis, r.EnrichedResults); analysis != "" {
		return "[Legal Search Enriched]\n" + Clip(analysis, 3000), ""
	}
	return "[Legal Search Enriched: Nessun risultato]", ""
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func first[T any](xs []T, n int) []T { return xs[:min(len(xs), n)] }

// Clip cuts s to n characters, marking the cut with an ellipsis.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

func compact(raw []byte) string {
	var b strings.Builder
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}
