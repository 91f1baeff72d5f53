package tools

import "slices"

// TakesQuery reports whether a question is all the tool needs: its only required
// argument is a text named query (kb_search, web_search, lex_search, ...). Other
// tools' arguments are written from a question by a model (schemas.ModelToolArgs).
func (t *Tool) TakesQuery() bool {
	q, ok := t.Schema.Properties["query"]
	return ok && slices.Equal(t.Schema.Required, []string{"query"}) && slices.Equal(q.Type, typeList{"string"})
}
