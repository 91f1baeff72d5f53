package corpus

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// quotation is a quoted passage of a text: its bytes, and the words inside the marks.
type quotation struct {
	start, end int
	inner      string
}

var (
	// quoted finds passages between « », „ ”, “ ” or straight double quotes, of at most
	// 1,000 characters each.
	quoted = regexp.MustCompile(`«([^«»]{1,1000})»|„([^„”“"]{1,1000})[”“"]|“([^“”]{1,1000})”|"([^"\n]{1,1000})"`)
	// ellipsis is where a quotation leaves words out: "...", "…", "[...]", "(…)".
	ellipsis = regexp.MustCompile(`[\[(]\s*(?:\.\.\.|…)\s*[\])]|\.\.\.|…`)
	// sentenceEnd ends a sentence: a full stop before a capital letter or a new line.
	sentenceEnd = regexp.MustCompile(`[.!?]\s+\p{Lu}|\n`)
)

// maxQuoteGap is how far after a citation, in bytes, its quotation may start.
const maxQuoteGap = 80

// quotations are a text's quotations and the citation each is attached to: one that
// starts soon after a citation in the same sentence, before the next citation
// (`art. 2043 c.c.: «…»`), or one that ends just before a citation in brackets
// (`«…» (art. 2043 c.c.)`). A quotation belongs to one citation at most.
type quotations struct {
	attached map[int]string // reference index → the quotation's words
	// words caches the folded words of the texts checked, by their documents.
	words map[string][]word
}

func newQuotations(text string, refs []reference) *quotations {
	var quotes []quotation
	for _, m := range quoted.FindAllStringSubmatchIndex(text, -1) {
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] >= 0 {
				quotes = append(quotes, quotation{start: m[0], end: m[1], inner: text[m[2*g]:m[2*g+1]]})
			}
		}
	}
	q := &quotations{attached: map[int]string{}, words: map[string][]word{}}
	used := map[int]bool{}
	for i, r := range refs {
		next := len(text)
		if i+1 < len(refs) {
			next = refs[i+1].start
		}
		// The first quotation after the citation.
		j := sort.Search(len(quotes), func(j int) bool { return quotes[j].start >= r.end })
		if j < len(quotes) && quotes[j].start-r.end <= maxQuoteGap && quotes[j].start < next && sameSentence(text, r, quotes[j].start) {
			q.attached[i], used[j] = quotes[j].inner, true
			continue
		}
		// The last quotation before it, if the citation is in brackets right after it.
		j = sort.Search(len(quotes), func(j int) bool { return quotes[j].end > r.start }) - 1
		if j >= 0 && !used[j] && (i == 0 || quotes[j].start >= refs[i-1].end) &&
			strings.Trim(text[quotes[j].end:r.start], " ,–—-") == "(" {
			q.attached[i], used[j] = quotes[j].inner, true
		}
	}
	return q
}

// sameSentence reports whether nothing ends a sentence between a citation and a
// quotation starting at start: a full stop then a capital, or a new line. A citation
// ending in an abbreviation's full stop ("c.c.") counts it too.
func sameSentence(text string, r reference, start int) bool {
	gap := text[r.end:start]
	if strings.HasSuffix(text[r.start:r.end], ".") && sentenceStart.MatchString(gap) {
		return false
	}
	return !sentenceEnd.MatchString(gap)
}

// sentenceStart is a gap that begins a new sentence.
var sentenceStart = regexp.MustCompile(`^\s+\p{Lu}`)

// of returns the quotation attached to reference i.
func (q *quotations) of(i int) (string, bool) {
	quote, ok := q.attached[i]
	return quote, ok
}

// check marks as misquoted the citations the corpus holds whose texts lack the
// quotation, with the closest passage; a repealed article stays repealed, which
// says more. The articles of a list share the quotation, so it is looked for in all
// their texts.
func (q *quotations) check(cits []Citation, texts []string, quote string) {
	var body strings.Builder
	var key []string
	for i, c := range cits {
		if c.Held() && i < len(texts) {
			body.WriteString(texts[i] + "\n")
			key = append(key, c.DocID)
		}
	}
	if body.Len() == 0 {
		return
	}
	k := strings.Join(key, "\n")
	words, ok := q.words[k]
	if !ok {
		words = wordsOf(body.String())
		q.words[k] = words
	}
	found, passage := quoteIn(quote, body.String(), words)
	for i := range cits {
		if !cits[i].Held() {
			continue
		}
		cits[i].Quote = quote
		if !found && cits[i].Status != StatusRepealed {
			cits[i].Status, cits[i].Passage = StatusMisquoted, passage
		}
	}
}

// word is one word of a text, folded, with its bytes in the text.
type word struct {
	folded     string
	start, end int
}

// wordsOf splits text into folded words: letters and digits, without case or
// diacritics, so that spacing and punctuation do not count.
func wordsOf(text string) []word {
	var out []word
	start := -1
	for i, r := range text {
		// A combining mark belongs to its letter: "ț" may come as t and U+0326.
		if isWordRune(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, word{Fold(text[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, word{Fold(text[start:]), start, len(text)})
	}
	return out
}

// quoteIn reports whether quote is in body, whose words are words, ignoring case,
// diacritics, spacing and punctuation, each piece between ellipses in order; when it
// is not, passage is the passage of body closest to it.
func quoteIn(quote, body string, words []word) (ok bool, passage string) {
	pos := 0
	ok = true
	for _, piece := range ellipsis.Split(quote, -1) {
		want := wordsOf(piece)
		if len(want) == 0 {
			continue
		}
		at := indexWords(words[pos:], want)
		if at < 0 {
			ok = false
			break
		}
		pos += at + len(want)
	}
	if ok {
		return true, ""
	}
	return false, closestPassage(body, words, wordsOf(ellipsis.ReplaceAllString(quote, " ")))
}

// indexWords returns where the sequence want starts in words, or -1.
func indexWords(words, want []word) int {
outer:
	for i := 0; i+len(want) <= len(words); i++ {
		for j, w := range want {
			if words[i+j].folded != w.folded {
				continue outer
			}
		}
		return i
	}
	return -1
}

// maxPassageWords bounds the passage a misquote is shown beside.
const maxPassageWords = 120

// closestPassage returns the passage of body that shares the most words with the
// quotation: the window as long as the quotation with the most, and a few words more.
func closestPassage(body string, words, quote []word) string {
	n := min(len(quote), maxPassageWords, len(words))
	if n == 0 {
		return ""
	}
	want := map[string]int{}
	for _, w := range quote[:n] {
		want[w.folded]++
	}
	have := map[string]int{}
	score, best, bestAt := 0, -1, 0
	for i, w := range words {
		if have[w.folded] < want[w.folded] {
			score++
		}
		have[w.folded]++
		if i >= n {
			old := words[i-n].folded
			have[old]--
			if have[old] < want[old] {
				score--
			}
		}
		if i >= n-1 && score > best {
			best, bestAt = score, i-n+1
		}
	}
	// Show what follows the best window too, as far again as half the quotation.
	end := min(bestAt+n-1+n/2+3, len(words)-1, bestAt+maxPassageWords-1)
	p := body[words[bestAt].start:words[end].end]
	if !utf8.ValidString(p) {
		return strings.ToValidUTF8(p, "")
	}
	return p
}
