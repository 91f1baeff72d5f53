package tools

import (
	"fmt"
	"strings"
	"testing"
)

// TestFormatLegislation shows each article with its reference, doc_id, status, date
// and excerpt, the "no results" text in the question's language, a note when the
// search could not run as asked, and at most legislationShown articles, each excerpt
// capped.
func TestFormatLegislation(t *testing.T) {
	t.Parallel()
	hit := `{"reference":"Codul civil, art. 1357","title":"Condițiile răspunderii","doc_id":"ro/legea-287-2009/art-1357",` +
		`"as_of":"2009-07-24","in_force":true,"excerpt":"(1) Cel care cauzează\naltuia un prejudiciu","url":"https://legislatie.just.ro/x"}`
	for _, c := range []struct{ result, want string }{
		{`{"results":[],"language":"ro"}`, "[Legislație: Niciun rezultat]"},
		{`{"results":[],"language":"it"}`, "[Legislazione: Nessun risultato]"},
		{`{"results":[],"language":"en"}`, "[Legislation: No results]"},
		{`{"results":[]}`, "[Legislation: No results]"},
		{`{"results":[],"language":"ro","note":"No act called «x»."}`, "[Legislație: Niciun rezultat]\nNo act called «x»."},
		{`{"results":[` + hit + `],"language":"ro"}`, "[Legislație: 1 rezultate]\n- [Codul civil, art. 1357 - Condițiile răspunderii] " +
			"(doc_id ro/legea-287-2009/art-1357; în vigoare; text la 2009-07-24) https://legislatie.just.ro/x\n  (1) Cel care cauzează altuia un prejudiciu"},
		{`{"results":[` + strings.Replace(hit, `"in_force":true`, `"in_force":false`, 1) + `],"language":"it"}`, "non vigente; testo al 2009-07-24"},
		{`{"success":false,"error":"boom"}`, "[Tool legislation_search failed: boom]"},
	} {
		got, _ := formatLegislation("legislation_search", []byte(c.result))
		if !strings.Contains(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.result, got, c.want)
		}
	}
	long := strings.Replace(hit, "(1) Cel care cauzează", strings.Repeat("cuvânt ", 500), 1)
	got, _ := formatLegislation("legislation_search", []byte(fmt.Sprintf(`{"results":[%s],"language":"ro"}`, strings.Repeat(long+",", 12)+long)))
	if n := strings.Count(got, "\n- ["); n != legislationShown || len([]rune(got)) > legislationShown*(legislationExcerptRune+200) {
		t.Errorf("13 long articles shown as %d, %d characters", n, len([]rune(got)))
	}
}
