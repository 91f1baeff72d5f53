package pii

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []Kind
	}{
		{"CNP 1800101221144, domiciliat în Cluj", []Kind{CNP}},
		{"CNP 1800101221145 (cifra de control greșită)", nil},
		{"codice fiscale RSSMRA85T10A562S", []Kind{CodiceFiscale}},
		{"codice fiscale RSSMRA85T10A562T", nil},
		{"IBAN RO49AAAA1B31007593840000 la BT", []Kind{IBAN}},
		{"IBAN RO49 AAAA 1B31 0075 9384 0000", []Kind{IBAN}},
		{"IBAN IT60X0542811101000000123456", []Kind{IBAN}},
		{"IBAN RO48AAAA1B31007593840000", nil},
		{"IBAN-uri: RO49 AAAA 1B31 0075 9384 0000 IT60 X054 2811 1010 0000 0123 456", []Kind{IBAN, IBAN}},
		{"scrivere a mario.rossi@example.it o chiamare +39 333 123 4567", []Kind{Email, Phone}},
		{"tel. 0721 234 567 sau 0721234567 sau +40 721 234 567", []Kind{Phone, Phone, Phone}},
		{"Roma, tel. 06 1234 5678; cell. 3331234567", []Kind{Phone, Phone}},
		// Legal references, dates and case numbers are not personal data.
		{"art. 1357 C.civ., Legea nr. 554/2004, Cass. pen. n. 12345/2020", nil},
		{"udienza del 05.03.2024 10:30, sentenza del 12/01/2023", nil},
		{"case 3f6c1a2e-9b7d-4c1e-8a2b-0d9e8f7a6b5c", nil},
	} {
		var got []Kind
		for _, m := range Find(tc.text) {
			got = append(got, m.Kind)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Find(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestFindContextStops: a search whose context has ended stops with its error.
func TestFindContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ms, err := FindContext(ctx, "CNP 1800101221144"); !errors.Is(err, context.Canceled) || ms != nil {
		t.Errorf("FindContext after cancel = %v, %v", ms, err)
	}
}

func TestMask(t *testing.T) {
	got := Mask("Ion, CNP 1800101221144, ion@example.ro, IBAN RO49AAAA1B31007593840000.")
	want := "Ion, CNP [cnp], [email], IBAN [iban]."
	if got != want {
		t.Errorf("Mask = %q, want %q", got, want)
	}
	if s := "nimic personal"; Mask(s) != s {
		t.Errorf("Mask changed %q", s)
	}
}

// FuzzMask checks that masking never panics and leaves no match behind.
func FuzzMask(f *testing.F) {
	f.Add("CNP 1800101221144 +40 721 234 567 RSSMRA85T10A562S")
	f.Fuzz(func(t *testing.T, s string) {
		masked := Mask(s)
		if ms := Find(masked); len(ms) > 0 && Mask(masked) != masked {
			t.Errorf("Mask(%q) = %q still holds %v", s, masked, ms)
		}
	})
}

func TestNames(t *testing.T) {
	n := NewNames("Ion Popescu", "Popescu", "Ana", " ", "x", "Str. Lungă 3", "Ana Ionescu", "Ștefan Țurcanu")
	for text, want := range map[string]string{
		"Ion Popescu și ana popescu":       "[party] și [party] [party]",
		"analiza lui Popescului":           "analiza lui Popescului",
		"domiciliat în str. lungă 3, Iași": "domiciliat în [party], Iași",
		"x marks nothing":                  "x marks nothing",
		// "ana Ionescu" inside "Diana Ionescu" is no name, and what follows a
		// rejected match is still searched.
		"Diana Ionescu și Ana Ionescu": "Diana Ionescu și [party]",
		"Diana Popescu":                "Diana [party]",
		// Without diacritics, with cedillas, in capitals.
		"Stefan Turcanu, ŞTEFAN ŢURCANU, ștefan țurcanu": "[party], [party], [party]",
	} {
		if got := n.Mask(text, "[party]"); got != want {
			t.Errorf("Mask(%q) = %q, want %q", text, got, want)
		}
	}
	if got := NewNames().Mask("Ion", "[party]"); got != "Ion" {
		t.Errorf("no names masked %q", got)
	}
}

// TestNamesReplace: each name found is replaced by what the function makes of the
// name as it was given, however the text spells it and spaces it.
func TestNamesReplace(t *testing.T) {
	n := NewNames("Ion Popescu", "Popescu", "Ștefan Țurcanu", "ion  popescu")
	got, err := n.Replace(context.Background(), "ION\nPOPESCU, Stefan   Turcanu și Popescu; Ion\u00a0Popescu.", func(name string) string { return "<" + name + ">" })
	if want := "<Ion Popescu>, <Ștefan Țurcanu> și <Popescu>; <Ion Popescu>."; err != nil || got != want {
		t.Errorf("Replace = %q, %v, want %q", got, err, want)
	}
}
