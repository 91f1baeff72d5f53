package corpus

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// cedillas maps the cedilla forms that older Romanian texts use for ș and ț to the
// comma-below letters of the standard orthography.
var cedillas = strings.NewReplacer("ş", "ș", "Ş", "Ș", "ţ", "ț", "Ţ", "Ț")

var (
	htmlTag = regexp.MustCompile(`<[^>]*>`)
	spaces  = regexp.MustCompile(`[ \t\x{00a0}]+`)
	blank   = regexp.MustCompile(`\n{3,}`)
	// anySpace is a run of white space, line breaks included.
	anySpace = regexp.MustCompile(`\s+`)
)

// cleanText removes HTML tags and entities, unifies Romanian ș and ț, and tidies spaces,
// keeping paragraph breaks.
func cleanText(s string) string {
	s = html.UnescapeString(htmlTag.ReplaceAllString(s, ""))
	s = cedillas.Replace(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(spaces.ReplaceAllString(l, " "))
	}
	return strings.TrimSpace(blank.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// cleanLine is cleanText on one line.
func cleanLine(s string) string {
	return strings.Join(strings.Fields(cleanText(s)), " ")
}

func sortStrings(s []string) { slices.Sort(s) }

// Fold lower-cases s and strips its diacritics (ă→a, ș/ş→s, ț/ţ→t, à→a, ...), for
// comparing words and names.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
