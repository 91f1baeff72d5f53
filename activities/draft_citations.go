package activities

import (
	"strings"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
)

// citationsToCheckTitles head a draft's last page, per language.
var citationsToCheckTitles = map[string]string{
	"en": "Citations to check",
	"it": "Citazioni da verificare",
	"ro": "Citări de verificat",
}

// theTextReads introduces the real text beside a misquotation, per language.
var theTextReads = map[string]string{"en": "the text reads", "it": "il testo recita", "ro": "textul este"}

// citationsToCheckPage is the Markdown of a draft's last page: the citations the corpus
// disproves, finds misquoted or repealed, each with its status in lang and, for a
// misquotation, the closest passage of the real text. It is empty when there are none.
func citationsToCheckPage(cits []schemas.Citation, lang string) string {
	if _, ok := citationsToCheckTitles[lang]; !ok {
		lang = "en"
	}
	var b strings.Builder
	for _, c := range cits {
		if !c.NeedsReview() {
			continue
		}
		line := "- " + escapeMarkdown(c.Text)
		if c.Article != "" && !strings.Contains(c.Text, c.Article) {
			line += " (art. " + c.Article + ")"
		}
		line += ": **" + corpus.StatusLabel(c.Status, lang) + "**"
		if c.Status == schemas.CitationMisquoted && c.Passage != "" {
			line += "; " + theTextReads[lang] + ": «" + escapeMarkdown(c.Passage) + "»"
		}
		b.WriteString(line + "\n")
	}
	if b.Len() == 0 {
		return ""
	}
	return "# " + citationsToCheckTitles[lang] + "\n\n" + b.String()
}

// markdownSpecials are the characters a citation's text could use to change the page's
// Markdown.
var markdownSpecials = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "#", `\#`,
	"<", `\<`, ">", `\>`, "{", `\{`, "|", `\|`, ".", `\.`, "-", `\-`, "+", `\+`)

// escapeMarkdown makes text literal inline Markdown on one line: its white space, new
// lines included, becomes single spaces, and every character that could start a
// block or a span is escaped.
func escapeMarkdown(text string) string {
	return markdownSpecials.Replace(strings.Join(strings.Fields(text), " "))
}
