package corpus

import (
	"strings"

	"github.com/lexflow/lexflow/corpus/glossary"
)

// clientWords finds, for an article, the everyday words clients use for what it
// governs (issue 38's document expansion): the words, in the article's language, of
// the glossary's concepts the article is a source of or whose terms its title names (an
// article's text names in passing many concepts it does not govern). The analysed index keeps them in a column of their own, so that "m-a mușcat
// câinele" meets the article on the damage caused by animals although the two share
// no word.
type clientWords struct {
	g        *glossary.Glossary
	bySource map[string][]*glossary.Concept
}

func newClientWords() (*clientWords, error) {
	g, err := glossary.Default()
	if err != nil {
		return nil, err
	}
	c := &clientWords{g: g, bySource: map[string][]*glossary.Concept{}}
	cs := g.Concepts()
	for i := range cs {
		for _, src := range cs[i].Sources {
			c.bySource[src] = append(c.bySource[src], &cs[i])
		}
	}
	return c, nil
}

// of returns the client words of the concepts article a is about, one text.
func (c *clientWords) of(a Article) string {
	lang := glossary.Lang(a.Language)
	seen := map[string]bool{}
	var out []string
	add := func(k *glossary.Concept) {
		if seen[k.ID] {
			return
		}
		seen[k.ID] = true
		out = append(out, k.Words[lang]...)
	}
	for _, k := range c.bySource[a.DocID] {
		add(k)
	}
	for _, m := range c.g.Find(a.Title) {
		if m.Lang == lang {
			add(m.Concept)
		}
	}
	return strings.Join(out, " ; ")
}
