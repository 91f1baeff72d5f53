package corpus

import "strings"

// QueryLanguage guesses the language of a question among Languages by its stop words
// ("il", "della", "che"; "și", "care", "pentru"; "the", "of", "my"): the language with
// the most, or "" when none has more than the others.
func QueryLanguage(text string) string {
	counts := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWordRune) {
		f := Fold(w)
		for _, lang := range Languages {
			if stopWords[lang][f] {
				counts[lang]++
			}
		}
	}
	best, tied := "", false
	for _, lang := range Languages {
		switch {
		case best == "" && counts[lang] > 0, best != "" && counts[lang] > counts[best]:
			best, tied = lang, false
		case best != "" && counts[lang] == counts[best]:
			tied = true
		}
	}
	if tied {
		return ""
	}
	return best
}
