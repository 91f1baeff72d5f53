package corpus

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// gdprActs describes Regulation (EU) 2016/679 in each language of the corpus.
var gdprActs = map[string]struct{ actType, title string }{
	"en": {"regulation", "Regulation (EU) 2016/679 (General Data Protection Regulation)"},
	"it": {"regolamento", "Regolamento (UE) 2016/679 (regolamento generale sulla protezione dei dati)"},
	"ro": {"regulament", "Regulamentul (UE) 2016/679 (Regulamentul general privind protecția datelor)"},
}

// loadGDPR reads the GDPR's articles from the consolidated Formex XML files, which carry
// the 2018 corrigendum; the original/ files are the uncorrected 2016 text.
func loadGDPR(f files) ([]Article, error) {
	var out []Article
	for _, lang := range []string{"en", "it", "ro"} {
		name := "eu-gdpr-xml/consolidated-with-corrected-preamble/gdpr-consolidated-with-corrected-preamble-" + lang + ".xml"
		data, ok := f[name]
		if !ok {
			return nil, fmt.Errorf("corpus: %s is missing", name)
		}
		arts, err := formexArticles(data)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", name, err)
		}
		act := gdprActs[lang]
		for _, a := range arts {
			out = append(out, Article{
				DocID: fmt.Sprintf("eu/32016R0679/%s/art-%d", lang, a.number), Jurisdiction: "eu", Language: lang,
				ActType: act.actType, ActNumber: "679", ActYear: 2016, ActDate: "2016-04-27", ActTitle: act.title,
				Article: strconv.Itoa(a.number), Title: a.title, Text: a.text,
				URL:   "https://eur-lex.europa.eu/legal-content/" + strings.ToUpper(lang) + "/TXT/?uri=CELEX:32016R0679",
				CELEX: "32016R0679", InForce: true,
			})
		}
	}
	return out, nil
}

// formexArticle is one ARTICLE element: its number, heading (STI.ART) and text.
type formexArticle struct {
	number      int
	title, text string
}

// blockEnd are the Formex elements after which a line ends, so that texts written on one
// line ("1.This Regulation") come apart.
var blockEnd = map[string]bool{"NO.PARAG": false, "ALINEA": true, "P": true, "NO.P": false, "TXT": true, "ITEM": true,
	"PREFIX": false, "TERM": false, "DEFINITION": true, "PARAG": true}

// formexArticles walks a Formex document and returns its articles. Footnotes (NOTE) are
// left out, page markers ignored, and empty QUOT.START/QUOT.END elements become the
// quotation marks their CODE names.
func formexArticles(data []byte) ([]formexArticle, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var out []formexArticle
	var cur *formexArticle
	var b strings.Builder
	var field string // "TI.ART", "STI.ART" or "" for the body
	skip := 0        // depth inside NOTE
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			switch {
			case skip > 0 || name == "NOTE":
				skip++
			case name == "ARTICLE":
				id := attr(t, "IDENTIFIER")
				n, err := strconv.Atoi(strings.TrimLeft(id, "0"))
				if err != nil {
					return nil, fmt.Errorf("article identifier %q", id)
				}
				cur = &formexArticle{number: n}
				b.Reset()
			case cur != nil && (name == "TI.ART" || name == "STI.ART"):
				field = name
				b.Reset()
			case cur != nil && (name == "QUOT.START" || name == "QUOT.END"):
				if r, err := strconv.ParseInt(attr(t, "CODE"), 16, 32); err == nil {
					b.WriteRune(rune(r))
				}
			}
		case xml.EndElement:
			name := t.Name.Local
			switch {
			case skip > 0:
				skip--
			case cur == nil:
			case name == "TI.ART":
				field = ""
				b.Reset()
			case name == "STI.ART":
				cur.title = cleanLine(b.String())
				field = ""
				b.Reset()
			case name == "ARTICLE":
				cur.text = cleanText(b.String())
				out = append(out, *cur)
				cur = nil
			case field == "":
				if newline, ok := blockEnd[name]; ok {
					if newline {
						b.WriteString("\n")
					} else {
						b.WriteString(" ")
					}
				}
			}
		case xml.CharData:
			if cur != nil && skip == 0 {
				b.WriteString(anySpace.ReplaceAllString(string(t), " "))
			}
		}
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
