package activities

import (
	"context"
	"time"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/corpus/dense"
	"github.com/lexflow/lexflow/corpus/glossary"
	"github.com/lexflow/lexflow/llm"
)

// SearchLayers are the layers legislation search adds to its lexical ranking
// (corpus.Layers), as the deployment configures them: the glossary, the corpus's
// learned model, the model's rewrite and dense retrieval, each on only when
// configured. kb_search's corpus
// ranking takes the glossary from them too (corpus.DecisionLayers).
type SearchLayers struct {
	// Glossary expands legislation_search's and kb_search's questions with the
	// glossary's legal terms (LEXFLOW_SEARCH_GLOSSARY).
	Glossary bool
	// Learned ranks legislation_search's articles by the corpus's learned model too
	// (LEXFLOW_SEARCH_LEARNED).
	Learned bool
	// Rewriter rewrites questions with the assistant model; nil: no rewrite (the
	// offline model, or LEXFLOW_SEARCH_REWRITE off).
	Rewriter *Rewriter
	// Dense and Embedder rank articles by their embeddings (LEXFLOW_EMBEDDINGS_URL and
	// a built sidecar); nil: no dense retrieval.
	Dense    *dense.Index
	Embedder *llm.Embedder
}

// embedTimeout bounds the question's embedding, within legislation_search's 10 s.
const embedTimeout = 3 * time.Second

// For returns the layers for a question in a jurisdiction: the model's rewrites into
// the jurisdiction's languages and the question's embedding, when those layers are on.
// A failed embedding leaves dense retrieval out of this search rather than failing it;
// a transient failure of the rewrite is an error, for the retry policy.
func (s SearchLayers) For(ctx context.Context, question, jurisdiction string) (corpus.Layers, error) {
	l := corpus.Layers{Glossary: s.Glossary, Learned: s.Learned}
	if s.Rewriter != nil {
		var langs []string
		for _, g := range glossary.LangsOf(jurisdiction) {
			langs = append(langs, string(g))
		}
		rw, err := s.Rewriter.Rewrite(ctx, question, langs)
		if err != nil {
			return corpus.Layers{}, err
		}
		l.Rewrites = rw
	}
	if s.Dense != nil && s.Dense.Len() > 0 && s.Embedder != nil {
		ectx, cancel := context.WithTimeout(ctx, embedTimeout)
		defer cancel()
		if vecs, _, err := s.Embedder.Embed(ectx, []string{question}); err == nil {
			l.Dense, l.QueryVector = s.Dense, vecs[0]
		}
	}
	return l, nil
}
