package corpus

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// cassazioneCourt is the court of every card.
const cassazioneCourt = "Corte Suprema di Cassazione"

// loadCassazione reads the Cassazione penale cards: YAML front matter and a Markdown
// body with the official massima and the "esito in sintesi". Question cards (QSP_) are
// questions referred to the Sezioni Unite, kept as kind "questione SU" with the
// question as their massima. The full judgments exist only as PDFs, linked by URL.
func loadCassazione(f files) ([]Decision, error) {
	var out []Decision
	for _, name := range f.under("it-cassazione/SEGNALATE", ".md") {
		base := path.Base(name)
		if base == "INDICE.md" {
			continue
		}
		meta, body, err := frontMatter(string(f[name]))
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", name, err)
		}
		sections := markdownSections(body)
		year, _ := strconv.Atoi(meta["anno"])
		d := Decision{Jurisdiction: "it", Language: "it", Court: cassazioneCourt, Year: year, URL: meta["url_scheda"]}
		if strings.HasPrefix(base, "QSP_") {
			d.DocID = "it/cass/qsp-" + strings.ReplaceAll(meta["rg"], "/", "-")
			d.Kind, d.Section, d.Number = "questione SU", "Sezioni Unite", meta["rg"]
			d.Date = meta["data_udienza"]
			d.Massima = blockquote(sections["Quesito"])
			d.Summary = strings.TrimSpace(sections["Riferimenti normativi"])
		} else {
			d.DocID = fmt.Sprintf("it/cass/%s-%s", meta["numero"], meta["anno"])
			d.Kind, d.Section, d.Number = meta["tipo"], meta["sezione"], meta["numero"]
			d.Date, d.Materia = meta["data_deposito"], meta["materia"]
			d.Massima = blockquote(sections["Massima ufficiale (Oggetto)"])
			if s := strings.TrimSpace(sections["L'esito in sintesi"]); s != "." {
				d.Summary = cleanText(s)
			}
		}
		d.FullText = strings.TrimSpace(d.Massima + "\n\n" + d.Summary)
		out = append(out, d)
	}
	return out, nil
}

// frontMatter splits a Markdown file into its flat YAML front matter (key: value lines,
// quotes removed, null as empty) and its body.
func frontMatter(s string) (map[string]string, string, error) {
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return nil, "", fmt.Errorf("no front matter")
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, "", fmt.Errorf("front matter not closed")
	}
	meta := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if v == "null" || v == "~" {
			v = ""
		}
		meta[strings.TrimSpace(k)] = strings.Trim(v, `"'`)
	}
	return meta, body, nil
}

// markdownSections returns the text under each "## " heading.
func markdownSections(body string) map[string]string {
	out := map[string]string{}
	var heading string
	var b strings.Builder
	flush := func() {
		if heading != "" {
			out[heading] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.Split(body, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			heading = strings.TrimSpace(h)
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	return out
}

// blockquote returns the text of a Markdown blockquote; an empty quote line separates
// paragraphs.
func blockquote(s string) string {
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		if q, ok := strings.CutPrefix(line, ">"); ok {
			lines = append(lines, strings.TrimSpace(q))
		}
	}
	return cleanText(strings.Join(lines, "\n"))
}
