package corpus

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
)

// heldAct is one act of the corpus: the articles whose doc ids share the prefix id.
type heldAct struct {
	Article
	id          string
	lastArticle int // the highest plain article number
}

// actsOf groups articles into their acts, in the order they first appear.
func actsOf(arts []Article) []heldAct {
	var out []heldAct
	index := map[string]int{}
	for _, a := range arts {
		id := a.DocID[:strings.LastIndex(a.DocID, "/")]
		i, ok := index[id]
		if !ok {
			i = len(out)
			index[id] = i
			out = append(out, heldAct{Article: a, id: id})
		}
		if n, err := strconv.Atoi(a.Article); err == nil && n > out[i].lastArticle {
			out[i].lastArticle = n
		}
	}
	return out
}

// act is an act of the corpus as the citation check reads it, with what its source
// says of it.
type act struct {
	id, title, url string
	lastArticle    int
	complete       bool // the source holds every article of the act
	suffixed       bool // and the articles inserted later ("615-ter", "21^1")
	asOf           string
}

// actForms maps the forms a numbered act is cited by to the corpus's act types.
var actForms = map[string][]string{
	"dlgs":       {"decreto legislativo"},
	"lege":       {"lege"},
	"oug":        {"ordonanță de urgență"},
	"regulation": {"regolamento", "regulament", "regulation"},
}

const actSelect = `SELECT a.act_id, a.act_title, a.url, a.last_article, s.complete, s.suffixed, a.as_of
	FROM acts a JOIN sources s ON s.source = a.source WHERE `

// heldActByID returns the act with id, or ok false when the corpus does not hold it.
func (s *Store) heldActByID(ctx context.Context, id string) (act, bool, error) {
	return s.scanAct(ctx, actSelect+`a.act_id = ?`, id)
}

// heldActByNumber returns the act of a jurisdiction cited by form, number and year, in
// lang when the corpus holds it in several languages (then in English, Italian,
// Romanian), or ok false when the corpus does not hold it.
func (s *Store) heldActByNumber(ctx context.Context, jurisdiction, form, number string, year int, lang string) (act, bool, error) {
	types := actForms[form]
	if len(types) == 0 {
		return act{}, false, nil
	}
	query := actSelect + `a.jurisdiction = ? AND a.act_number = ? AND a.act_type IN (?` + strings.Repeat(`,?`, len(types)-1) + `)`
	args := []any{jurisdiction, strings.TrimLeft(number, "0")}
	for _, t := range types {
		args = append(args, t)
	}
	if year != 0 {
		query += ` AND a.act_year = ?`
		args = append(args, year)
	}
	query += ` ORDER BY CASE a.language WHEN ? THEN 0 WHEN 'en' THEN 1 WHEN 'it' THEN 2 ELSE 3 END, a.act_id LIMIT 1`
	return s.scanAct(ctx, query, append(args, lang)...)
}

func (s *Store) scanAct(ctx context.Context, query string, args ...any) (act, bool, error) {
	var a act
	err := s.db.QueryRowContext(ctx, query, args...).Scan(&a.id, &a.title, &a.url, &a.lastArticle, &a.complete, &a.suffixed, &a.asOf)
	if errors.Is(err, sql.ErrNoRows) {
		return act{}, false, nil
	}
	return a, err == nil, err
}

// articleIn returns an article of a held act, or ok false when the act has none by
// that number.
func (s *Store) articleIn(ctx context.Context, a act, article string) (Article, bool, error) {
	art, err := s.oneArticle(ctx, `SELECT `+articleColumns+` FROM legislatie WHERE doc_id = ?`, a.id+"/art-"+article)
	if errors.Is(err, ErrNoArticle) {
		return Article{}, false, nil
	}
	return art, err == nil, err
}

// sourceAsOf returns the date a source's texts are current as of.
func (s *Store) sourceAsOf(ctx context.Context, source string) (string, error) {
	var asOf string
	err := s.db.QueryRowContext(ctx, `SELECT as_of FROM sources WHERE source = ?`, source).Scan(&asOf)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return asOf, err
}

// ActInfo is what names an act of the corpus.
type ActInfo struct {
	ID, Jurisdiction, Type, Number, Title string
	Year                                  int
}

// Acts returns the corpus's acts of a jurisdiction, in id order.
func (s *Store) Acts(ctx context.Context, jurisdiction string) ([]ActInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT act_id, jurisdiction, act_type, act_number, act_title, act_year FROM acts
		WHERE jurisdiction = ? ORDER BY act_id`, jurisdiction)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ActInfo
	for rows.Next() {
		var a ActInfo
		if err := rows.Scan(&a.ID, &a.Jurisdiction, &a.Type, &a.Number, &a.Title, &a.Year); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
