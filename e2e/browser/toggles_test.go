package browser

import (
	"strings"
	"testing"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
)

// TestToggleBarGreysWhatCannotRun: in a deployment with neither SearXNG nor a
// LEXE-tools service, the web and legal search toggles are greyed out and say why, as
// GET /v1/tools does; the other toggles stay usable.
func TestToggleBarGreysWhatCannotRun(t *testing.T) {
	t.Parallel()
	appURL := serveAppWith(t, func(cfg *config.Config, _ *api.Deps) { cfg.SearXNGURL, cfg.LexeToolsURL = "", "" })
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "greyed", "acme")
	p.openCase("My employer dismissed me without notice and I want compensation")
	state := func(key string) (disabled bool, title string) {
		sel := `document.querySelector('button[data-toggle="` + key + `"]')`
		return eval[bool](p, sel+".disabled"), eval[string](p, sel+".title")
	}
	for key, why := range map[string]string{"web_search_enabled": "SEARXNG_URL", "lex_search_enabled": "LEXE_TOOLS_URL"} {
		if disabled, title := state(key); !disabled || !strings.Contains(title, why) {
			t.Errorf("%s: disabled %v, title %q; want greyed, naming %s", key, disabled, title, why)
		}
	}
	if disabled, _ := state("normattiva_enabled"); disabled {
		t.Error("normattiva_search, which the corpus serves, is greyed out")
	}
}
