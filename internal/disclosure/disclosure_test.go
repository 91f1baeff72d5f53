package disclosure

import (
	"errors"
	"strings"
	"testing"
)

var languages = []string{"en", "ro", "it"}

func TestLineDefaultsAndOrganizationSettings(t *testing.T) {
	for _, tc := range []struct {
		name, lang string
		texts      map[string]string
		on         map[string]bool
		want       string
	}{
		{"Italian is on by default", "it", nil, nil, Texts["it"]},
		{"Romanian is off by default", "ro", nil, nil, ""},
		{"English is off by default", "en", nil, nil, ""},
		{"an organization switches Romanian on", "ro", nil, map[string]bool{"ro": true}, Texts["ro"]},
		{"an organization switches Italian off", "it", map[string]string{"it": "Con IA."}, map[string]bool{"it": false}, ""},
		{"an organization's wording", "it", map[string]string{"it": "Redatto con l'ausilio dell'IA."}, nil, "Redatto con l'ausilio dell'IA."},
		{"another language's wording is not used", "en", map[string]string{"it": "Con IA."}, map[string]bool{"en": true}, Texts["en"]},
		{"a language with no default wording reads English", "de", nil, map[string]bool{"de": true}, Texts["en"]},
	} {
		if got := Line(tc.lang, tc.texts, tc.on); got != tc.want {
			t.Errorf("%s: Line = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestEveryLanguageHasADefault(t *testing.T) {
	for _, lang := range languages {
		if Texts[lang] == "" || !strings.Contains(Texts[lang], "Lexflow") {
			t.Errorf("default text in %s = %q", lang, Texts[lang])
		}
		if _, ok := On[lang]; !ok {
			t.Errorf("no default switch for %s", lang)
		}
		if err := Check(languages, Texts, On); err != nil {
			t.Errorf("the defaults fail their own check: %v", err)
		}
	}
}

func TestCheckRefusesWhatCannotBeALine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		texts map[string]string
		on    map[string]bool
	}{
		{"unknown language in texts", map[string]string{"de": "KI"}, nil},
		{"unknown language in on", nil, map[string]bool{"fr": true}},
		{"empty", map[string]string{"it": ""}, nil},
		{"spaces around", map[string]string{"it": " IA "}, nil},
		{"two lines", map[string]string{"it": "Con\nIA"}, nil},
		{"a control character", map[string]string{"ro": "Cu\x07IA"}, nil},
		{"too long", map[string]string{"en": strings.Repeat("a", MaxChars+1)}, nil},
		{"invalid UTF-8", map[string]string{"en": "AI \xff"}, nil},
	} {
		if err := Check(languages, tc.texts, tc.on); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Check = %v, want ErrInvalid", tc.name, err)
		}
	}
	if err := Check(languages, map[string]string{"ro": strings.Repeat("ă", MaxChars)}, map[string]bool{"ro": true}); err != nil {
		t.Errorf("a wording of MaxChars Romanian letters: %v", err)
	}
}
