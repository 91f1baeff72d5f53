package offline

import (
	"encoding/json"
	"testing"
)

// TestToolArgs: the tool_args role writes legal_sql's statement from the question,
// over decisions or acts, a count for "how many", and no quote the question brings
// reaches the statement; another tool gets the question as its query.
func TestToolArgs(t *testing.T) {
	sqlOnly := map[string]bool{"legal_sql": true}
	for _, c := range []struct {
		question, sql, table string
	}{
		{"How many decisions are there?", "SELECT COUNT(*) AS n FROM jurisprudenta", "jurisprudenta"},
		{"Câte acte sunt?", "SELECT COUNT(*) AS n FROM legislatie", "legislatie"},
		{"List the articles about risarcimento", "SELECT doc_id, title, summary FROM legislatie WHERE title LIKE '%risarcimento%' OR text LIKE '%risarcimento%' LIMIT 10", "legislatie"},
		{"Massime sulla diffamazione'; DROP TABLE x; --", "SELECT doc_id, court, number, year, massima FROM jurisprudenta WHERE massima LIKE '%diffamazione%' OR full_text LIKE '%diffamazione%' LIMIT 10", "jurisprudenta"},
	} {
		r := toolArgs(c.question, sqlOnly, 1)
		if len(r.calls) != 1 || r.calls[0].Function.Name != "legal_sql" {
			t.Fatalf("%q: %+v", c.question, r)
		}
		var args map[string]string
		if err := json.Unmarshal([]byte(r.calls[0].Function.Arguments), &args); err != nil || args["query_string"] != c.sql || args["table_name"] != c.table {
			t.Errorf("%q: %s, %v", c.question, r.calls[0].Function.Arguments, err)
		}
	}
	r := toolArgs("latest news on GDPR fines", map[string]bool{"web_search": true}, 1)
	if len(r.calls) != 1 || r.calls[0].Function.Arguments != `{"query":"latest news on GDPR fines"}` {
		t.Errorf("web_search: %+v", r)
	}
	if r := toolArgs("anything", nil, 1); len(r.calls) != 0 || r.content == "" {
		t.Errorf("no tool offered: %+v", r)
	}
}
