// Package dense ranks documents by the closeness of their embeddings to a query's: the
// dense retrieval that joins the lexical ranking, by reciprocal rank fusion (the
// corpus package fuses), when an embeddings endpoint is configured. The documents' vectors are computed once
// per corpus and model and kept in a sidecar file beside the corpus (sidecar.go),
// built in bounded batches and resumed where an interrupted build stopped (Build).
package dense

import (
	"context"
	"math"

	"github.com/lexflow/lexflow/internal/topk"
)

// Embedder turns texts into vectors, one per text in order (llm.Embedder), and says how
// many tokens it used.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, int64, error)
}

// Hit is a document and its cosine similarity to a query (Search).
type Hit struct {
	DocID string
	Score float64
}

// Index holds the vectors of a corpus's documents for one model, normalised to unit
// length so that a dot product is their cosine.
type Index struct {
	Model  string
	Corpus string // what the vectors were computed from (the corpus archive's sum)
	Dim    int
	ids    []string
	vecs   []float32 // len(ids) × Dim
}

// Len is how many documents the index holds.
func (ix *Index) Len() int { return len(ix.ids) }

// add appends a document's vector, normalised.
func (ix *Index) add(id string, v []float32) {
	ix.ids = append(ix.ids, id)
	ix.vecs = append(ix.vecs, normalised(v)...)
}

func normalised(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	n = math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// Search returns the k documents closest to q (a query's vector from the same model),
// best first. A vector of another length than the index's finds nothing.
func (ix *Index) Search(q []float32, k int) []Hit {
	if k <= 0 || len(q) != ix.Dim || ix.Dim == 0 {
		return nil
	}
	q = normalised(q)
	best := topk.New[Hit](k)
	for i, id := range ix.ids {
		v := ix.vecs[i*ix.Dim : (i+1)*ix.Dim]
		var s float64
		for j, x := range v {
			s += float64(x) * float64(q[j])
		}
		best.Offer(Hit{id, s}, s)
	}
	return best.Best()
}
