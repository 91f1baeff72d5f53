package corpus

import (
	"context"
	"testing"
)

func TestCheckCitations(t *testing.T) {
	text := `Secondo l'art. 2043 c.c. e il Regolamento (UE) 2016/679, art. 17, il danno va risarcito.
Potrivit art. 1357 Cod civil și Legea nr. 287/2009, vezi și Cass. pen., Sez. VI, n. 10387/2025 și Decizia nr. 11/2023.
Non esistono l'art. 9999 c.c., la Legea nr. 1/1800 né Cass. pen., Sez. I, n. 10387/2025; l'art. 17 GDPR sì, e l'art. 5 d.lgs. 231/2001.`
	got, err := db.CheckCitations(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text     string
		verified bool
		docID    string
	}{
		{"art. 2043 c.c.", true, "it/rd-262-1942/art-2043"},
		{"Regolamento (UE) 2016/679, art. 17", true, "eu/32016R0679/it/art-17"},
		{"art. 1357 Cod civil", true, "ro/legea-287-2009/art-1357"},
		{"Legea nr. 287/2009", true, "ro/legea-287-2009/art-1"},
		{"Cass. pen., Sez. VI, n. 10387/2025", true, "it/cass/10387-2025"},
		{"Decizia nr. 11/2023", true, "ro/iccj/ril-11-2023"},
		{"art. 9999 c.c.", false, ""},
		{"Legea nr. 1/1800", false, ""},
		// The number exists, but in another section.
		{"Cass. pen., Sez. I, n. 10387/2025", false, ""},
		{"art. 17 GDPR", true, "eu/32016R0679/en/art-17"},
		{"art. 5 d.lgs. 231/2001", true, "it/dlgs-231-2001/art-5"},
	}
	if len(got) != len(want) {
		t.Fatalf("found %d citations, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Text != w.text || got[i].Verified != w.verified || got[i].DocID != w.docID {
			t.Errorf("citation %d = %+v, want %+v", i, got[i], w)
		}
		if w.verified && got[i].URL == "" {
			t.Errorf("%s has no URL", w.text)
		}
	}
}

func TestMarkUnverified(t *testing.T) {
	text := "Vedi art. 2043 c.c. e art. 9999 c.c., poi Legea nr. 1/1800."
	cits, err := db.CheckCitations(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	got := MarkUnverified(text, cits, "[non verificato]")
	want := "Vedi art. 2043 c.c. e art. 9999 c.c. [non verificato], poi Legea nr. 1/1800 [non verificato]."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
