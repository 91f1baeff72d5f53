package corpus

import (
	"strings"
	"unicode"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/romanian"
)

// Languages are the languages the corpus holds texts in, each with its own analysed
// index.
var Languages = []string{"ro", "it", "en"}

// stemmers are Snowball's stemmers of the corpus's languages.
var stemmers = map[string]func(*snowballstem.Env) bool{
	"ro": romanian.Stem,
	"it": italian.Stem,
	"en": english.Stem,
}

// analyzer turns a text of one language into the terms its index holds: words of
// letters and digits, lower-cased, stop words and words of fewer than minTermLetters
// letters dropped, stemmed, then folded to plain
// letters (ă→a, ş→s, à→a), so that "locațiunea", "locaţiunii" and "locatiune" meet.
// Romanian words are folded before they are stemmed: Snowball's Romanian stemmer knows
// only the cedilla ş and ţ (the corpus writes the comma-below ș and ț), and clients
// often write without diacritics, so both sides are stemmed the same way, plain.
// It remembers the stems it has computed: a corpus repeats its words.
type analyzer struct {
	lang  string
	stem  func(*snowballstem.Env) bool
	stop  map[string]bool
	cache map[string]string
}

func newAnalyzer(lang string) *analyzer {
	return &analyzer{lang: lang, stem: stemmers[lang], stop: stopWords[lang], cache: map[string]string{}}
}

// analyzers keeps an analyzer per language, so that a corpus's load computes each
// word's stem once across its indexes and its learned model.
type analyzers map[string]*analyzer

// of returns lang's analyzer.
func (as analyzers) of(lang string) *analyzer {
	a, ok := as[lang]
	if !ok {
		a = newAnalyzer(lang)
		as[lang] = a
	}
	return a
}

// Analyze returns the terms of text in lang ("ro", "it" or "en") as the corpus's
// analysed indexes hold them, in the text's order, repeats kept. An unknown language
// folds words without stemming them.
func Analyze(lang, text string) []string {
	return newAnalyzer(lang).terms(text, nil)
}

// terms appends the terms of text to out.
func (a *analyzer) terms(text string, out []string) []string {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWordRune) {
		if t := a.term(w); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// term analyses one lower-cased word; "" drops it.
func (a *analyzer) term(w string) string {
	if t, ok := a.cache[w]; ok {
		return t
	}
	t := a.analyse(w)
	if len(a.cache) < maxCachedTerms {
		a.cache[w] = t
	}
	return t
}

// minTermLetters is the shortest word analysed, as the unanalysed search reads them:
// shorter ones ("zz", "al") are noise or stop words; numbers are kept whatever their
// length.
const minTermLetters = 3

// maxCachedTerms bounds an analyzer's memory of stems.
const maxCachedTerms = 1 << 20

func (a *analyzer) analyse(w string) string {
	folded := Fold(w)
	if a.stop[folded] || (len(folded) < minTermLetters && !isDigits(folded)) {
		return ""
	}
	if a.stem == nil || isDigits(folded) {
		return folded
	}
	if a.lang == "ro" {
		w = folded
	}
	env := snowballstem.NewEnv(w)
	a.stem(env)
	return Fold(env.Current())
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
