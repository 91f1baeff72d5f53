package api_test

import (
	"testing"
)

// TestCaseLanguageDefault (issue 37, item 6): a case whose client chose no language and
// whose description tells none takes LEXFLOW_DEFAULT_LANGUAGE (ro) instead of English;
// one whose description tells its language keeps it.
func TestCaseLanguageDefault(t *testing.T) {
	t.Parallel()
	tok := s.Token(t, "lang-client")
	for description, want := range map[string]string{
		"Dosar 2043/2024 ???":                 "ro",
		"My landlord kept my deposit":         "en",
		"Il padrone non mi restituisce nulla": "it",
	} {
		id := s.CreateCase(t, tok, description)
		if r := s.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["language"] != want {
			t.Errorf("%q: language %v, want %s (%s)", description, r.Body["language"], want, r.Raw)
		}
	}
}
