package corpus

import (
	"slices"
	"testing"
)

// TestAnalyzeMeetsForms checks that the forms of one word, with either Romanian ș/ț,
// with or without diacritics, reach the same term, and that stop words are dropped.
func TestAnalyzeMeetsForms(t *testing.T) {
	for _, c := range []struct {
		lang  string
		forms []string
	}{
		{"ro", []string{"locațiunea", "locaţiunii", "locatiune", "LOCAȚIUNE"}},
		{"ro", []string{"chiriașul", "chiriaşului", "chiriasul"}},
		{"ro", []string{"despăgubiri", "despagubirile"}},
		{"ro", []string{"moștenire", "moştenitorii", "mostenire"}},
		{"it", []string{"locazione", "locazioni", "LOCAZIONE"}},
		{"it", []string{"risarcimento", "risarcimenti"}},
		{"en", []string{"dismissal", "dismissals"}},
	} {
		want := Analyze(c.lang, c.forms[0])
		if len(want) != 1 {
			t.Fatalf("%s %q: %v, want one term", c.lang, c.forms[0], want)
		}
		for _, f := range c.forms[1:] {
			if got := Analyze(c.lang, f); !slices.Equal(got, want) {
				t.Errorf("%s %q: %v, want %v (as %q)", c.lang, f, got, want, c.forms[0])
			}
		}
	}
	if got := Analyze("it", "dell'appartamento in affitto e il proprietario"); len(got) != 3 {
		t.Errorf("Italian stop words kept: %v", got)
	}
	if got := Analyze("ro", "și în care este"); len(got) != 0 {
		t.Errorf("Romanian stop words kept: %v", got)
	}
	if got := Analyze("ro", "art. 1357"); !slices.Equal(got, []string{"art", "1357"}) {
		t.Errorf("numbers: %v", got)
	}
}

func TestQueryLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"Il cane della vicina mi ha morso: chi paga le cure?":           "it",
		"Câinele vecinului m-a mușcat, cine plătește pentru tratament?": "ro",
		"The dog of my neighbour bit me; who pays for the treatment?":   "en",
		"GDPR": "",
		"":     "",
	} {
		if got := QueryLanguage(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
