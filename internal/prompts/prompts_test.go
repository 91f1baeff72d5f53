package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	promptfiles "github.com/lexflow/lexflow/prompts"
)

func TestEmbeddedPrompts(t *testing.T) {
	l, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if rep := l.Report(); rep.Source != "embedded" || rep.DocCount != 33 {
		t.Errorf("report = %+v", rep)
	}
	got := l.System("assistant", Context{CaseID: "c-1", Language: "ro"})
	for _, want := range []string{"# Asistentul Lexflow", "\nCase ID: c-1\nLanguage: ro\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ATENȚIE") || strings.Contains(got, "## Memorie") {
		t.Errorf("prompt has sections nobody asked for:\n%s", got)
	}
	tiering := l.System("tiering", Context{Language: "it"})
	if !strings.Contains(tiering, "## Livello 3") || strings.Contains(l.System("assistant", Context{Language: "it"}), "## Livello 3") {
		t.Errorf("only the tiering prompt carries the tier definitions:\n%s", tiering)
	}
	if got := l.System("reasoner", Context{Language: "fr"}); !strings.HasPrefix(got, "# Lexflow reasoner") || !strings.Contains(got, "Language: en") {
		t.Errorf("unknown language does not fall back to English:\n%s", got)
	}
}

func TestSections(t *testing.T) {
	l, _ := Load("")
	it := l.System("assistant", Context{CaseID: "c", Language: "it", LegalToolsOff: true, Memory: "Preferisce risposte brevi.",
		Earlier: []string{"turn 1, user: il deposito"}})
	// Seed 000's warning, word for word.
	for _, want := range []string{
		"## ATTENZIONE: Strumenti legali disabilitati\nGli strumenti di ricerca normativa sono attualmente DISABILITATI.\nNON PUOI accedere a fonti legali per verificare articoli, leggi o normative.",
		"- NON inventare contenuti di articoli o leggi",
		"## Memoria dell'utente\nPreferisce risposte brevi.",
		"## In precedenza in questo caso\n- turn 1, user: il deposito",
	} {
		if !strings.Contains(it, want) {
			t.Errorf("Italian prompt lacks %q:\n%s", want, it)
		}
	}
	en := l.System("assistant", Context{Language: "en", LegalToolsOff: true, Memory: "Likes short answers."})
	if !strings.Contains(en, "## WARNING: Legal tools disabled") || !strings.Contains(en, "## Memory\nLikes short answers.") {
		t.Errorf("English prompt:\n%s", en)
	}
	ro := l.System("assistant", Context{Language: "ro", LegalToolsOff: true, Memory: "x"})
	if !strings.Contains(ro, "## ATENȚIE: Instrumentele juridice sunt dezactivate") || !strings.Contains(ro, "## Memorie\nx") {
		t.Errorf("Romanian prompt:\n%s", ro)
	}
	// The kept facts come first, as a list, under the same heading as the note.
	facts := l.System("assistant", Context{Language: "it", Memory: "Preferisce il Lei.", Facts: []string{"Gestisce una panetteria a Torino.", "Ha due figli."}})
	if !strings.Contains(facts, "## Memoria dell'utente\n- Gestisce una panetteria a Torino.\n- Ha due figli.\nPreferisce il Lei.\n") {
		t.Errorf("Italian prompt with facts:\n%s", facts)
	}
	if onlyFacts := l.System("assistant", Context{Language: "en", Facts: []string{"Runs a bakery."}}); !strings.Contains(onlyFacts, "## Memory\n- Runs a bakery.\n") {
		t.Errorf("English prompt with facts and no note:\n%s", onlyFacts)
	}
	if none := l.System("assistant", Context{Language: "en"}); strings.Contains(none, "## Memory") {
		t.Errorf("a prompt with no memory has its heading:\n%s", none)
	}
}

// copyEmbedded writes the embedded files into a directory of the test's own.
func copyEmbedded(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, _ := promptfiles.Files.ReadDir(".")
	for _, e := range entries {
		raw, _ := promptfiles.Files.ReadFile(e.Name())
		if err := os.WriteFile(filepath.Join(dir, e.Name()), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDirectoryReload(t *testing.T) {
	dir := copyEmbedded(t)
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "assistant.en.md"), []byte("# Edited assistant"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := l.Reload()
	if err != nil || rep.Source != dir {
		t.Fatalf("reload: %+v, %v", rep, err)
	}
	if got := l.System("assistant", Context{Language: "en"}); !strings.HasPrefix(got, "# Edited assistant") {
		t.Errorf("after reload: %s", got)
	}
	// A broken set is refused and the loaded prompts stay.
	if err := os.Remove(filepath.Join(dir, "tiering.it.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Reload(); err == nil || !strings.Contains(err.Error(), "tiering.it.md") {
		t.Fatalf("reload without tiering.it.md: %v", err)
	}
	if got := l.System("tiering", Context{Language: "it"}); !strings.HasPrefix(got, "# Livello del caso") {
		t.Errorf("the previous prompts were lost: %s", got)
	}
}

func TestChangedFilesAreNoticed(t *testing.T) {
	dir := copyEmbedded(t)
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reasoner.ro.md"), []byte("# Raționament nou, mai lung"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.checked = time.Time{} // as if the last look were more than a second ago
	l.mu.Unlock()
	if got := l.System("reasoner", Context{Language: "ro"}); !strings.HasPrefix(got, "# Raționament nou, mai lung") {
		t.Errorf("an edited file was not picked up: %s", got)
	}
}

func TestMissingFiles(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil {
		t.Fatal("loaded prompts from an empty directory")
	}
}
