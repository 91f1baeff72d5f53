package plain

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestParse reads lines of two files into one text's phrases and refuses the lines a
// writer can get wrong, naming the file and line.
func TestParse(t *testing.T) {
	w, err := Parse(fstest.MapFS{
		"a.tsv":   {Data: []byte("ro/x/art-1\tro\tm-a mușcat câinele ; vecinul\nro/x/art-1\ten\tthe dog bit me\n\n")},
		"a-b.tsv": {Data: []byte("ro/x/art-1\tro\tcățelul a sărit pe mine\r\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := w["ro/x/art-1"]["ro"]; got != "cățelul a sărit pe mine ; m-a mușcat câinele ; vecinul" {
		t.Errorf("ro phrases = %q, want both files' lines joined, in the files' order", got)
	}
	if got := w["ro/x/art-1"]["en"]; got != "the dog bit me" {
		t.Errorf("en phrases = %q", got)
	}
	for _, bad := range []struct{ line, want string }{
		{"ro/x/art-1\tro", "got 2 fields"},
		{"ro/x/art-1\tde\tHund", `language "de"`},
		{"ro/x art-1\tro\tcâine", "bad doc_id"},
		{"ro/x/art-1\tro\t  ", "no phrases"},
		{"ro/x/art-1\tro\t" + strings.Repeat("cuvânt ", MaxWords+1), "more than"},
	} {
		_, err := Parse(fstest.MapFS{"bad.tsv": {Data: []byte("ro/x/art-2\tro\tbun\n" + bad.line + "\n")}})
		if err == nil || !strings.Contains(err.Error(), "bad.tsv:2:") || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Parse(%q) = %v, want an error at bad.tsv:2 naming %q", bad.line, err, bad.want)
		}
	}
}

// TestDefaultParses: the shipped files parse, and hold both languages of a text.
func TestDefaultParses(t *testing.T) {
	w, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(w) < 10000 {
		t.Errorf("%d texts with plain words, want the corpus's codes", len(w))
	}
	if en := w["ro/legea-287-2009/art-1375"]["en"]; en == "" {
		t.Error("the Civil Code's article on damage by animals has no English words")
	}
}
