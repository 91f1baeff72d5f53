package corpus

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// italianActs names the acts of the Normattiva files: the act type the tools match on,
// and its number.
var italianActs = map[string]struct{ actType, number string }{
	"rd_262_1942.json":   {"codice civile", "262"},
	"rd_1398_1930.json":  {"codice penale", "1398"},
	"dlgs_196_2003.json": {"decreto legislativo", "196"},
	"dlgs_206_2005.json": {"decreto legislativo", "206"},
	"dlgs_231_2001.json": {"decreto legislativo", "231"},
}

var (
	// abrogated marks an article that is no longer law, as Normattiva's text says it
	// in place of the article: repealed ("ARTICOLO ABROGATO", "… HA CONFERMATO
	// L'ABROGAZIONE DEL PRESENTE ARTICOLO"), dropped when its chapter was rewritten
	// ("ARTICOLO NON PIÙ PREVISTO"), replaced by another act's article ("ARTICOLO
	// SOSTITUITO DALL'ARTICOLO 3 …") or void with the penalty it set ("ARTICOLO DA
	// RITENERSI SOPPRESSO").
	abrogated = regexp.MustCompile(`^(Art\. \S+ )?(ARTICOLO (ABROGATO|NON PI[ÙùU] PREVISTO|SOSTITUITO|DA RITENERSI SOPPRESSO)|IL .{0,400}?HA CONFERMATO L'ABROGAZIONE DEL PRESENTE ARTICOLO)`)
	// updateBlock starts Normattiva's editorial "AGGIORNAMENTO" notes inside a text.
	updateBlock = regexp.MustCompile(`\s*-{5,}\s*AGGIORNAMENTO[\s\S]*$`)
	// noteRefs are footnote references such as "(96) (125)", and a bare note number
	// after the final punctuation.
	noteRefs     = regexp.MustCompile(`\s*\(\d{1,4}[a-z]?\)`)
	trailingNote = regexp.MustCompile(`([.;:])\s+\d{1,4}[a-z]?$`)
	spaceBefore  = regexp.MustCompile(`\s+([,.;:])`)
)

// loadNormattiva reads the Italian codes: one JSON file per act, a flat list of
// provisions. Titles lose their HTML and amendment markers; texts lose the repeated
// title, editorial update notes and footnote numbers. Repealed articles are kept,
// marked not in force.
func loadNormattiva(f files) ([]Article, error) {
	var out []Article
	for _, name := range f.under("it-normattiva-codes", ".json") {
		var act struct {
			ID         string `json:"id"`
			Title      string `json:"title"`
			IssuedDate string `json:"issued_date"`
			URL        string `json:"url"`
			Provisions []struct {
				Section string `json:"section"`
				Title   string `json:"title"`
				Content string `json:"content"`
			} `json:"provisions"`
		}
		if err := json.Unmarshal(f[name], &act); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", name, err)
		}
		meta, ok := italianActs[path.Base(name)]
		if !ok {
			return nil, fmt.Errorf("corpus: %s is not a known act", name)
		}
		year, _ := strconv.Atoi(act.IssuedDate[:4])
		_, urn, _ := strings.Cut(act.URL, "?")
		for _, p := range act.Provisions {
			title := italianTitle(p.Title)
			text := cleanText(p.Content)
			inForce := !abrogated.MatchString(text)
			if inForce {
				text = italianText(text, title)
			}
			out = append(out, Article{
				DocID: fmt.Sprintf("it/%s/art-%s", act.ID, p.Section), Jurisdiction: "it", Language: "it",
				ActType: meta.actType, ActNumber: meta.number, ActYear: year, ActDate: act.IssuedDate, ActTitle: act.Title,
				Article: p.Section, Title: title, Text: text, URL: act.URL, URN: urn + "~art" + p.Section, InForce: inForce,
			})
		}
	}
	return out, nil
}

// italianTitle cleans a Normattiva heading: HTML, the "(" and "((" amendment markers.
func italianTitle(s string) string {
	s = cleanLine(s)
	s = strings.NewReplacer("((", "", "))", "").Replace(s)
	s = strings.TrimSpace(strings.TrimLeft(s, "( "))
	s = strings.TrimSuffix(s, ")")
	if strings.Count(s, "(") < strings.Count(s, ")") {
		s = strings.TrimSuffix(s, ")")
	}
	return strings.TrimSpace(s)
}

// italianText cleans a Normattiva article text.
func italianText(text, title string) string {
	text = updateBlock.ReplaceAllString(text, "")
	if title != "" {
		for _, prefix := range []string{"(" + title + ").", "(" + title + ")"} {
			if rest, ok := strings.CutPrefix(text, prefix); ok {
				text = strings.TrimSpace(rest)
				break
			}
		}
	}
	text = noteRefs.ReplaceAllString(text, "")
	text = trailingNote.ReplaceAllString(text, "$1")
	return strings.TrimSpace(spaceBefore.ReplaceAllString(text, "$1"))
}
