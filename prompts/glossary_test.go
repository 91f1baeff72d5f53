package prompts_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// glossary is glossary.json: the prompts' fixed terms. A term maps each language to its
// words; a phase has its value too, a heading an id when a test looks it up.
type glossary struct {
	Tools    []string                       `json:"tools"`
	Phases   []map[string]string            `json:"phases"`
	Product  []map[string]string            `json:"product"`
	Legal    []map[string]string            `json:"legal"`
	Sections map[string][]map[string]string `json:"sections"`
}

func loadGlossary(t *testing.T) glossary {
	t.Helper()
	raw, err := os.ReadFile("glossary.json")
	if err != nil {
		t.Fatal(err)
	}
	var g glossary
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("glossary.json: %v", err)
	}
	return g
}

// codeSpan is a Markdown code span: "`court`".
var codeSpan = regexp.MustCompile("`[^`\n]*`")

// phrase matches words in order, across any white space (a line break included), in
// any case; whole words only when whole is set.
func phrase(words string, whole bool) *regexp.Regexp {
	re := strings.Join(strings.Fields(regexp.QuoteMeta(words)), `\s+`)
	if whole {
		re = `(?:^|[^\p{L}\p{N}_])` + re + `(?:$|[^\p{L}\p{N}_])`
	}
	return regexp.MustCompile(`(?i)` + re)
}

// termProblems checks the glossary against the prompt files: each language's assistant
// prompt names every tool and phase value as written and uses every term of its
// language; no prompt of a language uses another language's legal term where its own
// differs.
func termProblems(files fs.FS, g glossary) []string {
	var out []string
	for _, lang := range schemas.Languages {
		name := "assistant." + lang + ".md"
		text := readDoc(files, name)
		for _, tool := range g.Tools {
			if !strings.Contains(text, "`"+tool+"`") {
				out = append(out, fmt.Sprintf("%s does not name the tool `%s`", name, tool))
			}
		}
		for _, p := range g.Phases {
			if !strings.Contains(text, "`"+p["value"]+"`") {
				out = append(out, fmt.Sprintf("%s does not name the phase `%s`", name, p["value"]))
			}
		}
		for _, terms := range [][]map[string]string{g.Phases, g.Product, g.Legal} {
			for _, term := range terms {
				if term[lang] == "" || !phrase(term[lang], false).MatchString(text) {
					out = append(out, fmt.Sprintf("%s lacks %q, its term for %s", name, term[lang], term["concept"]+term["value"]))
				}
			}
		}
		docs, _ := fs.Glob(files, "*."+lang+".md")
		for _, doc := range docs {
			// Code spans name identifiers (a table's column `court`), not terms.
			text := codeSpan.ReplaceAllString(readDoc(files, doc), "")
			for _, term := range g.Legal {
				for _, other := range schemas.Languages {
					foreign := term[other]
					if other == lang || strings.EqualFold(foreign, term[lang]) {
						continue
					}
					if phrase(foreign, true).MatchString(text) {
						out = append(out, fmt.Sprintf("%s uses the %s term %q for %s, where %s says %q", doc, other, foreign, term["concept"], lang, term[lang]))
					}
				}
			}
		}
	}
	return out
}

func TestGlossaryTerms(t *testing.T) {
	g := loadGlossary(t)
	for _, p := range termProblems(promptFiles(t), g) {
		t.Error(p)
	}
	// The check finds a term gone and a term from another language.
	broken := promptFiles(t)
	ro := string(broken["assistant.ro.md"].Data)
	ro = strings.ReplaceAll(ro, "Codul civil", "codul")
	ro = strings.Replace(ro, "instanța competentă", "tribunale competent", 1)
	broken["assistant.ro.md"] = &fstest.MapFile{Data: []byte(ro)}
	got := strings.Join(termProblems(broken, g), "\n")
	for _, want := range []string{`assistant.ro.md lacks "Codul civil"`, `assistant.ro.md uses the it term "tribunale"`} {
		if !strings.Contains(got, want) {
			t.Errorf("a broken Romanian prompt passes; want %q in:\n%s", want, got)
		}
	}
}

// TestGlossaryToolsAreTheRegistry keeps the glossary's tool names those of the registry
// tools the model can be offered, so that a new or renamed tool is in it.
func TestGlossaryToolsAreTheRegistry(t *testing.T) {
	var want []string
	for _, tool := range tools.All() {
		if tool.Available() {
			want = append(want, tool.Name)
		}
	}
	if got := loadGlossary(t).Tools; !slices.Equal(got, want) {
		t.Errorf("glossary.json's tools = %v; the registry's, in its order, = %v", got, want)
	}
}
