package api_test

import (
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
)

// TestCaseLanguageDefault (issue 37, item 6): a case whose client chose no language and
// whose description tells none takes LEXFLOW_DEFAULT_LANGUAGE (ro, its default, here;
// the stack's is en) instead of English; one whose description tells its language
// keeps it.
func TestCaseLanguageDefault(t *testing.T) {
	t.Parallel()
	c := s.Serve(t, func(cfg *config.Config, _ *api.Deps) { cfg.DefaultLanguage = "ro" })
	tok := s.Token(t, "lang-client")
	for description, want := range map[string]string{
		"Dosar 2043/2024 ???":                 "ro",
		"My landlord kept my deposit":         "en",
		"Il padrone non mi restituisce nulla": "it",
	} {
		id := c.CreateCase(t, tok, description)
		if r := c.Call(t, "GET", "/v1/cases/"+id, tok, nil); r.Body["language"] != want {
			t.Errorf("%q: language %v, want %s (%s)", description, r.Body["language"], want, r.Raw)
		}
	}
}
