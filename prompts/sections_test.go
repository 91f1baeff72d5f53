package prompts_test

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lexflow/lexflow/schemas"
)

// headings are a Markdown text's heading lines, in order.
func headings(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// section is the text under a heading, up to the next heading of its level or above;
// ok is false when the text has no such heading.
func section(text, heading string) (body string, ok bool) {
	level := len(heading) - len(strings.TrimLeft(heading, "#"))
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if strings.TrimSpace(line) != heading {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if l := lines[j]; strings.HasPrefix(l, "#") && len(l)-len(strings.TrimLeft(l, "#")) <= level {
				end = j
				break
			}
		}
		return strings.Join(lines[i+1:end], "\n"), true
	}
	return "", false
}

// sectionProblems checks that every prompt file has, in each language, the headings
// glossary.json lists for it, in its order: the three languages' files of one prompt
// then have the same sections, mapped one to one.
func sectionProblems(files fs.FS, g glossary) []string {
	var out []string
	names, _ := fs.Glob(files, "*.md")
	bases := map[string]bool{}
	for _, name := range names {
		base, _, _ := strings.Cut(name, ".")
		bases[base] = true
	}
	for base := range g.Sections {
		if !bases[base] {
			out = append(out, fmt.Sprintf("glossary.json lists the sections of %s, which has no files", base))
		}
	}
	for _, base := range slices.Sorted(func(yield func(string) bool) {
		for b := range bases {
			if !yield(b) {
				return
			}
		}
	}) {
		listed, ok := g.Sections[base]
		if !ok {
			out = append(out, fmt.Sprintf("glossary.json lists no sections for %s.*.md", base))
			continue
		}
		for _, lang := range schemas.Languages {
			want := make([]string, len(listed))
			for i, h := range listed {
				want[i] = h[lang]
			}
			name := base + "." + lang + ".md"
			if got := headings(readDoc(files, name)); !slices.Equal(got, want) {
				out = append(out, fmt.Sprintf("%s has the headings %q; glossary.json lists %q", name, got, want))
			}
		}
	}
	return out
}

func TestSectionsAgreeAcrossLanguages(t *testing.T) {
	g := loadGlossary(t)
	for _, p := range sectionProblems(promptFiles(t), g) {
		t.Error(p)
	}
	// Two sections swapped in one language, or one dropped, are found.
	broken := promptFiles(t)
	ro := string(broken["reasoner.ro.md"].Data)
	ro = strings.Replace(strings.Replace(ro, "## Ce primești", "## X", 1), "## Cum răspunzi", "## Ce primești", 1)
	ro = strings.Replace(ro, "## X", "## Cum răspunzi", 1)
	broken["reasoner.ro.md"] = &fstest.MapFile{Data: []byte(ro)}
	it := strings.Replace(string(broken["assistant.it.md"].Data), "## Riservatezza\n", "", 1)
	broken["assistant.it.md"] = &fstest.MapFile{Data: []byte(it)}
	got := strings.Join(sectionProblems(broken, g), "\n")
	for _, want := range []string{"reasoner.ro.md has the headings", "assistant.it.md has the headings"} {
		if !strings.Contains(got, want) {
			t.Errorf("broken sections pass; want %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, ".en.md") {
		t.Errorf("the English files were not broken:\n%s", got)
	}
}
