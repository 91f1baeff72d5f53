package corpus

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// romanianActs names the acts of the Romanian code files (PROVENANCE.md); id is the
// act's page on legislatie.just.ro.
var romanianActs = map[string]struct {
	slug, actType, number string
	year                  int
	title, id             string
}{
	"constitution.json":          {"constitutia-1991", "constituție", "", 1991, "Constituția României", "00000G0NF8LQJNGG75M2SUMLP2PIT6ZP"},
	"civil_code.json":            {"legea-287-2009", "lege", "287", 2009, "Codul civil", "00000G1TT7EZVJJX6870CWN6ZG1TWPAC"},
	"civil_procedure_code.json":  {"legea-134-2010", "lege", "134", 2010, "Codul de procedură civilă", "00000G1NE6WQB9B6WYG13YGXTQETNYA8"},
	"penal_code.json":            {"legea-286-2009", "lege", "286", 2009, "Codul penal", "00000G3RCJVMCPZK1D5301YV9BG07ZE3"},
	"penal_procedure_code.json":  {"legea-135-2010", "lege", "135", 2010, "Codul de procedură penală", "00000G3SGIENTQKF6QX0SUWA2W5Y3ZV3"},
	"fiscal_code.json":           {"legea-227-2015", "lege", "227", 2015, "Codul fiscal", "00000G1ZAKIDCF325CT2OM2WBUU98MOP"},
	"fiscal_procedure_code.json": {"legea-207-2015", "lege", "207", 2015, "Codul de procedură fiscală", "00000G1SA6VV3H1PY8920ESSHWCB3WXT"},
	"labor_code.json":            {"legea-53-2003", "lege", "53", 2003, "Codul muncii", "00000G3RCE89TJASJDO1SWLGVM5I6DWB"},
	"administrative_code.json":   {"oug-57-2019", "ordonanță de urgență", "57", 2019, "Codul administrativ", "00000G26T9IKD8IXCIZ0X39N88WZQ5GJ"},
}

// roArticle is an article object of the Romanian JSON, with the headings of the
// levels it stands in (set by roLevel.articles).
type roArticle struct {
	Name     string `json:"name"`
	Number   int    `json:"number"`
	Text     string `json:"text"`
	headings []string
}

// roLevel is one level of the fixed books/titles/chapters/sections/subsections nesting.
type roLevel struct {
	Name        string      `json:"name"`
	Books       []roLevel   `json:"books"`
	Titles      []roLevel   `json:"titles"`
	Chapters    []roLevel   `json:"chapters"`
	Sections    []roLevel   `json:"sections"`
	Subsections []roLevel   `json:"subsections"`
	Articles    []roArticle `json:"articles"`
}

// articles returns the level's articles in document order, each with headings and
// the names of the levels under l it stands in. The source repeats a level's name in
// the one under it when the code does not divide it ("Dispoziţii generale" as
// chapter, section and subsection): a name is kept once.
func (l roLevel) articles(headings []string) []roArticle {
	out := make([]roArticle, 0, len(l.Articles))
	for _, a := range l.Articles {
		a.headings = headings
		out = append(out, a)
	}
	for _, children := range [][]roLevel{l.Books, l.Titles, l.Chapters, l.Sections, l.Subsections} {
		for _, c := range children {
			under := headings
			if name := cleanLine(c.Name); name != "" && !slices.Contains(headings, name) {
				under = append(slices.Clip(headings), name)
			}
			out = append(out, c.articles(under)...)
		}
	}
	return out
}

var (
	// editorialMark is the "..." a removed editorial note leaves after a paragraph or
	// an item.
	editorialMark = regexp.MustCompile(`[\x{00a0} ]*\.\.\.(?:[\x{00a0} ]+|\n|$)`)
	// embeddedArticle is the header of an article that the source merged into the one
	// before it ("ART.1.251", "Art. 2.367").
	embeddedArticle = regexp.MustCompile(`(?m)^\s*(?:ART\.|Art\.)\s*(\d\.\d{3}|\d+)\s*$`)
	// notATitle are article names that are really the article's first words.
	notATitle   = regexp.MustCompile(`^(\(\d+\)|Articolul \d+$)`)
	threeDigits = regexp.MustCompile(`^\d{3}$`)
)

// loadRomanianCodes reads the Romanian codes. Cedilla letters become comma-below ones,
// editorial "..." marks go, and the source's numbering slips are mended: art. 1074 of
// the civil code stored as number 1 named "074", articles merged into the text of the
// one before, names that are really first paragraphs, and the amendments to other laws
// at the end of the administrative code that repeat real article numbers.
func loadRomanianCodes(f files) ([]Article, error) {
	var out []Article
	for _, name := range f.under("ro-codes-legislatie", ".json") {
		meta, ok := romanianActs[path.Base(name)]
		if !ok {
			return nil, fmt.Errorf("corpus: %s is not a known act", name)
		}
		var root roLevel
		if err := json.Unmarshal(f[name], &root); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", name, err)
		}
		seen := map[int]bool{}
		prev := 0
		for _, a := range splitMerged(root.articles(nil)) {
			a.Text = cleanText(editorialMark.ReplaceAllString(a.Text, "\n"))
			a.Name = cleanLine(editorialMark.ReplaceAllString(a.Name, " "))
			if a.Number == 1 && prev > 1 && threeDigits.MatchString(a.Name) {
				// "1.074" read as 1 and "074": the title is the text's first line.
				a.Number, _ = strconv.Atoi("1" + a.Name)
				a.Name, a.Text, _ = strings.Cut(a.Text, "\n")
				a.Text = strings.TrimSpace(a.Text)
			}
			if notATitle.MatchString(a.Name) || path.Base(name) == "labor_code.json" {
				if !strings.HasPrefix(a.Name, "Articolul ") {
					a.Text = a.Name + "\n" + a.Text
				}
				a.Name = ""
			}
			if seen[a.Number] {
				continue
			}
			seen[a.Number], prev = true, a.Number
			out = append(out, Article{
				DocID: fmt.Sprintf("ro/%s/art-%d", meta.slug, a.Number), Jurisdiction: "ro", Language: "ro",
				ActType: meta.actType, ActNumber: meta.number, ActYear: meta.year, ActTitle: meta.title,
				Article: strconv.Itoa(a.Number), Title: a.Name, Text: a.Text,
				URL: "https://legislatie.just.ro/Public/FormaPrintabila/" + meta.id, InForce: true,
				Headings: a.headings,
			})
		}
	}
	return out, nil
}

// splitMerged separates articles that the source merged into the text of the article
// before them, after a header line such as "Art. 2.367" followed by the title line.
func splitMerged(arts []roArticle) []roArticle {
	var out []roArticle
	for _, a := range arts {
		locs := embeddedArticle.FindAllStringSubmatchIndex(a.Text, -1)
		if len(locs) == 0 {
			out = append(out, a)
			continue
		}
		rest := a.Text
		first := a
		first.Text = strings.TrimSpace(rest[:locs[0][0]])
		out = append(out, first)
		for i, loc := range locs {
			end := len(rest)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			n, _ := strconv.Atoi(strings.ReplaceAll(rest[loc[2]:loc[3]], ".", ""))
			title, text, _ := strings.Cut(strings.TrimSpace(rest[loc[1]:end]), "\n")
			out = append(out, roArticle{Name: title, Number: n, Text: strings.TrimSpace(text), headings: a.headings})
		}
	}
	return out
}
