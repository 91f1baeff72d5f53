package corpus

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The Constitution of the Italian Republic as the corpus holds it.
const (
	costituzioneFile  = "it-costituzione/articoli.csv"
	costituzioneID    = "it/costituzione-1947"
	costituzioneTitle = "Costituzione della Repubblica italiana"
	costituzioneURN   = "urn:nir:stato:costituzione:1947-12-27"
	costituzioneURL   = "https://www.normattiva.it/uri-res/N2Ls?" + costituzioneURN
)

// repealedCost marks an article repealed by a constitutional law: "Abrogato
// dall'articolo 9, comma 2, della legge costituzionale 18 ottobre 2001, n. 3".
var repealedCost = regexp.MustCompile(`^(?i)abrogat[oa]\b`)

// loadCostituzione reads the Constitution in force, one row per article and per
// transitional and final provision (PROVENANCE.md). The articles keep their numbers
// ("art-9"); the provisions, numbered in Roman numerals, are "disp-XII". Articles
// repealed in 2001 are kept, marked not in force. The Constitution's articles have no
// headings, so an article's title is the part, title and section it stands in.
func loadCostituzione(f files) ([]Article, error) {
	data, ok := f[costituzioneFile]
	if !ok {
		return nil, fmt.Errorf("corpus: %s is missing", costituzioneFile)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", costituzioneFile, err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("corpus: %s has no rows", costituzioneFile)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"articolo", "disposizione", "parte", "titolo", "sezione", "testo"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("corpus: %s has no column %q", costituzioneFile, name)
		}
	}
	var out []Article
	for _, r := range rows[1:] {
		number, disp := strings.TrimSpace(r[col["articolo"]]), strings.TrimSpace(r[col["disposizione"]])
		article, key := number, "art-"+number
		if _, err := strconv.Atoi(number); err != nil {
			if disp == "" {
				return nil, fmt.Errorf("corpus: %s: a row with neither an article nor a provision", costituzioneFile)
			}
			article, key = "disp-"+disp, "disp-"+disp
		}
		var parts []string
		for _, c := range []string{"parte", "titolo", "sezione"} {
			if p := cleanLine(r[col[c]]); p != "" {
				parts = append(parts, p)
			}
		}
		text := cleanText(r[col["testo"]])
		// Normattiva addresses the articles ("~art9"), not the provisions.
		url, urn := costituzioneURL, costituzioneURN
		if number == article {
			url, urn = url+"~art"+number, urn+"~art"+number
		}
		out = append(out, Article{
			DocID: costituzioneID + "/" + key, Jurisdiction: "it", Language: "it", ActType: "costituzione", ActNumber: "",
			ActYear: 1947, ActDate: "1947-12-27", ActTitle: costituzioneTitle, Article: article, Title: strings.Join(parts, " — "),
			Text: text, URL: url, URN: urn,
			InForce: !repealedCost.MatchString(text),
		})
	}
	return out, nil
}
