package prompts_test

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	internalprompts "github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// offered are the tools a model role may be offered. A turn's model calls are the
// assistant's, and the only ones that carry tools (workflows.RunTurn): any tool the
// registry can run, as a request's toggles and the caller's roles choose, the
// admin-only ones included. The other roles' calls offer none.
func offered(role schemas.ModelRole) []string {
	if role != schemas.ModelAssistant {
		return nil
	}
	var out []string
	for _, t := range tools.All() {
		if t.Available() {
			out = append(out, t.Name)
		}
	}
	return out
}

// toolLine is the line of a tools section that describes a tool: "- `name`: ...".
var toolLine = regexp.MustCompile("(?m)^- `([a-z_]+)`")

// coverageProblems checks that each role's prompt, in each language, describes every
// tool the role may be offered in its tools section (the heading glossary.json marks
// "tools"), one line each, and no tool the registry does not have.
func coverageProblems(files fs.FS, g glossary) []string {
	var out []string
	for _, role := range internalprompts.Roles {
		want := offered(role)
		if len(want) == 0 {
			continue
		}
		var heading map[string]string
		for _, h := range g.Sections[string(role)] {
			if h["id"] == "tools" {
				heading = h
			}
		}
		for _, lang := range schemas.Languages {
			name := string(role) + "." + lang + ".md"
			body, ok := section(readDoc(files, name), heading[lang])
			if heading == nil || !ok {
				out = append(out, fmt.Sprintf("%s has no tools section, though %s is offered %d tools", name, role, len(want)))
				continue
			}
			described := map[string]bool{}
			for _, m := range toolLine.FindAllStringSubmatch(body, -1) {
				described[m[1]] = true
				if _, ok := tools.Get(m[1]); !ok {
					out = append(out, fmt.Sprintf("%s describes %s, which the registry does not have", name, m[1]))
				}
			}
			for _, tool := range want {
				if !described[tool] {
					out = append(out, fmt.Sprintf("%s does not describe %s, which %s may be offered", name, tool, role))
				}
			}
		}
	}
	return out
}

func TestOfferedToolsAreDescribed(t *testing.T) {
	g := loadGlossary(t)
	if len(offered(schemas.ModelAssistant)) == 0 {
		t.Fatal("the assistant is offered no tool: the check would pass on any prompt")
	}
	for _, p := range coverageProblems(promptFiles(t), g) {
		t.Error(p)
	}
	// A tool left out of one language's list, and one the registry lost, are found.
	broken := promptFiles(t)
	it := string(broken["assistant.it.md"].Data)
	it = regexp.MustCompile("(?m)^- `legal_sql`.*\n(  .*\n)*").ReplaceAllString(it, "- `legal_query`: una SELECT.\n")
	broken["assistant.it.md"] = &fstest.MapFile{Data: []byte(it)}
	got := strings.Join(coverageProblems(broken, g), "\n")
	for _, want := range []string{"assistant.it.md does not describe legal_sql", "assistant.it.md describes legal_query, which the registry does not have"} {
		if !strings.Contains(got, want) {
			t.Errorf("a broken Italian prompt passes; want %q in:\n%s", want, got)
		}
	}
}
