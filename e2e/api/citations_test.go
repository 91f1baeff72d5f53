package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
)

// checkText asks POST /v1/citations/check and decodes its answer.
func checkText(t *testing.T, tok, text, lang string) []schemas.Citation {
	t.Helper()
	r := s.Call(t, "POST", "/v1/citations/check", tok, map[string]any{"text": text, "language": lang})
	if r.Status != http.StatusOK {
		t.Fatalf("check: %d %s", r.Status, r.Raw)
	}
	var rep schemas.CitationReport
	if err := json.Unmarshal(r.Raw, &rep); err != nil {
		t.Fatal(err)
	}
	return rep.Citations
}

// TestCitationCheckInThreeLanguages runs docs/api.md's examples through the API and a
// worker: every status, the derived verified field, in_force, as_of and the passage
// beside a misquote.
func TestCitationCheckInThreeLanguages(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lawyer")
	for _, tc := range []struct {
		lang, text string
		want       []string // "text → status"
	}{
		{"it", `Ai sensi dell'art. 2043 c.c. «qualunque fatto doloso obbliga lo Stato al risarcimento»; ricorso ex art. 360 c.p.c.; art. 3000 c.c.; art. 12 c.c.`,
			[]string{"art. 2043 c.c. → misquoted", "art. 360 c.p.c. → unknown_source", "art. 3000 c.c. → not_found", "art. 12 c.c. → repealed"}},
		{"ro", `Potrivit art. 1357 alin. (1) C.civ. și art. 194 C.proc.civ., precum și art. 53 din Legea nr. 101/2016.`,
			[]string{"art. 1357 alin. (1) C.civ. → verified", "art. 194 C.proc.civ. → verified", "art. 53 din Legea nr. 101/2016 → unknown_source"}},
		{"en", `Under Article 17 GDPR and Article 267 TFEU, see Case C-131/12.`,
			[]string{"Article 17 GDPR → verified", "Article 267 TFEU → unknown_source", "Case C-131/12 → unknown_source"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			cits := checkText(t, tok, tc.text, tc.lang)
			var got []string
			for _, c := range cits {
				got = append(got, c.Text+" → "+c.Status)
				if c.Verified != (c.Status == schemas.CitationVerified) {
					t.Errorf("%s: verified = %v with status %s", c.Text, c.Verified, c.Status)
				}
				if c.DocID != "" && (c.InForce == nil || c.AsOf == "" || c.URL == "") {
					t.Errorf("%s: a held source without in_force, as_of or url: %+v", c.Text, c)
				}
				if c.Status == schemas.CitationMisquoted && !strings.Contains(strings.ToLower(c.Passage), "qualunque fatto doloso o colposo") {
					t.Errorf("%s: passage %q", c.Text, c.Passage)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestCitationCheckRefusesBadInput: what a hostile or careless client sends is refused
// with a problem, before any workflow starts.
func TestCitationCheckRefusesBadInput(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lawyer")
	for _, tc := range []struct {
		name   string
		body   any
		status int
		typ    string
	}{
		{"bad JSON", `{"text":`, 400, "bad-json"},
		{"no text", map[string]any{"text": "  "}, 422, "invalid-input"},
		{"unknown language", map[string]any{"text": "art. 1 c.c.", "language": "fr"}, 422, "invalid-input"},
		{"text over the limit", map[string]any{"text": strings.Repeat("art. 1 c.c. ", 20_000)}, 422, "invalid-input"},
		{"body over the limit", map[string]any{"text": strings.Repeat("x", 300_000)}, 413, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Call(t, "POST", "/v1/citations/check", tok, tc.body)
			if tc.typ == "" {
				if r.Status != tc.status {
					t.Errorf("status %d, want %d", r.Status, tc.status)
				}
				return
			}
			stack.WantProblem(t, r, tc.status, tc.typ)
		})
	}
	if r := s.Call(t, "POST", "/v1/citations/check", "", map[string]any{"text": "art. 1 c.c."}); r.Status != http.StatusUnauthorized {
		t.Errorf("without a token: %d", r.Status)
	}
}

// TestCitationCheckGuessesTheLanguage: "c.p." is the Codul penal in a Romanian text
// and the Codice penale in an Italian one.
func TestCitationCheckGuessesTheLanguage(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lawyer")
	ro := checkText(t, tok, "Fapta este prevăzută de art. 228 C.p. și nu există cauze justificative.", "")
	it := checkText(t, tok, "Il fatto è previsto dall'art. 624 c.p. e non ci sono cause di giustificazione.", "")
	if len(ro) != 1 || ro[0].DocID != "ro/legea-286-2009/art-228" || len(it) != 1 || it[0].DocID != "it/rd-1398-1930/art-624" {
		t.Errorf("ro %+v\nit %+v", ro, it)
	}
}
