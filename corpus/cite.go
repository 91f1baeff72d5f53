package corpus

import (
	"context"
	"strconv"
	"strings"
)

// What a citation cites.
const (
	KindArticle  = "article"
	KindAct      = "act"
	KindDecision = "decision"
)

// What the corpus says of a citation.
const (
	// StatusVerified: the corpus holds what it cites, and any quotation attached is
	// in the cited text.
	StatusVerified = "verified"
	// StatusNotFound: the corpus holds the whole act and it has no such article, or it
	// holds the cited decision and the citation contradicts it.
	StatusNotFound = "not_found"
	// StatusUnknownSource: the corpus does not hold the source, or holds only part of
	// it, so nothing can be said. Unavailable is not nonexistent.
	StatusUnknownSource = "unknown_source"
	// StatusRepealed: the corpus holds the article and it has been repealed.
	StatusRepealed = "repealed"
	// StatusMisquoted: the quotation attached is not in the cited text.
	StatusMisquoted = "misquoted"
)

// Citation is one legal citation found in a text, checked against the corpus.
type Citation struct {
	Text   string
	Kind   string
	Status string
	// RefersTo names the act or court the citation was read as, e.g. "Codice di
	// procedura civile": a citation the corpus cannot check still says what it cites.
	RefersTo string
	// Article is the cited article's number, for an article citation.
	Article string
	DocID   string
	URL     string
	// InForce is false for an article of the corpus that has been repealed; it
	// means nothing when the corpus does not hold the article.
	InForce bool
	// AsOf is the date the corpus's text of the source is current as of.
	AsOf string
	// Quote is the quotation attached to the citation, when it was checked, and
	// Passage the closest passage of the cited text when it is misquoted.
	Quote   string
	Passage string
	// Start and End locate Text in the checked text, in bytes. The articles of a
	// list ("artt. 81 e 110 c.p.") share them.
	Start int
	End   int
}

// Verified reports whether the corpus confirms the citation.
func (c Citation) Verified() bool { return c.Status == StatusVerified }

// Held reports whether the corpus holds what the citation cites.
func (c Citation) Held() bool { return c.DocID != "" }

// MaxCitations bounds the citations one text gives: a hostile text of thousands would
// cost a lookup each, and an answer too large to carry.
const MaxCitations = 500

// CheckCitations finds the legal citations of text, written in lang ("ro", "it" or
// "en", which settles abbreviations both Italian and Romanian lawyers use), and checks
// each against the corpus: that the act or decision is there, the article exists and
// is in force, and any quotation attached is in its text. It checks the first
// MaxCitations.
func (s *Store) CheckCitations(ctx context.Context, text, lang string) ([]Citation, error) {
	return s.CheckCitationsWith(ctx, text, lang, nil)
}

// Current gives an article's current text, kept apart from the corpus (read from an
// official service), and the date it is current as of, or ok false when none is kept.
type Current func(ctx context.Context, docID string) (text, asOf string, ok bool, err error)

// CheckCitationsWith is CheckCitations reading each held article's current text from
// current first, when current is not nil: a quotation is checked against it, and
// as_of is its date.
func (s *Store) CheckCitationsWith(ctx context.Context, text, lang string, current Current) ([]Citation, error) {
	refs := findReferences(text, lang)
	quotes := newQuotations(text, refs)
	out := []Citation{}
	for i, r := range refs {
		if len(out) >= MaxCitations {
			break
		}
		base := Citation{Text: strings.TrimSpace(text[r.start:r.end]), Kind: r.kind, Start: r.start, End: r.end}
		var cits []Citation
		var cited []string
		var err error
		switch r.kind {
		case KindArticle:
			cits, cited, err = s.resolveArticles(ctx, base, r.act, r.articles[:min(len(r.articles), MaxCitations-len(out))], current)
		case KindAct:
			err = s.resolveAct(ctx, &base, r.act)
			cits = []Citation{base}
		case KindDecision:
			var body string
			body, err = s.resolveDecision(ctx, &base, r.decision)
			cits, cited = []Citation{base}, []string{body}
		}
		if err != nil {
			return nil, err
		}
		if quote, ok := quotes.of(i); ok {
			quotes.check(cits, cited, quote)
		}
		out = append(out, cits...)
	}
	return out, nil
}

// actOf returns the act of the corpus a name cites, or ok false.
func (s *Store) actOf(ctx context.Context, name actName) (act, bool, error) {
	switch {
	case name.id != "":
		return s.heldActByID(ctx, name.id)
	case name.form != "":
		return s.heldActByNumber(ctx, name.jurisdiction, name.form, name.number, name.year, name.lang)
	}
	return act{}, false, nil
}

// resolveAct checks the citation of a whole act.
func (s *Store) resolveAct(ctx context.Context, c *Citation, name actName) error {
	c.RefersTo, c.Status = name.name, StatusUnknownSource
	a, ok, err := s.actOf(ctx, name)
	if !ok {
		return err
	}
	c.RefersTo, c.Status, c.DocID, c.URL, c.AsOf, c.InForce = a.title, StatusVerified, a.id, a.url, a.asOf, true
	return nil
}

// resolveArticles checks the citations of the articles of one act, asking for the act
// once, and returns each article's text: its current one, when current keeps it.
func (s *Store) resolveArticles(ctx context.Context, base Citation, name actName, articles []string, current Current) ([]Citation, []string, error) {
	base.RefersTo, base.Status = name.name, StatusUnknownSource
	a, held, err := s.actOf(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	if held {
		base.RefersTo, base.AsOf = a.title, a.asOf
	}
	cits := make([]Citation, 0, len(articles))
	texts := make([]string, 0, len(articles))
	for _, n := range articles {
		c := base
		c.Article = n
		var text string
		if held {
			art, ok, err := s.articleIn(ctx, a, n)
			switch {
			case err != nil:
				return nil, nil, err
			case !ok:
				c.Status, c.URL = absentArticle(a, n), a.url
			default:
				c.Status, c.DocID, c.URL, c.InForce, text = StatusVerified, art.DocID, art.URL, art.InForce, art.Text
				if !art.InForce {
					c.Status = StatusRepealed
				}
				if current != nil {
					t, asOf, ok, err := current(ctx, art.DocID)
					if err != nil {
						return nil, nil, err
					}
					if ok {
						text, c.AsOf = t, asOf
					}
				}
			}
		}
		cits, texts = append(cits, c), append(texts, text)
	}
	return cits, texts, nil
}

// absentArticle says what an article's absence from a held act means. Only a source
// that holds the whole act can disprove an article: a plain number past the act's
// last, or a suffixed one ("2043-bis") when the source keeps suffixed articles. A plain
// number within the act that the source lacks is a gap in the source, not proof.
func absentArticle(a act, article string) string {
	n, err := strconv.Atoi(article)
	switch {
	case !a.complete:
		return StatusUnknownSource
	case err == nil && n > a.lastArticle:
		return StatusNotFound
	case err != nil && a.suffixed:
		return StatusNotFound
	}
	return StatusUnknownSource
}

// resolveDecision checks the citation of a court decision and returns the decision's
// texts.
func (s *Store) resolveDecision(ctx context.Context, c *Citation, name decisionName) (string, error) {
	c.RefersTo, c.Status = name.court, StatusUnknownSource
	var cond string
	var args []any
	switch {
	case name.ecli != "":
		c.RefersTo = "ECLI"
		cond, args = `ecli = ?`, []any{name.ecli}
	case name.rejust != "":
		c.RefersTo = "ReJust"
		cond, args = `doc_id = ?`, []any{RejustDocPrefix + name.rejust}
	case name.court == courtCassazione && name.branch != "civ" && name.year != "":
		// The questions referred to the Sezioni Unite carry their number as "N/YYYY".
		cond, args = `jurisdiction = 'it' AND (number = ? OR number = ?) AND year = ?`, []any{name.number, name.number + "/" + name.year, name.year}
	case name.court == courtICCJ || strings.HasPrefix(name.court, "Curtea de Apel "):
		cond, args = `jurisdiction = 'ro' AND number = ?`, []any{name.number}
	default:
		return "", nil
	}
	decs, err := s.decisions(ctx, cond, args...)
	if err != nil {
		return "", err
	}
	for _, d := range decs {
		if name.court != courtCassazione && name.ecli == "" && name.rejust == "" && Fold(d.Court) != Fold(name.court) {
			continue // Romanian courts number their decisions each on its own
		}
		if name.section != "" && name.section != d.Section {
			if name.branch == "pen" {
				c.Status, c.RefersTo = StatusNotFound, d.Court+", "+d.Section
			}
			continue
		}
		if c.AsOf, err = s.sourceAsOf(ctx, d.Source); err != nil {
			return "", err
		}
		c.Status, c.RefersTo, c.DocID, c.URL, c.InForce = StatusVerified, d.Court, d.DocID, d.URL, true
		return d.Massima + "\n" + d.Summary + "\n" + d.FullText, nil
	}
	return "", nil
}

// decisions returns the decisions a condition selects.
func (s *Store) decisions(ctx context.Context, cond string, args ...any) ([]Decision, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT doc_id, court, section, url, massima, summary, full_text, source
		FROM jurisprudenta WHERE `+cond+` ORDER BY rowid`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.DocID, &d.Court, &d.Section, &d.URL, &d.Massima, &d.Summary, &d.FullText, &d.Source); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
