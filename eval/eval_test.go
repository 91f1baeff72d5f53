package eval

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/testcorpus"
)

// TestTargets holds the citation check to the targets over the shipped set,
// so that a regression fails CI, and logs both tables.
func TestTargets(t *testing.T) {
	ctx := context.Background()
	path, err := testcorpus.Path(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := corpus.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Citations) < 300 {
		t.Errorf("the set has %d citations, fewer than 300", len(res.Citations))
	}
	if len(res.Retrieval) < 100 {
		t.Errorf("the set has %d questions, fewer than 100", len(res.Retrieval))
	}
	results, ranks := res.Citations, res.Retrieval
	for _, f := range Targets(results) {
		t.Error(f)
	}
	var table strings.Builder
	Write(&table, CitationRows(results), RetrievalRows(ranks))
	laws, err := LegislationItems()
	if err != nil {
		t.Fatal(err)
	}
	questions, err := RetrievalItems()
	if err != nil {
		t.Fatal(err)
	}
	layers, err := RunLayers(ctx, s, laws, questions)
	if err != nil {
		t.Fatal(err)
	}
	var rows []RankRow
	for _, l := range layers {
		rows = append(rows, RankRows(l)...)
	}
	for _, f := range LayerTargets(rows) {
		t.Error(f)
	}
	fmt.Fprintln(&table)
	WriteLayers(&table, rows)
	t.Log("\n" + table.String())
	if os.Getenv("LEXFLOW_EVAL_MISSES") != "" {
		for _, r := range results {
			if !r.Right() {
				t.Logf("%s %s %q: got %q %s %s (%s), want %s %s", r.Item.ID, r.Item.Class, r.Item.Citation, r.Got.Text, r.Status(), r.Got.DocID, r.Got.RefersTo, r.Item.Status, r.Item.DocID)
			}
		}
	}
}
