package corpus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// LegalText is the whole text of an article or a decision of the corpus, with what a
// lawyer cites it by and how current it is.
type LegalText struct {
	DocID string
	// Kind is KindArticle or KindDecision.
	Kind string
	// Reference is how a citation of it is written: "art. 1357 Codul civil". A
	// decision's is left to the caller, which cites decisions its own way.
	Reference string
	Title     string
	Text      string
	URL       string
	AsOf      string
	InForce   bool
	// Decision is the decision, for KindDecision.
	Decision Decision
}

// ErrNoDocument means the corpus holds no article or decision with that doc_id.
var ErrNoDocument = errors.New("no article or decision with that doc_id in the corpus")

// LegalTextByID returns the article or the decision of a doc_id, or ErrNoDocument.
func (s *Store) LegalTextByID(ctx context.Context, docID string) (LegalText, error) {
	art, err := s.ArticleByID(ctx, docID)
	switch {
	case err == nil:
		return s.articleText(ctx, art)
	case !errors.Is(err, ErrNoArticle):
		return LegalText{}, err
	}
	var d Decision
	err = s.db.QueryRowContext(ctx, `SELECT doc_id, jurisdiction, language, kind, court, section, number, year, date, ecli,
		materia, massima, summary, full_text, url, source FROM jurisprudenta WHERE doc_id = ?`, docID).Scan(
		&d.DocID, &d.Jurisdiction, &d.Language, &d.Kind, &d.Court, &d.Section, &d.Number, &d.Year, &d.Date, &d.ECLI,
		&d.Materia, &d.Massima, &d.Summary, &d.FullText, &d.URL, &d.Source)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return LegalText{}, ErrNoDocument
	case err != nil:
		return LegalText{}, err
	}
	asOf, err := s.sourceAsOf(ctx, d.Source)
	if err != nil {
		return LegalText{}, err
	}
	return LegalText{DocID: d.DocID, Kind: KindDecision, Title: d.Massima, Text: decisionText(d), URL: d.URL,
		AsOf: asOf, InForce: true, Decision: d}, nil
}

// articleText gives an article its act's reference and date.
func (s *Store) articleText(ctx context.Context, art Article) (LegalText, error) {
	actID := art.DocID[:strings.LastIndex(art.DocID, "/")]
	a, _, err := s.heldActByID(ctx, actID)
	if err != nil {
		return LegalText{}, err
	}
	title := art.Title
	if title == "" {
		title = art.ActTitle
	}
	return LegalText{DocID: art.DocID, Kind: KindArticle, Reference: ArticleReference(art), Title: title, Text: art.Text,
		URL: art.URL, AsOf: a.asOf, InForce: art.InForce}, nil
}

// titleNote is an act title's closing parenthesis: "(Codice Privacy)".
var titleNote = regexp.MustCompile(`\s*\([^()]*\)$`)

// ArticleReference cites an article as the citation check reads it: "art. 2043 Codice
// Civile", "art. 82 Regulation (EU) 2016/679", "art. 2 D.Lgs. 231/2001".
func ArticleReference(a Article) string {
	name := titleNote.ReplaceAllString(a.ActTitle, "")
	if a.ActType == "decreto legislativo" {
		name = fmt.Sprintf("D.Lgs. %s/%d", a.ActNumber, a.ActYear)
	}
	return "art. " + a.Article + " " + name
}

// decisionText is a decision's texts as one: its maxim, its summary and its full text,
// leaving out a part another holds already (a full text often repeats its maxim).
func decisionText(d Decision) string {
	all := []string{strings.TrimSpace(d.Massima), strings.TrimSpace(d.Summary), strings.TrimSpace(d.FullText)}
	var parts []string
	for i, p := range all {
		held := p == ""
		for j, q := range all {
			held = held || (j != i && strings.Contains(q, p) && (len(q) > len(p) || j < i))
		}
		if !held {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n\n")
}
