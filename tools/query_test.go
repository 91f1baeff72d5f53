package tools

import (
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestTakesQuery: the searches that need only a query take the question as it is;
// the tools whose arguments are a reference or a statement do not.
func TestTakesQuery(t *testing.T) {
	for name, want := range map[string]bool{
		schemas.ToolKBSearch: true, schemas.ToolWebSearch: true, schemas.ToolLexSearch: true,
		schemas.ToolLegalSQL: false, schemas.ToolNormattivaSearch: false, schemas.ToolEurlexSearch: false,
		schemas.ToolGetPartyIDByName: false,
	} {
		tool, ok := Get(name)
		if !ok || tool.TakesQuery() != want {
			t.Errorf("%s: TakesQuery %v, want %v", name, ok && tool.TakesQuery(), want)
		}
	}
}
