package eval

import (
	"fmt"
	"io"

	"github.com/lexflow/lexflow/corpus"
)

// ratio is a count of hits out of a total; an empty total prints as "–".
type ratio struct{ hits, total int }

func (r *ratio) add(hit bool) {
	r.total++
	if hit {
		r.hits++
	}
}

func (r ratio) String() string {
	if r.total == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(r.hits)/float64(r.total), r.hits, r.total)
}

// CitationRow measures the check over one group of items.
type CitationRow struct {
	Group string
	Items int
	// Extraction: the check found a citation where the item's is.
	Extraction ratio
	// Status: it gave the expected status (and document).
	Status ratio
	// VerifiedPrecision: of those it called verified, the ones that are;
	// VerifiedRecall: of those that are, the ones it called verified.
	VerifiedPrecision ratio
	VerifiedRecall    ratio
	// Misquotes: of the misquotations, the ones it caught.
	Misquotes ratio
	// Unknown: of the citations of sources outside the corpus, the ones it called
	// unknown_source.
	Unknown ratio
}

// CitationRows sums the results up per language, per kind and in all.
func CitationRows(results []CitationResult) []CitationRow {
	rows := map[string]*CitationRow{}
	var order []string
	row := func(group string) *CitationRow {
		if rows[group] == nil {
			rows[group] = &CitationRow{Group: group}
			order = append(order, group)
		}
		return rows[group]
	}
	for _, lang := range []string{"ro", "it", "en"} {
		row("language " + lang)
	}
	for _, kind := range []string{corpus.KindArticle, corpus.KindAct, corpus.KindDecision} {
		row("kind " + kind)
	}
	row("all")
	for _, r := range results {
		for _, g := range []string{"language " + r.Item.Language, "kind " + r.Item.Kind, "all"} {
			row := row(g)
			row.Items++
			row.Extraction.add(r.Found)
			row.Status.add(r.Right())
			if r.Status() == corpus.StatusVerified {
				row.VerifiedPrecision.add(r.Right())
			}
			switch r.Item.Status {
			case corpus.StatusVerified:
				row.VerifiedRecall.add(r.Right())
			case corpus.StatusMisquoted:
				row.Misquotes.add(r.Status() == corpus.StatusMisquoted)
			case corpus.StatusUnknownSource:
				row.Unknown.add(r.Status() == corpus.StatusUnknownSource)
			}
		}
	}
	out := make([]CitationRow, 0, len(order))
	for _, g := range order {
		out = append(out, *rows[g])
	}
	return out
}

// Targets are the regressions `make test` fails on: a fabricated citation reported
// verified, a real citation of a corpus act reported not_found, extraction recall
// under 95%. It returns one line per failure.
func Targets(results []CitationResult) []string {
	var out []string
	var extraction ratio
	for _, r := range results {
		extraction.add(r.Found)
		switch {
		case r.Item.Class == "fabricated" && r.Status() == corpus.StatusVerified:
			out = append(out, fmt.Sprintf("%s: the fabricated %q is reported verified (%s)", r.Item.ID, r.Item.Citation, r.Got.DocID))
		case r.Item.Class == "real" && r.Status() == corpus.StatusNotFound:
			out = append(out, fmt.Sprintf("%s: the real %q is reported not_found", r.Item.ID, r.Item.Citation))
		}
	}
	if extraction.hits*100 < extraction.total*95 {
		out = append(out, fmt.Sprintf("extraction recall is %s, under 95%%", extraction))
	}
	return out
}

// RetrievalRow measures kb_search over one group of questions.
type RetrievalRow struct {
	Group     string
	Questions int
	At1, At5  ratio
	// MRR is the mean of 1/rank of the first expected decision (0 past rank 20).
	MRR float64
}

// RetrievalRows sums the results up per language and in all.
func RetrievalRows(results []RetrievalResult) []RetrievalRow {
	var out []RetrievalRow
	for _, g := range []string{"language ro", "language it", "language en", "all"} {
		row := RetrievalRow{Group: g}
		for _, r := range results {
			if g != "all" && g != "language "+r.Item.Language {
				continue
			}
			row.Questions++
			row.At1.add(r.Rank == 1)
			row.At5.add(r.Rank >= 1 && r.Rank <= 5)
			if r.Rank > 0 {
				row.MRR += 1 / float64(r.Rank)
			}
		}
		if row.Questions > 0 {
			row.MRR /= float64(row.Questions)
		}
		out = append(out, row)
	}
	return out
}

// Write prints both tables in Markdown, as docs/tools.md shows them.
func Write(w io.Writer, cits []CitationRow, ret []RetrievalRow) {
	fmt.Fprintln(w, "| citations | items | extraction recall | right status | verified precision | verified recall | misquotes caught | unknown_source right |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range cits {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s |\n", r.Group, r.Items, r.Extraction, r.Status,
			r.VerifiedPrecision, r.VerifiedRecall, r.Misquotes, r.Unknown)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| retrieval (kb_search) | questions | recall@1 | recall@5 | MRR |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range ret {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.3f |\n", r.Group, r.Questions, r.At1, r.At5, r.MRR)
	}
}
