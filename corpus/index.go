package corpus

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The analysed indexes: one full-text index of articles and one of decisions per
// language (legislatie_ro, jurisprudenta_it, ...), holding Analyze's terms (stemmed,
// stop words dropped, folded) rather than the texts, since modernc's SQLite cannot
// take a custom FTS5 tokenizer. Their rowids are the rows' of legislatie and
// jurisprudenta. They are contentless: the texts stay in their tables.
//
// A decision's full text is split (decisionParts) into the court's reasoning and
// operative part, and the parties' arguments, so that the ranking can weigh the
// first above the second.
func analysedSchema() string {
	var b strings.Builder
	for _, lang := range Languages {
		fmt.Fprintf(&b, `CREATE VIRTUAL TABLE %s USING fts5(act_title, title, text, words, headings, content='', tokenize='unicode61');
CREATE VIRTUAL TABLE %s USING fts5(materia, massima, summary, reasoning, arguments, content='', tokenize='unicode61');
`, articleIndex(lang), decisionIndex(lang))
	}
	return b.String()
}

func articleIndex(lang string) string  { return "legislatie_" + lang }
func decisionIndex(lang string) string { return "jurisprudenta_" + lang }

// fillAnalysed writes the analysed indexes of the rows just inserted, in the order
// they were inserted (their rowids are 1, 2, ... in each table).
func fillAnalysed(ctx context.Context, tx *sql.Tx, arts []Article, decs []Decision) error {
	analyzers := map[string]*analyzer{}
	analyse := func(lang, text string) string {
		a, ok := analyzers[lang]
		if !ok {
			a = newAnalyzer(lang)
			analyzers[lang] = a
		}
		return strings.Join(a.terms(text, nil), " ")
	}
	stmts := map[string]*sql.Stmt{}
	insert := func(table string, args ...any) error {
		st, ok := stmts[table]
		if !ok {
			var err error
			st, err = tx.PrepareContext(ctx, `INSERT INTO `+table+` (rowid, `+indexColumns[table[:strings.IndexByte(table, '_')]]+
				`) VALUES (?`+strings.Repeat(`,?`, len(args)-1)+`)`)
			if err != nil {
				return err
			}
			stmts[table] = st
		}
		_, err := st.ExecContext(ctx, args...)
		return err
	}
	words, err := newClientWords()
	if err != nil {
		return err
	}
	for i, a := range arts {
		if !hasIndex(a.Language) {
			continue
		}
		if err := insert(articleIndex(a.Language), i+1, analyse(a.Language, a.ActTitle), analyse(a.Language, a.Title),
			analyse(a.Language, a.Text), analyse(a.Language, words.of(a)), analyse(a.Language, strings.Join(a.Headings, " ; "))); err != nil {
			return fmt.Errorf("index %s: %w", a.DocID, err)
		}
	}
	for i, d := range decs {
		if !hasIndex(d.Language) {
			continue
		}
		reasoning, arguments := decisionParts(d)
		if err := insert(decisionIndex(d.Language), i+1, analyse(d.Language, d.Materia), analyse(d.Language, d.Massima),
			analyse(d.Language, d.Summary), analyse(d.Language, reasoning), analyse(d.Language, arguments)); err != nil {
			return fmt.Errorf("index %s: %w", d.DocID, err)
		}
	}
	return nil
}

// indexColumns are the columns of each kind of analysed index, by its tables' prefix.
var indexColumns = map[string]string{
	"legislatie":    "act_title, title, text, words, headings",
	"jurisprudenta": "materia, massima, summary, reasoning, arguments",
}

func hasIndex(lang string) bool { return stemmers[lang] != nil }
