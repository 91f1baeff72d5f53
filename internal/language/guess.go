// Package language tells which of Lexflow's languages a text is in.
package language

import (
	"strings"
	"unicode"
)

// languageWords are frequent words that mark a language: a text's language is
// the one whose words (and, for Romanian, letters) it uses most.
var languageWords = map[string][]string{
	"ro": {"și", "şi", "nu", "în", "îmi", "mi", "pentru", "este", "sunt", "care", "meu", "mea", "mei", "cu", "pe", "la", "din", "am", "vreau", "să", "că", "dar"},
	"it": {"il", "lo", "la", "che", "per", "non", "della", "del", "dei", "mio", "mia", "miei", "sono", "ho", "è", "con", "di", "da", "voglio", "ma", "nel", "alla"},
	"en": {"the", "my", "and", "is", "to", "of", "i", "me", "for", "with", "was", "want", "but", "not", "has", "have", "it"},
}

// Guess is the language of a text among Romanian, Italian and English: the one whose
// frequent words it uses most, and English when it cannot tell.
// Romanian's ă, ș and ț count as words of Romanian; a tie goes to Romanian, then
// Italian, the languages the product serves first.
func Guess(text string) string { return GuessOr(text, "en") }

// GuessOr is Guess, but fallback when the text has no word or letter that marks any
// of the three languages.
func GuessOr(text, fallback string) string {
	lower := strings.ToLower(text)
	score := map[string]int{"ro": strings.Count(lower, "ă") + strings.Count(lower, "ș") + strings.Count(lower, "ş") +
		strings.Count(lower, "ț") + strings.Count(lower, "ţ")}
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) }) {
		for lang, words := range languageWords {
			for _, lw := range words {
				if w == lw {
					score[lang]++
				}
			}
		}
	}
	if score["ro"] == 0 && score["it"] == 0 && score["en"] == 0 {
		return fallback
	}
	best := "en"
	for _, lang := range []string{"it", "ro"} {
		if score[lang] > 0 && score[lang] >= score[best] {
			best = lang
		}
	}
	return best
}
