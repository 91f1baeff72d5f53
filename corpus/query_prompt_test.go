package corpus

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	promptfiles "github.com/lexflow/lexflow/prompts"
)

// TestToolArgsPromptNamesEveryColumn: the tool_args prompt, which writes legal_sql's
// statements from a question, lists every column of each table legal_sql may read,
// in every language, so a column added to the corpus is not left unknown to it.
func TestToolArgsPromptNamesEveryColumn(t *testing.T) {
	for _, table := range QueryTables {
		m := regexp.MustCompile(`(?s)CREATE TABLE ` + table + ` \((.*?)\n\);`).FindStringSubmatch(schema)
		if m == nil {
			t.Fatalf("no CREATE TABLE %s in the schema", table)
		}
		var columns []string
		for _, line := range strings.Split(m[1], "\n") {
			if f := strings.Fields(line); len(f) > 1 {
				columns = append(columns, f[0])
			}
		}
		for _, lang := range []string{"en", "ro", "it"} {
			raw, err := fs.ReadFile(promptfiles.Files, "tool_args."+lang+".md")
			if err != nil {
				t.Fatal(err)
			}
			_, list, _ := strings.Cut(string(raw), "`"+table+"`")
			list, _, _ = strings.Cut(list, "\n- ")
			for _, c := range columns {
				if !strings.Contains(list, "`"+c+"`") {
					t.Errorf("tool_args.%s.md does not name %s's column %s", lang, table, c)
				}
			}
		}
	}
}
