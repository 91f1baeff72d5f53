package language

import "testing"

func TestGuessLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"Proprietarul nu îmi returnează garanția":              "ro",
		"Angajatorul m-a concediat fără preaviz":               "ro",
		"Il mio padrone di casa non mi restituisce la caparra": "it",
		"Sono stato licenziato senza preavviso":                "it",
		"My landlord kept my deposit and I want to sue him":    "en",
		"Unpaid invoice": "en",
		"GDPR":           "en",
		"Società con sede a Milano, contratto di fornitura e penale per ritardo": "it",
	} {
		if got := Guess(text); got != want {
			t.Errorf("Guess(%q) = %q, want %q", text, got, want)
		}
	}
}

// A text with no word or letter of any language takes the fallback; one that tells
// its language keeps it.
func TestGuessOr(t *testing.T) {
	for text, want := range map[string]string{
		"2043 c.c. ???":            "ro",
		"Fattura 2024/17":          "ro",
		"The landlord kept my key": "en",
		"Sono stato licenziato":    "it",
	} {
		if got := GuessOr(text, "ro"); got != want {
			t.Errorf("GuessOr(%q, ro) = %q, want %q", text, got, want)
		}
	}
}
