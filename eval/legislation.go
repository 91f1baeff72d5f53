package eval

import (
	"context"
	"embed"
	"io/fs"
	"slices"

	"github.com/lexflow/lexflow/corpus"
)

// LegislationItem is one client-style question with the articles that answer it,
// within the jurisdiction it is asked of.
type LegislationItem struct {
	ID           string   `json:"id"`
	Language     string   `json:"language"`
	Question     string   `json:"question"`
	Jurisdiction string   `json:"jurisdiction"`
	Expect       []string `json:"expect"`
	Why          string   `json:"why"`
	// Set is the file the item came from, without its extension
	// ("legislation-dev"): sets are reported apart.
	Set string `json:"-"`
}

//go:embed legislation*.jsonl
var legislationFiles embed.FS

// LegislationItems reads the shipped legislation sets (eval/legislation*.jsonl).
func LegislationItems() ([]LegislationItem, error) {
	names, err := fs.Glob(legislationFiles, "legislation*.jsonl")
	if err != nil {
		return nil, err
	}
	var out []LegislationItem
	for _, name := range names {
		data, err := legislationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		items, err := readLines[LegislationItem](name, data)
		if err != nil {
			return nil, err
		}
		for i := range items {
			items[i].Set = name[:len(name)-len(".jsonl")]
		}
		out = append(out, items...)
	}
	return out, nil
}

// Layer is one configuration of the search measured: its name and how it ranks a
// question's articles and decisions (doc_ids, best first).
type Layer struct {
	Name        string
	Legislation func(ctx context.Context, s *corpus.Store, it LegislationItem) ([]string, error)
	Decisions   func(ctx context.Context, s *corpus.Store, it RetrievalItem) ([]string, error)
}

// Layers are the search's offline configurations, from none of the language analysis
// ("words": the unanalysed indexes) to all of it ("analysis": stems, stop words, folded
// diacritics, field weights, word pairs), then the glossary's expansion on top, then
// the corpus's learned model; the last is what the tools run by default. The model's
// rewrite and dense retrieval need endpoints and are not measured offline.
var Layers = []Layer{
	{
		Name: "words",
		Legislation: func(ctx context.Context, s *corpus.Store, it LegislationItem) ([]string, error) {
			return articleIDs(s.SearchLegislationUnanalysed(ctx, it.Question, it.Jurisdiction, "", maxRank))
		},
		Decisions: func(ctx context.Context, s *corpus.Store, it RetrievalItem) ([]string, error) {
			return decisionIDs(s.SearchDecisionsUnanalysed(ctx, it.Question, it.scope(), maxRank))
		},
	},
	{
		Name: "analysis",
		Legislation: func(ctx context.Context, s *corpus.Store, it LegislationItem) ([]string, error) {
			return articleIDs(s.SearchLegislation(ctx, it.Question, it.Jurisdiction, "", maxRank))
		},
		Decisions: func(ctx context.Context, s *corpus.Store, it RetrievalItem) ([]string, error) {
			return decisionIDs(s.SearchDecisions(ctx, it.Question, it.scope(), maxRank))
		},
	},
	{
		// The analysis with the legal glossary's expansion (corpus.Layers.Glossary,
		// corpus.DecisionLayers.Glossary).
		Name: "glossary",
		Legislation: func(ctx context.Context, s *corpus.Store, it LegislationItem) ([]string, error) {
			return articleIDs(s.SearchLegislationWith(ctx, it.Question, it.Jurisdiction, "", maxRank, corpus.Layers{Glossary: true}))
		},
		Decisions: func(ctx context.Context, s *corpus.Store, it RetrievalItem) ([]string, error) {
			return decisionIDs(s.SearchDecisionsWith(ctx, it.Question, it.scope(), maxRank, corpus.DecisionLayers{Glossary: true}))
		},
	},
	{
		// The glossary's layer with the corpus's learned model (corpus.Layers.Learned),
		// what the tools run by default. kb_search has no learned model: its decisions
		// rank as in the glossary's layer.
		Name: "learned",
		Legislation: func(ctx context.Context, s *corpus.Store, it LegislationItem) ([]string, error) {
			return articleIDs(s.SearchLegislationWith(ctx, it.Question, it.Jurisdiction, "", maxRank, corpus.Layers{Glossary: true, Learned: true}))
		},
		Decisions: func(ctx context.Context, s *corpus.Store, it RetrievalItem) ([]string, error) {
			return decisionIDs(s.SearchDecisionsWith(ctx, it.Question, it.scope(), maxRank, corpus.DecisionLayers{Glossary: true}))
		},
	},
}

func articleIDs(hits []corpus.ArticleHit, err error) ([]string, error) {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.DocID
	}
	return out, err
}

func decisionIDs(hits []corpus.Hit, err error) ([]string, error) {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.DocID
	}
	return out, err
}

// rankOf is the rank (1 for the first) of the first of ids that expect holds, 0 when
// none is there.
func rankOf(ids, expect []string) int {
	for i, id := range ids {
		if slices.Contains(expect, id) {
			return i + 1
		}
	}
	return 0
}
