package corpus

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Citation is one legal citation found in a text, checked against the corpus.
type Citation struct {
	Text     string `json:"text"`
	Verified bool   `json:"verified"`
	DocID    string `json:"doc_id,omitempty"`
	URL      string `json:"url,omitempty"`
	// InForce is false for a verified article that has been repealed.
	InForce bool `json:"in_force"`
	// Start and End locate Text in the checked text, in bytes.
	Start int `json:"-"`
	End   int `json:"-"`
}

// The citation forms the checker recognizes.
var (
	artNum = `(\d+(?:[-\s]?(?:bis|ter|quater|quinquies|sexies|septies|octies|novies|decies))?(?:\^\d+)?)`
	// "art. 2043 c.c.", "articolo 575 del codice penale", "art. 1357 Cod civil",
	// "articolul 1 din Constituția României".
	citeCodeArticle = regexp.MustCompile(`(?i)\bart(?:icolo|icolul|icle|\.)?\s*` + artNum + `\s*,?\s*(?:(?:del(?:l[ao])?|din|of the)\s+)?` +
		`(c\.\s?c\.|c\.\s?p\.|cod\.\s?civ\.|cod\.\s?pen\.|codice civile|codice penale|(?:noul\s+)?cod(?:ul)?\s+(?:civil|penal|muncii|fiscal|administrativ|de\s+procedur[aă]\s+(?:civil[aă]|penal[aă]|fiscal[aă]))|constitu[tț]i[ae](?:\s+rom[aâ]niei)?)`)
	// "art. 5 d.lgs. 231/2001", "art. 5 del D.Lgs. n. 231/2001".
	citeDlgsArticle = regexp.MustCompile(`(?i)\bart(?:icolo|\.)?\s*` + artNum + `\s*(?:del\s+)?d\.\s?lgs\.?\s*(?:n\.\s*)?(\d+)/(\d{4})`)
	// "Regolamento (UE) 2016/679, art. 17", "Regulation (EU) 2016/679, Article 17".
	citeEUAfter = regexp.MustCompile(`(?i)\b(regolamento|regulation|regulamentul|regulamentului)\s*\((?:ue|eu)\)\s*(?:n\.\s*|nr\.\s*)?(\d{4})/(\d+)\s*,?\s*(?:art(?:icolo|icolul|icle|\.)?)\s*(\d+)`)
	// "art. 17 del Regolamento (UE) 2016/679", "art. 17 GDPR".
	citeEUBefore = regexp.MustCompile(`(?i)\bart(?:icolo|icolul|icle|\.)?\s*(\d+)\s*,?\s*(?:(?:del|din|of)\s+(?:the\s+)?)?(?:(regolamento|regulation|regulamentul|regulamentului)\s*\((?:ue|eu)\)\s*(?:n\.\s*|nr\.\s*)?(\d{4})/(\d+)|(gdpr|rgpd))`)
	// "Legea nr. 287/2009".
	citeRoLaw = regexp.MustCompile(`(?i)\blegea\s+(?:nr\.\s*)?(\d+)/(\d{4})`)
	// "Cass. pen., Sez. VI, n. 10387/2025", "Cass., Sez. Un., n. 12759/2024".
	citeCass = regexp.MustCompile(`(?i)\bcass(?:azione)?\.?\s*(?:pen\.|penale)?\s*,?\s*(?:sez\.\s*([ivx]+|un\.?|unite|u)\s*\.?\s*,?\s*)?n\.\s*(\d+)/(\d{4})`)
	// "Decizia nr. 11/2023", "decizia nr. 724/2021".
	citeRoDecision = regexp.MustCompile(`(?i)\b(?:decizia|decizie|sentin[tț]a|hot[aă]r[aâ]rea)\s+(?:civil[aă]\s+)?nr\.\s*(\d+)/(\d{4})`)
)

// euLanguages tells an EU act citation's language by the word used.
var euLanguages = map[string]string{"regolamento": "it", "regulation": "en", "regulamentul": "ro", "regulamentului": "ro"}

// romanSection turns "VI" into the corpus's "Sesta", "U" into "Sezioni Unite".
var romanSection = map[string]string{"i": "Prima", "ii": "Seconda", "iii": "Terza", "iv": "Quarta", "v": "Quinta",
	"vi": "Sesta", "vii": "Settima", "u": "Sezioni Unite", "un": "Sezioni Unite", "un.": "Sezioni Unite", "unite": "Sezioni Unite"}

// CheckCitations finds the legal citations in text and resolves each against the
// corpus: articles of codes and of the GDPR, Romanian laws, Cassazione and Romanian
// decisions. A citation is verified when the corpus holds what it cites. Overlapping
// matches keep the first and longest.
func (s *Store) CheckCitations(ctx context.Context, text string) ([]Citation, error) {
	type finder struct {
		re      *regexp.Regexp
		resolve func(m []string) (Article, Decision, error)
	}
	finders := []finder{
		{citeEUAfter, func(m []string) (Article, Decision, error) {
			return s.euCited(ctx, m[2], m[3], m[4], euLanguages[strings.ToLower(m[1])])
		}},
		{citeEUBefore, func(m []string) (Article, Decision, error) {
			if m[5] != "" { // GDPR
				return s.euCited(ctx, "2016", "679", m[1], "")
			}
			return s.euCited(ctx, m[3], m[4], m[1], euLanguages[strings.ToLower(m[2])])
		}},
		{citeDlgsArticle, func(m []string) (Article, Decision, error) {
			a, err := s.ArticleOf(ctx, ActRef{Type: "d.lgs", Number: m[2], Date: m[3]}, m[1])
			return a, Decision{}, err
		}},
		{citeCodeArticle, func(m []string) (Article, Decision, error) {
			a, err := s.ArticleOf(ctx, ActRef{Type: m[2]}, m[1])
			return a, Decision{}, err
		}},
		{citeRoLaw, func(m []string) (Article, Decision, error) {
			return s.actArticle(ctx, `jurisdiction = 'ro' AND act_type = 'lege' AND act_number = ? AND act_year = ?`, m[1], m[2])
		}},
		{citeCass, func(m []string) (Article, Decision, error) {
			d, err := s.decision(ctx, `jurisdiction = 'it' AND number = ? AND year = ?`, m[2], m[3])
			if err == nil && m[1] != "" && romanSection[strings.ToLower(m[1])] != d.Section {
				err = ErrNoArticle
			}
			return Article{}, d, err
		}},
		{citeRoDecision, func(m []string) (Article, Decision, error) {
			d, err := s.decision(ctx, `jurisdiction = 'ro' AND number = ?`, m[1]+"/"+m[2])
			return Article{}, d, err
		}},
	}
	var out []Citation
	taken := func(start, end int) bool {
		return slices.ContainsFunc(out, func(c Citation) bool { return start < c.End && c.Start < end })
	}
	for _, f := range finders {
		for _, loc := range f.re.FindAllStringSubmatchIndex(text, -1) {
			if taken(loc[0], loc[1]) {
				continue
			}
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = text[loc[2*i]:loc[2*i+1]]
				}
			}
			c := Citation{Text: strings.TrimSpace(m[0]), Start: loc[0], End: loc[1]}
			art, dec, err := f.resolve(m)
			switch {
			case err == nil && art.DocID != "":
				c.Verified, c.DocID, c.URL, c.InForce = true, art.DocID, art.URL, art.InForce
			case err == nil && dec.DocID != "":
				c.Verified, c.DocID, c.URL, c.InForce = true, dec.DocID, dec.URL, true
			case err != nil && !errors.Is(err, ErrNoArticle) && !errors.Is(err, ErrNoAct):
				return nil, err
			}
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b Citation) int { return a.Start - b.Start })
	return out, nil
}

// euCited resolves an EU article citation, in lang or, when it is empty, any language.
func (s *Store) euCited(ctx context.Context, year, number, article, lang string) (Article, Decision, error) {
	y, _ := strconv.Atoi(year)
	n, _ := strconv.Atoi(number)
	for _, l := range []string{lang, "en", "it", "ro"} {
		if l == "" {
			continue
		}
		a, err := s.EUArticle(ctx, y, n, article, l)
		if !errors.Is(err, ErrNoArticle) {
			return a, Decision{}, err
		}
	}
	return Article{}, Decision{}, ErrNoArticle
}

// actArticle returns the first article of the act a condition selects.
func (s *Store) actArticle(ctx context.Context, cond string, args ...any) (Article, Decision, error) {
	a, err := s.oneArticle(ctx, `SELECT `+articleColumns+` FROM legislatie WHERE `+cond+` ORDER BY rowid LIMIT 1`, args...)
	return a, Decision{}, err
}

// decision returns the first decision a condition selects.
func (s *Store) decision(ctx context.Context, cond string, args ...any) (Decision, error) {
	var d Decision
	err := s.db.QueryRowContext(ctx, `SELECT doc_id, section, url FROM jurisprudenta WHERE `+cond+` ORDER BY rowid LIMIT 1`, args...).
		Scan(&d.DocID, &d.Section, &d.URL)
	if errors.Is(err, sql.ErrNoRows) {
		return Decision{}, ErrNoArticle
	}
	return d, err
}

// MarkUnverified writes label after every citation of text that is not verified, so
// that no unverified citation passes silently.
func MarkUnverified(text string, cits []Citation, label string) string {
	var b strings.Builder
	last := 0
	for _, c := range cits {
		if c.Verified || c.Start < last {
			continue
		}
		end := c.Start + len(strings.TrimRight(text[c.Start:c.End], " "))
		b.WriteString(text[last:end])
		b.WriteString(" " + label)
		last = end
	}
	b.WriteString(text[last:])
	return b.String()
}
