// Package learned places a client's question and the articles of the corpus in one
// space, so that a question meets the articles whose client words it resembles even
// when the two share no word (issue 38's offline bridge beside the lexical ranking).
//
// The model is trained from the corpus itself, when it is built: each of an article's
// plain words (package plain: a client's phrasings of the situations it answers,
// written by independent writers in its language and in English), and its title and
// text, is an example of words that should land on that article. It learns a vector
// per term and per article, as supervised embeddings do (StarSpace, fastText): a text
// is the weighted mean of its terms' vectors, and training pulls it towards its
// article's vector and away from negatives drawn from the same group (jurisdiction),
// by logistic loss and stochastic gradient descent. Words that writers used for the
// same articles ("flat", "apartment", "apartament") end close together; a question
// lands near the articles their phrasings describe.
//
// Training is deterministic, so that a corpus built twice ranks the same, on any
// machine: each part trains on its own goroutine from its own seed, the logistic
// function is a table of float32s, and every product is rounded before it is added,
// so that no fused multiply-add (arm64's, or math.Exp's on an amd64 with FMA) changes
// a bit.
package learned

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/lexflow/lexflow/internal/topk"
)

// Example is one text's terms and the document they describe.
type Example struct {
	Terms []string
	Doc   int32
}

// Options shape training; zero fields take Defaults'.
type Options struct {
	Dim       int     // dimensions of the space
	Epochs    int     // passes over the examples
	Negatives int     // negatives drawn per example
	Rate      float64 // starting learning rate, decaying linearly to 0
	// Smoothing is a in the weight a/(a+p) of a term of frequency p among all the
	// examples' terms (smooth inverse frequency), so that common words count little.
	Smoothing float64
	// MinCount drops terms seen fewer times.
	MinCount int
	// Parts is how many models are trained, each from its own seed; their
	// closeness to a query is summed, which steadies the ranking.
	Parts int
}

// Defaults were chosen on the evaluation's tuned question sets (docs/tools.md): three
// parts rather than two raised their MRR from 0.741 to 0.757 for 6 s more of the
// corpus's build (17 s in all on the 2-core machine).
var Defaults = Options{Dim: 64, Epochs: 10, Negatives: 25, Rate: 0.3, Smoothing: 1e-3, MinCount: 2, Parts: 3}

func (o Options) withDefaults() Options {
	d := Defaults
	return Options{Dim: cmp.Or(o.Dim, d.Dim), Epochs: cmp.Or(o.Epochs, d.Epochs), Negatives: cmp.Or(o.Negatives, d.Negatives),
		Rate: cmp.Or(o.Rate, d.Rate), Smoothing: cmp.Or(o.Smoothing, d.Smoothing), MinCount: cmp.Or(o.MinCount, d.MinCount),
		Parts: cmp.Or(o.Parts, d.Parts)}
}

// Model is a trained space: a weight per term and, in each of its parts (models
// trained alike from different seeds, whose closeness is summed), a vector per term
// and a unit vector per placed document (documents no example described have none).
type Model struct {
	Dim     int
	terms   map[string]int32
	names   []string // by id
	weights []float32
	docs    []int32 // the placed documents, ascending
	parts   []part
}

// part is one trained model's vectors.
type part struct {
	vecs    []float32 // len(weights) × Dim
	docVecs []float32 // len(docs) × Dim, each of unit length
}

// coded is an example with its terms' ids.
type coded struct {
	terms []int32
	doc   int32
}

// Train learns a model from examples of len(group) documents, numbered from 0; group
// gives each document's group, from which its negatives are drawn (a jurisdiction's
// articles, so that training tells apart what a search within it must). The parts
// train at once, one goroutine each.
func Train(examples []Example, group []int32, opts Options) *Model {
	o := opts.withDefaults()
	m := &Model{Dim: o.Dim, terms: map[string]int32{}}
	count, total := map[string]int{}, 0
	for _, ex := range examples {
		for _, t := range ex.Terms {
			count[t]++
			total++
		}
	}
	var exs []coded
	trained := make([]bool, len(group))
	for _, ex := range examples {
		c := coded{doc: ex.Doc}
		for _, t := range ex.Terms {
			if count[t] < o.MinCount {
				continue
			}
			id, ok := m.terms[t]
			if !ok {
				id = int32(len(m.weights))
				m.terms[t] = id
				m.names = append(m.names, t)
				p := float64(count[t]) / float64(total)
				m.weights = append(m.weights, float32(o.Smoothing/(o.Smoothing+p)))
			}
			c.terms = append(c.terms, id)
		}
		if len(c.terms) > 0 && ex.Doc >= 0 && int(ex.Doc) < len(group) {
			exs = append(exs, c)
			trained[ex.Doc] = true
		}
	}
	byGroup := map[int32][]int32{}
	for d, g := range group {
		if trained[d] {
			byGroup[g] = append(byGroup[g], int32(d))
			m.docs = append(m.docs, int32(d))
		}
	}
	m.parts = make([]part, o.Parts)
	var wg sync.WaitGroup
	for i := range m.parts {
		wg.Go(func() {
			m.parts[i] = m.train(slices.Clone(exs), group, byGroup, o, uint64(i))
		})
	}
	wg.Wait()
	return m
}

// train learns one part from exs (which it shuffles), with its own seed: it writes
// only the vectors it allocates, and reads what Train wrote before it started.
func (m *Model) train(exs []coded, group []int32, byGroup map[int32][]int32, o Options, seed uint64) part {
	rng := rand.New(rand.NewPCG(38+seed, 2026))
	dim := o.Dim
	vecs := make([]float32, len(m.weights)*dim)
	for i := range vecs {
		vecs[i] = float32((rng.Float64() - 0.5) / float64(dim))
	}
	docVecs := make([]float32, len(group)*dim)
	h, gh := make([]float32, dim), make([]float32, dim)
	steps, step := float64(o.Epochs*len(exs)), 0
	for range o.Epochs {
		rng.Shuffle(len(exs), func(i, j int) { exs[i], exs[j] = exs[j], exs[i] })
		for _, ex := range exs {
			rate := float32(o.Rate * (1 - float64(step)/steps))
			step++
			clear(h)
			clear(gh)
			var ws float32
			for _, t := range ex.terms {
				w := m.weights[t]
				ws += w
				axpy(h, vecs[int(t)*dim:int(t+1)*dim], w)
			}
			scale(h, 1/ws)
			same := byGroup[group[ex.doc]]
			for n := 0; n <= o.Negatives; n++ {
				c, label := ex.doc, float32(1)
				if n > 0 {
					if c, label = same[rng.IntN(len(same))], 0; c == ex.doc {
						continue
					}
				}
				row := docVecs[int(c)*dim : int(c+1)*dim]
				g := rate * (label - sigmoid(dot(row, h)))
				axpy(gh, row, g)
				axpy(row, h, g)
			}
			for _, t := range ex.terms {
				axpy(vecs[int(t)*dim:int(t+1)*dim], gh, m.weights[t]/ws)
			}
		}
	}
	p := part{vecs: vecs}
	for _, d := range m.docs {
		p.docVecs = append(p.docVecs, unit(docVecs[int(d)*dim:int(d+1)*dim])...)
	}
	return p
}

// Vector is, for each part, the weighted sum of the vectors of the terms the model
// knows (Nearest reads its direction only), the parts one after the other; nil when
// it knows none of them.
func (m *Model) Vector(terms []string) []float32 {
	var v []float32
	for _, t := range terms {
		id, ok := m.terms[t]
		if !ok {
			continue
		}
		if v == nil {
			v = make([]float32, len(m.parts)*m.Dim)
		}
		for i, p := range m.parts {
			axpy(v[i*m.Dim:(i+1)*m.Dim], p.vecs[int(id)*m.Dim:int(id+1)*m.Dim], m.weights[id])
		}
	}
	return v
}

// Hit is a document and its closeness to a query: the sum, over the parts, of the
// cosines of their vectors.
type Hit struct {
	Doc   int32
	Score float32
}

// Nearest returns the k placed documents that keep admits closest to q (a Vector),
// best first.
func (m *Model) Nearest(q []float32, k int, keep func(doc int32) bool) []Hit {
	if len(q) != len(m.parts)*m.Dim || k <= 0 {
		return nil
	}
	qs := make([][]float32, len(m.parts))
	for i := range m.parts {
		qs[i] = unit(q[i*m.Dim : (i+1)*m.Dim])
	}
	best := topk.New[Hit](k)
	for j, d := range m.docs {
		if !keep(d) {
			continue
		}
		var s float32
		for i, p := range m.parts {
			s += dot(p.docVecs[j*m.Dim:(j+1)*m.Dim], qs[i])
		}
		best.Offer(Hit{d, s}, float64(s))
	}
	return best.Best()
}

// Placed are the documents the model placed, ascending; the caller must not change
// them.
func (m *Model) Placed() []int32 { return m.docs }

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float32(a[i] * b[i])
		s1 += float32(a[i+1] * b[i+1])
		s2 += float32(a[i+2] * b[i+2])
		s3 += float32(a[i+3] * b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += float32(a[i] * b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy adds a·x to y.
func axpy(y, x []float32, a float32) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += float32(a * x[i])
		y[i+1] += float32(a * x[i+1])
		y[i+2] += float32(a * x[i+2])
		y[i+3] += float32(a * x[i+3])
	}
	for ; i < len(x); i++ {
		y[i] += float32(a * x[i])
	}
}

func scale(v []float32, a float32) {
	for i := range v {
		v[i] *= a
	}
}

// sigmoid is the logistic function, read from a table of float32s as word2vec reads
// it: math.Exp's last bit depends on the CPU (amd64's uses FMA where it has it), and
// rounded to float32 the table's entries do not feel it. Past ±sigmoidBound it is 0
// or 1.
func sigmoid(x float32) float32 {
	switch {
	case !(x > -sigmoidBound): // NaN too
		return 0
	case x >= sigmoidBound:
		return 1
	}
	return sigmoidTable[int((x+sigmoidBound)*(sigmoidSteps/(2*sigmoidBound)))]
}

const (
	sigmoidBound = 8
	sigmoidSteps = 2048
)

var sigmoidTable = func() (t [sigmoidSteps + 1]float32) {
	for i := range t {
		x := float64(i)*2*sigmoidBound/sigmoidSteps - sigmoidBound
		t[i] = float32(1 / (1 + math.Exp(-x)))
	}
	return t
}()

// unit returns v scaled to length 1 (zeros stay zeros).
func unit(v []float32) []float32 {
	n := math.Sqrt(float64(dot(v, v)))
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}
