package corpus

import (
	"bytes"
	"slices"
	"testing"
)

// TestRomanianHeadings checks that a Romanian article keeps the headings of the
// book, title, chapter and section it stands in, each once, and that the analysed
// index finds it by them.
func TestRomanianHeadings(t *testing.T) {
	f, err := readArchive(bytes.NewReader(Archive))
	if err != nil {
		t.Fatal(err)
	}
	arts, err := loadRomanianCodes(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		// The source names the section and its subsection alike: kept once.
		"ro/legea-287-2009/art-1357": {"Despre obligații", "Izvoarele obligațiilor", "Răspunderea civilă", "Răspunderea pentru fapta proprie"},
		"ro/legea-287-2009/art-1796": {"Despre obligații", "Diferite contracte speciale", "Contractul de locațiune", "Dispoziții generale", "Obligațiile locatarului"},
	}
	for _, a := range arts {
		if w, ok := want[a.DocID]; ok {
			if !slices.Equal(a.Headings, w) {
				t.Errorf("%s: headings %q, want %q", a.DocID, a.Headings, w)
			}
			delete(want, a.DocID)
		}
	}
	if len(want) > 0 {
		t.Errorf("articles missing: %v", want)
	}
	r := row(t, `SELECT count(*) FROM legislatie l JOIN legislatie_ro x ON x.rowid = l.rowid
		WHERE legislatie_ro MATCH ? AND l.doc_id = 'ro/legea-287-2009/art-1796'`, "{headings} : "+quote(Analyze("ro", "locatarului")[0]))
	if r[0] != "1" {
		t.Error("the analysed index does not find art. 1796 by its section's heading")
	}
}
