package draft

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// pdfText extracts the text of pdf with poppler's pdftotext, one string per page. With
// layout, the text keeps its place on the page (columns of tables stay apart); without,
// words keep their own spacing.
func pdfText(t *testing.T, pdf []byte, layout bool) []string {
	t.Helper()
	args := []string{writePDF(t, pdf), "-"}
	if layout {
		args = append([]string{"-layout"}, args...)
	}
	out, err := exec.Command(poppler(t, "pdftotext"), args...).Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(string(out), "\f")
	return pages[:len(pages)-1] // pdftotext ends every page with a form feed
}

// poppler returns the path of a poppler-utils command, failing the test if it is missing.
func poppler(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed: `make test` installs poppler-utils (apt-get install -y poppler-utils)", name)
	}
	return path
}

func writePDF(t *testing.T, pdf []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "draft.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func render(t *testing.T, markdown string) []byte {
	t.Helper()
	pdf, err := Render(markdown, Options{Title: "Test"})
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

// fonts lists the fonts pdf uses, as poppler's pdffonts names them.
func fonts(t *testing.T, pdf []byte) []string {
	t.Helper()
	out, err := exec.Command(poppler(t, "pdffonts"), writePDF(t, pdf)).Output()
	if err != nil {
		t.Fatalf("pdffonts: %v", err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n")[2:] {
		if f := strings.Fields(l); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

const everything = `# Cerere de chemare în judecată

## Părțile

### Reclamantul

#### Domiciliul

Românește: ă â î ș ț Ă Â Î Ș Ț
Italiano: à è é ì ò ù

Text cu **aldine**, *cursive*, ***aldine cursive***, ` + "`cod`" + ` și [o legătură](https://example.org/lege).  
După o trecere forțată la rând.

- primul punct
- al doilea punct
  1. subpunct numerotat
  2. alt subpunct

> Citat din Codul civil.

| Nr. | Descriere | Sumă |
|---|---|---:|
| 1 | Factură neachitată | 1.200,00 |
| 2 | Penalități de întârziere | 345,50 |

` + "```\nfunc main() {}\n```" + `

---

Sfârșit.
`

func TestRenderPrintsEverything(t *testing.T) {
	pdf := render(t, everything)
	pages := pdfText(t, pdf, true)
	if len(pages) != 1 {
		t.Fatalf("got %d pages, want 1", len(pages))
	}
	for _, want := range []string{
		"Cerere de chemare în judecată", "Părțile", "Reclamantul", "Domiciliul",
		// A soft line break joins the two lines into one paragraph.
		"Românește: ă â î ș ț Ă Â Î Ș Ț Italiano: à è é ì ò ù",
		"Text cu aldine, cursive, aldine cursive, cod și o legătură.\nDupă o trecere forțată la rând.",
		"• primul punct", "• al doilea punct", "1. subpunct numerotat", "2. alt subpunct",
		"Citat din Codul civil.",
		"Nr.", "Descriere", "Sumă", "Factură neachitată", "1.200,00", "Penalități de întârziere", "345,50",
		"func main() {}",
		"Sfârșit.",
	} {
		if !strings.Contains(pages[0], want) {
			t.Errorf("text lacks %q:\n%s", want, pages[0])
		}
	}
	if got, want := fonts(t, pdf), []string{"utf8go", "utf8goB", "utf8goBI", "utf8goI", "utf8gomono"}; !sameSet(got, want) {
		t.Errorf("fonts = %v, want %v (regular, bold, bold italic, italic and mono text)", got, want)
	}
	if !bytes.Contains(pdf, []byte("(https://example.org/lege)")) {
		t.Error("the PDF has no link to https://example.org/lege")
	}
	if got := fonts(t, render(t, "Doar text simplu.")); !sameSet(got, []string{"utf8go"}) {
		t.Errorf("plain text uses fonts %v, want only utf8go", got)
	}
}

func sameSet(a, b []string) bool {
	set := func(xs []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	return reflect.DeepEqual(set(a), set(b))
}

func TestRenderNumbersPages(t *testing.T) {
	var md strings.Builder
	for i := range 60 {
		fmt.Fprintf(&md, "Paragraful %d al documentului.\n\n", i+1)
	}
	pages := pdfText(t, render(t, md.String()), false)
	if len(pages) != 2 {
		t.Fatalf("got %d pages, want 2", len(pages))
	}
	for i, p := range pages {
		if want := fmt.Sprintf("%d / 2", i+1); !strings.Contains(p, want) {
			t.Errorf("page %d lacks the footer %q:\n%s", i+1, want, p)
		}
	}
	if !strings.Contains(pages[1], "Paragraful 60 al documentului.") {
		t.Errorf("the last paragraph is not on page 2:\n%s", pages[1])
	}
}

func TestRenderEmptyDraft(t *testing.T) {
	pages := pdfText(t, render(t, ""), false)
	if len(pages) != 1 || !strings.Contains(pages[0], "1 / 1") {
		t.Fatalf("an empty draft gives %q, want one page numbered 1 / 1", pages)
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	md := Sample(3)
	first := render(t, md)
	for range 3 {
		if !bytes.Equal(render(t, md), first) {
			t.Fatal("rendering the same draft twice gave different bytes")
		}
	}
	if bytes.Equal(render(t, md+"\nUn rând în plus.\n"), first) {
		t.Fatal("a different draft gave the same bytes")
	}
}

func TestSampleRendersToAboutTheAskedPages(t *testing.T) {
	for _, tc := range []struct{ pages, min, max int }{{10, 9, 11}, {2, 1, 3}} {
		got := len(pdfText(t, render(t, Sample(tc.pages)), false))
		if got < tc.min || got > tc.max {
			t.Errorf("Sample(%d) renders to %d pages, want %d to %d", tc.pages, got, tc.min, tc.max)
		}
	}
}

// TestTableRowsStayWhole renders a table over several pages: every row (three lines of
// text) stays on one page, and every page repeats the header.
func TestTableRowsStayWhole(t *testing.T) {
	md := "Înainte de tabel.\n\n| Nr. | Descriere | Sumă |\n|---|---|---:|\n"
	for i := range 60 {
		md += fmt.Sprintf("| %d | ÎNCEPUT%d %s SFÂRȘIT%d | %d,00 |\n", i, i, strings.Repeat("clauză contractuală ", 12), i, i*100)
	}
	pages := pdfText(t, render(t, md), true)
	if len(pages) < 3 {
		t.Fatalf("the table fills %d pages, want at least 3", len(pages))
	}
	for i := range 60 {
		start, end := -1, -1
		for p, text := range pages {
			words := strings.Fields(text)
			if slices.Contains(words, fmt.Sprintf("ÎNCEPUT%d", i)) {
				start = p
			}
			if slices.Contains(words, fmt.Sprintf("SFÂRȘIT%d", i)) {
				end = p
			}
		}
		if start < 0 || start != end {
			t.Errorf("row %d starts on page %d and ends on page %d", i, start+1, end+1)
		}
	}
	for p, text := range pages {
		if !regexp.MustCompile(`Nr\.\s+Descriere\s+Sumă`).MatchString(text) {
			t.Errorf("page %d has no table header:\n%s", p+1, text)
		}
	}
}

// TestLongContentStaysOnThePage renders content wider or taller than a page: a table
// with many long columns, a cell taller than a page, a long word and a long code line.
// Every word lies within the page's margins and nothing is lost.
func TestLongContentStaysOnThePage(t *testing.T) {
	var md strings.Builder
	md.WriteString("| A | B | C | D | E | F | G | H |\n|---|---|---|---|---|---|---|---|\n")
	for range 3 {
		md.WriteString(strings.Repeat("| obligațiile părților contractante sunt următoarele ", 8) + "|\n")
	}
	fmt.Fprintf(&md, "\n| Rând înalt |\n|---|\n| PRIMUL %s ULTIMUL |\n\n", strings.Repeat("cuvânt ", 2500))
	fmt.Fprintf(&md, "Cuvânt%sLung\n\n```\ncod%scod\n```\n", strings.Repeat("x", 300), strings.Repeat("y", 300))
	pdf := render(t, md.String())

	out, err := exec.Command(poppler(t, "pdftotext"), "-bbox", writePDF(t, pdf), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	const left, right = marginLeft / ptMM, (pageWidth - marginRight) / ptMM // in points
	words := regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="[0-9.]+" xMax="([0-9.]+)"`).FindAllStringSubmatch(string(out), -1)
	if len(words) < 2500 {
		t.Fatalf("found %d words, want over 2500", len(words))
	}
	for _, w := range words {
		xMin, _ := strconv.ParseFloat(w[1], 64)
		xMax, _ := strconv.ParseFloat(w[2], 64)
		if xMin < left-0.5 || xMax > right+0.5 {
			t.Fatalf("a word spans x %.1f to %.1f pt, outside the margins %.1f to %.1f", xMin, xMax, left, right)
		}
	}
	text := strings.Join(pdfText(t, pdf, false), "")
	for _, want := range []string{"PRIMUL", "ULTIMUL", "Cuvânt", "Lung", "cod"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if got := strings.Count(text, "cuvânt"); got != 2500 {
		t.Errorf("the tall cell prints %d words, want 2500", got)
	}
}

func TestRenderReplacesCharactersTheFontsLack(t *testing.T) {
	// "s" and "t" followed by a combining comma below are composed into ș and ț.
	text := pdfText(t, render(t, "Emoji 😀 și s\u0326t\u0326."), false)[0]
	if !strings.Contains(text, "Emoji ? și șț.") {
		t.Errorf("text = %q, want it to contain %q", text, "Emoji ? și șț.")
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		name, md string
		want     []Ref
	}{
		{"none", "Fără substituții {{ nimic }} {party0.name} {{party.name}}", nil},
		{"one", "Reclamant: {{party0.lastName}}", []Ref{{"party0", "lastName"}}},
		{"spaces", "{{ party12.first_name }} și {{party3.cnp}}", []Ref{{"party12", "first_name"}, {"party3", "cnp"}}},
		{"deduplicated in order", "{{party1.a}} {{party0.b}} {{ party1.a }} {{party0.c}}", []Ref{{"party1", "a"}, {"party0", "b"}, {"party0", "c"}}},
		{"field characters", "{{party0.address2_line}} {{party0.bad-field}}", []Ref{{"party0", "address2_line"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Placeholders(tc.md); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Placeholders(%q) = %v, want %v", tc.md, got, tc.want)
			}
		})
	}
}

func TestSubstituteEscapesValues(t *testing.T) {
	name := `Ion *Pop* _escu_ | # [x](y) <b> \ & ~~z~~`
	md := "Reclamant: {{ party0.name }}.\n\n| Parte | Nume |\n|---|---|\n| reclamant | {{party0.name}} |\n| pârât | {{party1.name}} |\n"
	got := Substitute(md, func(r Ref) string {
		return map[string]string{"party0": name, "party1": "    Maria\n Ionescu  "}[r.Party]
	})
	html := HTML(got)
	for _, want := range []string{
		"Reclamant: Ion *Pop* _escu_ | # [x](y) &lt;b&gt; \\ &amp; ~~z~~.",
		"<td>Ion *Pop* _escu_ | # [x](y) &lt;b&gt; \\ &amp; ~~z~~</td>",
		"<td>Maria Ionescu</td>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
	if n := strings.Count(html, "<td>"); n != 4 {
		t.Errorf("the table has %d cells, want 4:\n%s", n, html)
	}
	text := pdfText(t, render(t, got), false)[0]
	if !strings.Contains(text, "Reclamant: "+name+".") {
		t.Errorf("PDF text lacks the literal name:\n%s", text)
	}
}

func TestMalformedPlaceholders(t *testing.T) {
	got := Malformed("{{party0.name}} {{ party1.cnp }} {{Party0.name}} {{party0.first-name}} {{x}} {{party0.name}")
	want := []string{"{{Party0.name}}", "{{party0.first-name}}", "{{x}}"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Malformed = %q, want %q", got, want)
	}
}

func TestHTML(t *testing.T) {
	html := HTML(everything)
	for _, want := range []string{
		"<!DOCTYPE html>",
		"<title>Cerere de chemare în judecată</title>",
		`content: counter(page) " / " counter(pages)`,
		"size: A4",
		"<h1>Cerere de chemare în judecată</h1>",
		"<strong>aldine</strong>",
		`<th style="text-align:right">Sumă</th>`,
		"<li>primul punct</li>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
}

// FuzzRender checks that no Markdown makes Render fail or panic.
func FuzzRender(f *testing.F) {
	for _, md := range []string{everything, Sample(1), "", "|a|\n|-|\n|b|c|d|", "- \n  - \n    1. ", "> > > x\n```\n\x00\t\U0001F600\n```", "**a *b `c` d* e**~~f~~\\\n&amp;&#0;&bogus;"} {
		f.Add(md)
	}
	f.Fuzz(func(t *testing.T, md string) {
		if _, err := Render(md, Options{Title: md}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAppendixStartsItsOwnPage: the appendix (a draft's citations to check) follows
// the draft on a page of its own.
func TestAppendixStartsItsOwnPage(t *testing.T) {
	pdf, err := Render("# Cerere\n\nReclamant: Ion.", Options{Title: "Test", Appendix: "# Citări de verificat\n\n- art. 9999 C.civ.: **negăsit**\n"})
	if err != nil {
		t.Fatal(err)
	}
	pages := pdfText(t, pdf, false)
	if len(pages) != 2 || strings.Contains(pages[0], "verificat") || !strings.Contains(pages[1], "Citări de verificat") ||
		!strings.Contains(pages[1], "art. 9999 C.civ.: negăsit") {
		t.Errorf("pages = %q", pages)
	}
}

// TestAttackDraftLinksAreWebOrMail (issue 36, finding 16): a link the model writes
// keeps its URI only when it is http(s) or mailto; any other target prints as plain
// text, with no URI action a PDF reader would follow.
func TestAttackDraftLinksAreWebOrMail(t *testing.T) {
	md := "[web](https://example.org/lege) [plain](http://example.org/) [mail](mailto:office@example.ro) <office@example.ro>\n\n" +
		"[script](javascript:alert(1)) [Script](JaVaScRiPt:alert(2)) [file](file:///etc/passwd) <file:///etc/shadow>\n\n" +
		"[data](data:text/html,hi) [relative](../secret.pdf) [nohost](https:/nohost) [app](ms-word:ofe|u|https://x.example/a.docx)"
	pdf := render(t, md)
	uris := regexp.MustCompile(`/URI \(([^)]*)\)`).FindAllSubmatch(pdf, -1)
	var got []string
	for _, u := range uris {
		got = append(got, string(u[1]))
	}
	want := []string{"https://example.org/lege", "http://example.org/", "mailto:office@example.ro", "mailto:office@example.ro"}
	if !slices.Equal(got, want) {
		t.Errorf("link targets = %q, want %q", got, want)
	}
	text := pdfText(t, pdf, false)[0]
	for _, label := range []string{"web", "script", "Script", "file", "file:///etc/shadow", "data", "relative", "nohost", "app"} {
		if !strings.Contains(text, label) {
			t.Errorf("the text lacks the label %q:\n%s", label, text)
		}
	}
}

// TestDisclosureOnEveryPage: the disclosure line (that AI helped write the draft)
// is in every page's footer, appendix pages too, whole when it wraps, and the page
// numbers stay; a draft without one has none.
func TestDisclosureOnEveryPage(t *testing.T) {
	var md strings.Builder
	for i := range 60 {
		fmt.Fprintf(&md, "Paragrafo %d dell'atto.\n\n", i+1)
	}
	line := "Documento predisposto con l'ausilio di un sistema di intelligenza artificiale (Lexflow), ai sensi dell'art. 13 della L. 132/2025; " +
		"il contenuto è stato verificato dall'avvocato."
	pdf, err := Render(md.String(), Options{Title: "Atto", Appendix: "# Citazioni da verificare\n", Disclosure: line})
	if err != nil {
		t.Fatal(err)
	}
	pages := pdfText(t, pdf, false)
	if len(pages) != 3 {
		t.Fatalf("got %d pages, want 3 (two of the draft, one appendix)", len(pages))
	}
	for i, p := range pages {
		if got := strings.Join(strings.Fields(p), " "); !strings.Contains(got, line) {
			t.Errorf("page %d lacks the disclosure %q:\n%s", i+1, line, p)
		}
		if want := fmt.Sprintf("%d / 3", i+1); !strings.Contains(p, want) {
			t.Errorf("page %d lacks its number %q:\n%s", i+1, want, p)
		}
	}
	for _, p := range pdfText(t, render(t, md.String()), false) {
		if strings.Contains(p, "intelligenza artificiale") {
			t.Errorf("a draft without a disclosure shows one:\n%s", p)
		}
	}
}
