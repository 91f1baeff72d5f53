package activities

import (
	"context"
	"fmt"
	"testing"

	"github.com/lexflow/lexflow/corpus"
)

// TestEveryDecisionReferenceVerifies: the reference kb_search, infolex_search and
// read_legal_text give each decision of the corpus is one citation the citation check
// reads and verifies as that decision, Romanian ones whose number the source masks
// included.
func TestEveryDecisionReferenceVerifies(t *testing.T) {
	ctx := context.Background()
	seen := 0
	for offset := 0; ; offset += corpus.MaxRows {
		res, err := lc.Query(ctx, fmt.Sprintf("SELECT doc_id FROM jurisprudenta ORDER BY doc_id LIMIT %d OFFSET %d", corpus.MaxRows, offset),
			"jurisprudenta", corpus.DefaultQueryTimeout)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range res.Rows {
			id := fmt.Sprint(row["doc_id"])
			lt, err := lc.LegalTextByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			ref := reference(lt.Decision)
			cits, err := lc.CheckCitations(ctx, ref, lt.Decision.Language)
			if err != nil {
				t.Fatal(err)
			}
			if len(cits) != 1 || !cits[0].Verified() || cits[0].DocID != id {
				t.Errorf("%s: %q reads as %+v", id, ref, cits)
			}
			seen++
		}
		if len(res.Rows) < corpus.MaxRows {
			break
		}
	}
	if seen < 500 {
		t.Errorf("checked %d decisions, want the corpus's 540", seen)
	}
}
