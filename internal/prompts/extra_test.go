package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtraDocuments: a document with front matter joins the prompts it names, in
// every language or one; one without front matter joins none and is reported so; a
// front matter naming an unknown role or language makes the reload fail; the report
// gives each assembled prompt's size.
func TestExtraDocuments(t *testing.T) {
	dir := copyEmbedded(t)
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("firm-style.md", "---\nrole: assistant\n---\nFIRM-STYLE: sign every answer as the firm.")
	write("ro-courts.md", "---\r\nrole: assistant\r\nlanguage: ro\r\n---\r\nRO-COURTS: Tribunalul București.")
	write("notes.md", "Notes for the team, not for any model.")
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	en, ro := l.System("assistant", Context{Language: "en"}), l.System("assistant", Context{Language: "ro"})
	if !strings.Contains(en, "FIRM-STYLE") || strings.Contains(en, "RO-COURTS") || !strings.Contains(ro, "FIRM-STYLE") || !strings.Contains(ro, "RO-COURTS") {
		t.Errorf("extras: en %q…, ro %q…", tail(en), tail(ro))
	}
	if strings.Contains(l.System("reasoner", Context{Language: "en"}), "FIRM-STYLE") || strings.Contains(en, "Notes for the team") {
		t.Error("an extra document joined a prompt it does not name")
	}
	rep := l.Report()
	for name, want := range map[string]string{"firm-style.md": "assistant.*", "ro-courts.md": "assistant.ro", "notes.md": "none", "assistant.en.md": ""} {
		if got := docFor(rep, name); got != want {
			t.Errorf("%s is for %q, want %q", name, got, want)
		}
	}
	if got, want := rep.PromptBytes["assistant.ro"], len(l.System("assistant", Context{Language: "ro"})); got != want || got == 0 {
		t.Errorf("assistant.ro's size = %d, want %d", got, want)
	}
	for name, text := range map[string]string{
		"bad-role.md": "---\nrole: judge\n---\nx",
		"bad-lang.md": "---\nrole: assistant\nlanguage: fr\n---\nx",
		"no-role.md":  "---\nlanguage: ro\n---\nx",
		"bad-key.md":  "---\nrole: assistant\naudience: all\n---\nx",
		"unclosed.md": "---\nrole: assistant\nx",
	} {
		write(name, text)
		if _, err := l.Reload(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: reload %v", name, err)
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

func docFor(rep Report, name string) string {
	for _, d := range rep.Docs {
		if d.Name == name {
			return d.For
		}
	}
	return "missing"
}

func tail(s string) string { return s[max(len(s)-200, 0):] }
