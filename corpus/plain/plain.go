// Package plain holds, for the articles and decisions of the shipped corpus, the
// everyday words a client uses for the situations each text answers ("m-a mușcat
// câinele vecinului" for the article on damage caused by animals): the document
// expansion of issue 38, so that a question in a client's words meets the text
// although the two share no word.
//
// The words are data: TSV files, embedded, each line "doc_id<TAB>lang<TAB>phrases",
// the phrases separated by " ; ". A text (an article, or a decision) has phrases in
// its own language and, when it is Romanian or Italian, in English, for the
// English-speaking client living under that law. Independent writers wrote them
// apart, so that together they cover more of the ways clients speak: a first writer's
// phrasings for every part of the corpus, a second's for every part and every
// decision with a text (files ending in "-b"), a third's keywords for most parts
// ("-c"), a fourth's client messages (a trouble told in the first person) for every
// part and a client's and a lawyer's questions for every decision with a text ("-d"),
// and a fifth's troubles told by someone who does not know the remedy exists, for
// every part ("-e"); a text's lines in one language are joined. They were written
// from the texts alone, by writers who read neither the evaluation's questions, nor
// the glossary, nor the search code, nor each other's files.
package plain

import (
	"crypto/sha256"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

//go:embed *.tsv
var files embed.FS

// Words are the phrases of each text, by doc_id and language ("ro", "it", "en").
type Words map[string]map[string]string

// Langs are the languages a line may be in.
var Langs = []string{"ro", "it", "en"}

// MaxWords bounds the words of one line: a line is a few phrasings, not a text.
const MaxWords = 60

// Default returns the embedded words, parsed once.
var Default = sync.OnceValues(func() (Words, error) { return Parse(files) })

// Digest is the checksum of the embedded files, so that an index built from other
// words is known as such.
func Digest() []byte {
	h := sha256.New()
	names, _ := fs.Glob(files, "*.tsv") // the pattern is valid: Glob fails on no other
	for _, name := range names {
		data, _ := fs.ReadFile(files, name) // embedded: the read cannot fail
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	return h.Sum(nil)
}

// Parse reads every .tsv file of fsys, refusing a line that is not three fields, a
// language other than Langs and a line longer than MaxWords words; the lines of one
// text in one language are joined.
func Parse(fsys fs.FS) (Words, error) {
	names, err := fs.Glob(fsys, "*.tsv")
	if err != nil {
		return nil, err
	}
	w := Words{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if err := w.add(line); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
			}
		}
	}
	return w, nil
}

// add reads one line into w.
func (w Words) add(line string) error {
	f := strings.Split(strings.TrimRight(line, "\r"), "\t")
	if len(f) != 3 {
		return fmt.Errorf("want doc_id, lang and phrases, got %d fields", len(f))
	}
	id, lang, phrases := strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
	switch {
	case id == "" || strings.ContainsAny(id, " \"'"):
		return fmt.Errorf("bad doc_id %q", id)
	case !slices.Contains(Langs, lang):
		return fmt.Errorf("%s: language %q is none of %v", id, lang, Langs)
	case phrases == "":
		return fmt.Errorf("%s %s: no phrases", id, lang)
	case len(strings.Fields(phrases)) > MaxWords:
		return fmt.Errorf("%s %s: %d words, more than %d", id, lang, len(strings.Fields(phrases)), MaxWords)
	}
	if w[id] == nil {
		w[id] = map[string]string{}
	}
	if earlier := w[id][lang]; earlier != "" {
		phrases = earlier + " ; " + phrases
	}
	w[id][lang] = phrases
	return nil
}
