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
// decisions recall@5 of 85% in Romanian and Italian; and the floors the default layer
// measured (floors), so that a regression fails. The legislation targets
// (recall@5 90% per language, MRR 0.75) and English decisions (60%) are not reached
// offline: they are reported, not asserted.
func LayerTargets(rows []RankRow) []string {
	var out []string
	measured := map[string]bool{}
	for _, r := range rows {
		if r.Layer != Layers[len(Layers)-1].Name {
			continue
		}
		if r.Kind == "decisions" && (r.Group == "ro" || r.Group == "it") && r.At5.hits*100 < r.At5.total*85 {
			out = append(out, fmt.Sprintf("decisions in %s: recall@5 %s, under 85%%", r.Group, r.At5))
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

// floors are, per search, set and language, the recall@5 (hits) and MRR (rounded
// down) that the default layer measured on 2026-11-27: for legislation with the
// glossary of the second freeze (902 concepts) and its client words and the Romanian
// codes' headings indexed beside each article, for decisions with the glossary's
// expansion; far under the targets for legislation and English decisions.
// The larger glossary took the tuned sets' recall@5 up (main 57 → 62 of 164) and some
// MRRs down (dev it and en, held-out it): the floors record what it measures. The
// held-out sets are measured, never tuned on; legislation_heldout2 was written after
// the second freeze by a writer who saw neither the search nor the glossary.
var floors = map[string]struct {
	at5 int
	mrr float64
}{
	"legislation, legislation-dev ro":      {4, 0.36},
	"legislation, legislation-dev it":      {8, 0.54},
	"legislation, legislation-dev en":      {9, 0.70},
	"legislation, legislation ro":          {18, 0.17},
	"legislation, legislation it":          {19, 0.25},
	"legislation, legislation en":          {25, 0.29},
	"legislation, legislation_heldout ro":  {11, 0.34},
	"legislation, legislation_heldout it":  {10, 0.32},
	"legislation, legislation_heldout en":  {6, 0.21},
	"legislation, legislation_heldout2 ro": {7, 0.27},
	"legislation, legislation_heldout2 it": {4, 0.15},
	"legislation, legislation_heldout2 en": {4, 0.22},
	"decisions, ro":                        {36, 0.67},
	"decisions, it":                        {48, 0.94},
	"decisions, en":                        {7, 0.16},
}
