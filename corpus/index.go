package corpus

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/corpus/plain"
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
//
// Both kinds of index end with a words column: the everyday words clients use for
// what the text governs (package plain, and for articles the glossary's client
// words, clientWords). A text's plain words in another language stand in that
// language's index under the text's rowid, as a row with the words column alone.
func analysedSchema() string {
	var b strings.Builder
	for _, lang := range Languages {
		fmt.Fprintf(&b, `CREATE VIRTUAL TABLE %s USING fts5(act_title, title, text, headings, words, content='', tokenize='unicode61');
CREATE VIRTUAL TABLE %s USING fts5(materia, massima, summary, reasoning, arguments, words, content='', tokenize='unicode61');
`, articleIndex(lang), decisionIndex(lang))
	}
	return b.String()
}

func articleIndex(lang string) string  { return "legislatie_" + lang }
func decisionIndex(lang string) string { return "jurisprudenta_" + lang }

// fillAnalysed writes the analysed indexes of the rows just inserted, in the order
// they were inserted (their rowids are 1, 2, ... in each table).
func fillAnalysed(ctx context.Context, tx *sql.Tx, as analyzers, arts []Article, decs []Decision) error {
	analyse := func(lang, text string) string {
		return strings.Join(as.of(lang).terms(text, nil), " ")
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
	plainWords, err := plain.Default()
	if err != nil {
		return err
	}
	// A text's plain words in another language than its own stand in that language's
	// index as a row of words alone (the other columns empty; words is the last of
	// both kinds of index), so that a client asking in it meets the text.
	translated := func(index func(string) string, columns, rowid int, docID, own string) error {
		for _, lang := range plain.Langs {
			text := plainWords[docID][lang]
			if text == "" || lang == own || !hasIndex(lang) {
				continue
			}
			args := make([]any, columns)
			for c := range args {
				args[c] = ""
			}
			args[columns-1] = analyse(lang, text)
			if err := insert(index(lang), append([]any{rowid}, args...)...); err != nil {
				return fmt.Errorf("index %s in %s: %w", docID, lang, err)
			}
		}
		return nil
	}
	articleColumns, decisionColumns := columnCount("legislatie"), columnCount("jurisprudenta")
	for i, a := range arts {
		if !hasIndex(a.Language) {
			continue
		}
		own := words.of(a) + " ; " + plainWords[a.DocID][a.Language]
		if err := insert(articleIndex(a.Language), i+1, analyse(a.Language, a.ActTitle), analyse(a.Language, a.Title),
			analyse(a.Language, a.Text), analyse(a.Language, strings.Join(a.Headings, " ; ")), analyse(a.Language, own)); err != nil {
			return fmt.Errorf("index %s: %w", a.DocID, err)
		}
		if err := translated(articleIndex, articleColumns, i+1, a.DocID, a.Language); err != nil {
			return err
		}
	}
	for i, d := range decs {
		if !hasIndex(d.Language) {
			continue
		}
		reasoning, arguments := decisionParts(d)
		if err := insert(decisionIndex(d.Language), i+1, analyse(d.Language, d.Materia), analyse(d.Language, d.Massima),
			analyse(d.Language, d.Summary), analyse(d.Language, reasoning), analyse(d.Language, arguments),
			analyse(d.Language, plainWords[d.DocID][d.Language])); err != nil {
			return fmt.Errorf("index %s: %w", d.DocID, err)
		}
		if err := translated(decisionIndex, decisionColumns, i+1, d.DocID, d.Language); err != nil {
			return err
		}
	}
	return nil
}

// indexColumns are the columns of each kind of analysed index, by its tables' prefix,
// as analysedSchema creates them; each ends with words (TestIndexesEndWithWords).
var indexColumns = map[string]string{
	"legislatie":    "act_title, title, text, headings, words",
	"jurisprudenta": "materia, massima, summary, reasoning, arguments, words",
}

// columnCount is how many columns a kind of analysed index has (indexColumns).
func columnCount(kind string) int { return strings.Count(indexColumns[kind], ",") + 1 }

func hasIndex(lang string) bool { return stemmers[lang] != nil }
