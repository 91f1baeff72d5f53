package tools

import (
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

func TestEnabledLine(t *testing.T) {
	got := EnabledLine([]string{schemas.ToolNormattivaSearch, schemas.ToolKBSearch, schemas.ToolLexSearch, schemas.ToolGetCaseDetails})
	const want = "[CustomerStream] enabled_tools: normattiva=1, eurlex=0, infolex=0, web=0, kb=1, lex=1, lex_enriched=0"
	if got != want {
		t.Errorf("EnabledLine = %q, want %q", got, want)
	}
}
