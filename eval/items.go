// Package eval measures Lexflow's citation check and case-law search against the
// evaluation set shipped beside it: citations in citations/*.jsonl (real ones taken
// from the corpus's own texts, fabricated ones, misquotes, repealed articles and acts
// outside the corpus, each with its source and why its expected status is right) and
// lawyers' questions in retrieval.jsonl with the decisions that answer them.
package eval

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/lexflow/lexflow/corpus"
)

// CitationItem is one citation of the set, in the text it was found in or written for.
type CitationItem struct {
	ID       string `json:"id"`
	Language string `json:"language"`
	// Class is real, fabricated, misquote, quote, repealed or outside.
	Class string `json:"class"`
	Text  string `json:"text"`
	// Citation is the citation as written in Text.
	Citation string `json:"citation"`
	// Article picks one article when Citation lists several.
	Article string `json:"article"`
	Kind    string `json:"kind"`
	// Status and DocID are what the check should find.
	Status string `json:"status"`
	DocID  string `json:"doc_id"`
	Source string `json:"source"`
	Why    string `json:"why"`
}

// RetrievalItem is one question with the decisions that answer it, within the
// jurisdiction whose courts it is asked of ("ro", "it"), as kb_search is asked.
type RetrievalItem struct {
	ID           string   `json:"id"`
	Language     string   `json:"language"`
	Question     string   `json:"question"`
	Jurisdiction string   `json:"jurisdiction"`
	Expect       []string `json:"expect"`
	Source       string   `json:"source"`
	Why          string   `json:"why"`
}

var (
	//go:embed citations/*.jsonl
	citationFiles embed.FS
	//go:embed retrieval.jsonl
	retrievalFile []byte
)

// CitationItems reads the shipped citation set.
func CitationItems() ([]CitationItem, error) {
	names, err := fs.Glob(citationFiles, "citations/*.jsonl")
	if err != nil {
		return nil, err
	}
	var out []CitationItem
	for _, name := range names {
		data, err := citationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		items, err := readLines[CitationItem](name, data)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if !strings.Contains(it.Text, it.Citation) || it.Citation == "" {
				return nil, fmt.Errorf("%s: item %s: the citation %q is not in its text", name, it.ID, it.Citation)
			}
		}
		out = append(out, items...)
	}
	return out, nil
}

// RetrievalItems reads the shipped retrieval set, refusing an item asked of no
// jurisdiction with courts in the corpus, or expecting another jurisdiction's
// decision.
func RetrievalItems() ([]RetrievalItem, error) {
	items, err := readLines[RetrievalItem]("retrieval.jsonl", retrievalFile)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if err := it.checkJurisdiction(); err != nil {
			return nil, fmt.Errorf("retrieval.jsonl, %s: %w", it.ID, err)
		}
	}
	return items, nil
}

// checkJurisdiction reports an item whose jurisdiction is not ro or it, or whose
// expected decisions are of another.
func (it RetrievalItem) checkJurisdiction() error {
	if it.Jurisdiction != "ro" && it.Jurisdiction != "it" {
		return fmt.Errorf("jurisdiction %q, want ro or it", it.Jurisdiction)
	}
	for _, id := range it.Expect {
		if !strings.HasPrefix(id, it.Jurisdiction+"/") {
			return fmt.Errorf("expects %s, not of jurisdiction %s", id, it.Jurisdiction)
		}
	}
	return nil
}

// readLines decodes JSON Lines strictly: an unknown field is a mistake in the set.
func readLines[T any](name string, data []byte) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var v T
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// Results are a run of the whole shipped set.
type Results struct {
	Citations []CitationResult
	Retrieval []RetrievalResult
}

// Run reads the shipped set and runs every citation and question of it against s.
func Run(ctx context.Context, s *corpus.Store) (Results, error) {
	items, err := CitationItems()
	if err != nil {
		return Results{}, err
	}
	cits, err := RunCitations(ctx, s, items)
	if err != nil {
		return Results{}, err
	}
	questions, err := RetrievalItems()
	if err != nil {
		return Results{}, err
	}
	ranks, err := RunRetrieval(ctx, s, questions)
	return Results{Citations: cits, Retrieval: ranks}, err
}
