package legislatie

import (
	"regexp"
	"strings"
)

// Article is one article of an act's text.
type Article struct {
	// Number is the article's number as the corpus writes it: "1357", "21^1".
	Number string
	Text   string
}

// articleHeading starts an article on its own line: "Articolul 1357", "Art. 21^1",
// "Articolul 1.350".
var articleHeading = regexp.MustCompile(`(?m)^[ \t]*(?:Articolul|Art\.)[ \t]+(\d{1,2}\.\d{3}|\d+)(?:[ \t]*\^[ \t]*(\d+))?[ \t]*\.?[ \t]*(?:\n|$|[ \t]+-?)`)

// Articles splits an act's text at its article headings, each article once (the first
// of a repeated number wins: later ones are quotations of amending acts).
func Articles(text string) []Article {
	locs := articleHeading.FindAllStringSubmatchIndex(text, -1)
	var out []Article
	seen := map[string]bool{}
	for i, m := range locs {
		n := strings.ReplaceAll(text[m[2]:m[3]], ".", "")
		if m[4] >= 0 {
			n += "^" + text[m[4]:m[5]]
		}
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, Article{Number: n, Text: strings.TrimSpace(text[m[1]:end])})
	}
	return out
}
