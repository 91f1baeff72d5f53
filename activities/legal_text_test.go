package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// TestReadLegalText reads a long Romanian decision page by page and an Italian one,
// and checks that a reply citing each by the reference read_legal_text gave, quoting
// its page, is verified as that decision.
func TestReadLegalText(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc}
	tool, _ := tools.Get(schemas.ToolReadLegalText)
	for _, c := range []struct{ docID, lang string }{{"ro/ca/Hotarare-30.06.2021-134", "ro"}, {"it/cass/10387-2025", "it"}} {
		first, err := a.ReadLegalText(ctx, schemas.ReadLegalTextArgs{DocID: c.docID})
		if err != nil {
			t.Fatal(err)
		}
		if first.Status != schemas.ResultSuccess || first.Kind != schemas.LegalTextDecision || first.Page != 1 || first.AsOf == "" ||
			first.URL == "" || first.Reference == "" {
			t.Fatalf("%s: %+v", c.docID, first)
		}
		var whole strings.Builder
		for p := 1; p <= first.Pages; p++ {
			r, err := a.ReadLegalText(ctx, schemas.ReadLegalTextArgs{DocID: c.docID, Page: p})
			if err != nil || r.Status != schemas.ResultSuccess || r.Page != p {
				t.Fatalf("page %d: %+v %v", p, r, err)
			}
			if n := utf8.RuneCountInString(r.Text); n > schemas.LegalTextPageChars {
				t.Errorf("page %d has %d characters", p, n)
			}
			whole.WriteString(strings.Join(strings.Fields(r.Text), ""))
			raw := mustJSON(t, r)
			shown, failure := tool.Show(raw, 0)
			if failure != "" || !strings.Contains(shown, r.Text) || !strings.Contains(shown, fmt.Sprintf("page %d of %d", p, first.Pages)) {
				t.Errorf("page %d is not shown whole with its page number within the budget:\n%.300s", p, shown)
			}
		}
		lt, err := lc.LegalTextByID(ctx, c.docID)
		if err != nil {
			t.Fatal(err)
		}
		if whole.String() != strings.Join(strings.Fields(lt.Text), "") {
			t.Errorf("%s: the pages do not hold the whole text", c.docID)
		}
		words := strings.Fields(first.Text)
		reply := "Vedi " + first.Reference + ": «" + strings.Trim(strings.Join(words[:12], " "), ",;:") + "»."
		cits, err := lc.CheckCitations(ctx, reply, c.lang)
		if err != nil {
			t.Fatal(err)
		}
		if len(cits) != 1 || cits[0].DocID != c.docID || cits[0].Status != corpus.StatusVerified {
			t.Errorf("%q: %+v", reply, cits)
		}
	}
	if first, _ := a.ReadLegalText(ctx, schemas.ReadLegalTextArgs{DocID: "ro/ca/Hotarare-30.06.2021-134"}); first.Pages < 2 {
		t.Errorf("the long decision has %d pages", first.Pages)
	}
}

// TestReadLegalTextRefusals: a doc_id the corpus does not hold, or a page past the
// last, is an answer the model reads and can correct, saying what to do.
func TestReadLegalTextRefusals(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc}
	tool, _ := tools.Get(schemas.ToolReadLegalText)
	for _, c := range []struct {
		args schemas.ReadLegalTextArgs
		want string
	}{
		{schemas.ReadLegalTextArgs{DocID: "ro/legea-287-2009/art-99999"}, "exactly as a search result"},
		{schemas.ReadLegalTextArgs{DocID: strings.Repeat("x", 300)}, "a doc_id a search result gave"},
		{schemas.ReadLegalTextArgs{DocID: "it/rd-262-1942/art-2043", Page: 2}, "has 1 pages; page 2 is past the last"},
	} {
		r, err := a.ReadLegalText(ctx, c.args)
		if err != nil {
			t.Fatal(err)
		}
		shown, failure := tool.Show(mustJSON(t, r), 0)
		if r.Status != schemas.ResultError || !strings.Contains(failure, c.want) || !strings.HasPrefix(shown, "[Tool read_legal_text failed: ") {
			t.Errorf("%.40s: %+v, shown %q", c.args.DocID, r, shown)
		}
	}
	r, err := a.ReadLegalText(ctx, schemas.ReadLegalTextArgs{DocID: "it/rd-262-1942/art-12"})
	if err != nil || r.InForce == nil || *r.InForce || r.Reference != "art. 12 Codice Civile" {
		t.Fatalf("%+v %v", r, err)
	}
	if shown, _ := tool.Show(mustJSON(t, r), 0); !strings.Contains(shown, "REPEALED") {
		t.Errorf("a repealed article reads %q", shown)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
