package offline

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lexflow/lexflow/corpus"
)

var (
	// countRe asks how many, matched on folded text.
	countRe = regexp.MustCompile(`\b(how many|count|cate|cati|quant[aeio])\b`)
	// decisionsRe asks about decisions rather than acts, matched on folded text.
	decisionsRe = regexp.MustCompile(`\b(decision|decisions|judgment|judgments|case law|decizi\w*|hotarar\w*|jurisprud\w*|sentenz\w*|massim\w*)\b`)
)

// toolArgs is the tool_args role's answer: a call of the one tool offered (the first
// by name, were there more) with arguments written from the question. legal_sql gets a
// SELECT over decisions or acts (a count when the question asks how many, else the
// rows whose title or text holds the question's longest keyword); any other tool the
// question as its query. With no tool offered it says so in text.
func toolArgs(question string, offered map[string]bool, n int) reply {
	names := slices.Sorted(maps.Keys(offered))
	if len(names) == 0 {
		return reply{content: "No tool was offered."}
	}
	if names[0] != "legal_sql" {
		return plainCall(names[0], map[string]any{"query": question}, n)
	}
	folded := corpus.Fold(question)
	table, columns, texts := "legislatie", "doc_id, title, summary", []string{"title", "text"}
	if decisionsRe.MatchString(folded) {
		table, columns, texts = "jurisprudenta", "doc_id, court, number, year, massima", []string{"massima", "full_text"}
	}
	sql := "SELECT COUNT(*) AS n FROM " + table
	if !countRe.MatchString(folded) {
		word := ""
		for _, w := range strings.Fields(searchTerm(question)) { // letters and digits only
			if utf8.RuneCountInString(w) > utf8.RuneCountInString(word) {
				word = w
			}
		}
		sql = "SELECT " + columns + " FROM " + table
		if word != "" {
			sql += " WHERE " + texts[0] + " LIKE '%" + word + "%' OR " + texts[1] + " LIKE '%" + word + "%'"
		}
		sql += " LIMIT 10"
	}
	return plainCall("legal_sql", map[string]any{"query_string": sql, "table_name": table}, n)
}
