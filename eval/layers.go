package eval

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/lexflow/lexflow/corpus"
)

// Ranked is where one question's first expected document came in a ranking: 1 for
// the first, 0 when none is in the first maxRank.
type Ranked struct {
	ID, Language, Set string
	Rank              int
}

// LayerResult is one layer's ranks over the legislation and the decision questions.
type LayerResult struct {
	Layer       string
	Legislation []Ranked
	Decisions   []Ranked
}

// RunLayers asks every layer every legislation and decision question.
func RunLayers(ctx context.Context, s *corpus.Store, laws []LegislationItem, decisions []RetrievalItem) ([]LayerResult, error) {
	var out []LayerResult
	for _, l := range Layers {
		res := LayerResult{Layer: l.Name}
		for _, it := range laws {
			ids, err := l.Legislation(ctx, s, it)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", l.Name, it.ID, err)
			}
			res.Legislation = append(res.Legislation, Ranked{ID: it.ID, Language: it.Language, Set: it.Set, Rank: rankOf(ids, it.Expect)})
		}
		for _, it := range decisions {
			ids, err := l.Decisions(ctx, s, it)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", l.Name, it.ID, err)
			}
			res.Decisions = append(res.Decisions, Ranked{ID: it.ID, Language: it.Language, Rank: rankOf(ids, it.Expect)})
		}
		out = append(out, res)
	}
	return out, nil
}

// RankRow measures one layer over one group of questions.
type RankRow struct {
	Kind, Layer, Group string
	Questions          int
	At1, At5           ratio
	// MRR is the mean of 1/rank of the first expected document (0 past maxRank).
	MRR float64
}

// RankRows sums a layer's results up per set (legislation only) and language.
func RankRows(r LayerResult) []RankRow {
	var out []RankRow
	groups := func(kind string, ranks []Ranked, bySet bool) {
		var sets []string
		for _, x := range ranks {
			if bySet && !slices.Contains(sets, x.Set) {
				sets = append(sets, x.Set)
			}
		}
		if !bySet {
			sets = []string{""}
		}
		for _, set := range sets {
			for _, lang := range []string{"ro", "it", "en"} {
				row := RankRow{Kind: kind, Layer: r.Layer, Group: lang}
				if set != "" {
					row.Group = set + " " + lang
				}
				for _, x := range ranks {
					if x.Language != lang || (set != "" && x.Set != set) {
						continue
					}
					row.Questions++
					row.At1.add(x.Rank == 1)
					row.At5.add(x.Rank >= 1 && x.Rank <= 5)
					if x.Rank > 0 {
						row.MRR += 1 / float64(x.Rank)
					}
				}
				if row.Questions > 0 {
					row.MRR /= float64(row.Questions)
					out = append(out, row)
				}
			}
		}
	}
	groups("legislation", r.Legislation, true)
	groups("decisions", r.Decisions, false)
	return out
}

// WriteLayers prints the layers' rows in Markdown, as docs/tools.md shows them.
func WriteLayers(w io.Writer, rows []RankRow) {
	fmt.Fprintln(w, "| search | layers | questions | recall@1 | recall@5 | MRR |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s, %s | %s | %d | %s | %s | %.3f |\n", r.Kind, r.Group, r.Layer, r.Questions, r.At1, r.At5, r.MRR)
	}
}

// LayerTargets are the targets that the offline layers must hold (issue 38):
// decisions recall@5 of 85% in Romanian and Italian and 60% in English, each question
// asked within its jurisdiction's courts as kb_search is; and the floors the default
// layer measured (floors), so that a regression fails. The legislation
// targets (recall@5 90% per language, MRR 0.75) are not reached offline: they are
// reported, not asserted.
func LayerTargets(rows []RankRow) []string {
	var out []string
	measured := map[string]bool{}
	for _, r := range rows {
		if r.Layer != Layers[len(Layers)-1].Name {
			continue
		}
		if want, ok := decisionTargets[r.Group]; ok && r.Kind == "decisions" && r.At5.hits*100 < r.At5.total*want {
			out = append(out, fmt.Sprintf("decisions in %s: recall@5 %s, under %d%%", r.Group, r.At5, want))
		}
		measured[r.Kind+", "+r.Group] = true
		if f, ok := floors[r.Kind+", "+r.Group]; ok && (r.At5.hits < f.at5 || r.MRR < f.mrr) {
			out = append(out, fmt.Sprintf("%s, %s: recall@5 %s, MRR %.3f, under the %d hits and MRR %.2f measured",
				r.Kind, r.Group, r.At5, r.MRR, f.at5, f.mrr))
		}
	}
	for _, group := range slices.Sorted(maps.Keys(floors)) {
		if !measured[group] {
			out = append(out, fmt.Sprintf("%s: a floor for a group no question measures", group))
		}
	}
	return out
}

// decisionTargets are the decision recall@5 targets, in percent, by the
// question's language.
var decisionTargets = map[string]int{"ro": 85, "it": 85, "en": 60}

// floors are, per search, set and language, the recall@5 (hits) and MRR (rounded
// down) that the default layer measured on 2026-11-27 with every article's and
// decision's plain words indexed (package corpus/plain: five writers' everyday words,
// keywords, client messages and troubles in the text's language and in English), the
// model the corpus learned from them (package corpus/learned), the glossary of the
// second freeze and the Romanian codes' headings, each decision question asked within
// its jurisdiction's courts. The plain words' weights and passes were chosen on the
// dev, main and first held-out sets, and the learned model's settings on those and
// legislation_heldout2 to 4 (written after the glossary's second freeze, each
// measured apart until then). legislation_heldout5 (two writers, 60 questions each,
// after every choice above but the learned model's, and before it was measured on
// them) was never tuned on: its writers saw neither the search, the glossary nor the
// plain words, and the plain words' writers saw no question. It is the honest figure.
var floors = map[string]struct {
	at5 int
	mrr float64
}{
	"legislation, legislation-dev ro":      {9, 0.78},
	"legislation, legislation-dev it":      {10, 1.00},
	"legislation, legislation-dev en":      {10, 0.88},
	"legislation, legislation ro":          {51, 0.75},
	"legislation, legislation it":          {52, 0.84},
	"legislation, legislation en":          {51, 0.80},
	"legislation, legislation_heldout ro":  {17, 0.66},
	"legislation, legislation_heldout it":  {20, 0.95},
	"legislation, legislation_heldout en":  {18, 0.76},
	"legislation, legislation_heldout2 ro": {15, 0.63},
	"legislation, legislation_heldout2 it": {17, 0.68},
	"legislation, legislation_heldout2 en": {17, 0.76},
	"legislation, legislation_heldout3 ro": {18, 0.68},
	"legislation, legislation_heldout3 it": {18, 0.75},
	"legislation, legislation_heldout3 en": {15, 0.60},
	"legislation, legislation_heldout4 ro": {14, 0.56},
	"legislation, legislation_heldout4 it": {19, 0.74},
	"legislation, legislation_heldout4 en": {16, 0.70},
	"legislation, legislation_heldout5 ro": {36, 0.73},
	"legislation, legislation_heldout5 it": {36, 0.79},
	"legislation, legislation_heldout5 en": {34, 0.64},
	"decisions, ro":                        {37, 0.68},
	"decisions, it":                        {48, 0.94},
	"decisions, en":                        {17, 0.57},
}
