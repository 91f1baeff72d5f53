package deadline

import "testing"

// TestAddMonths: art. 181 alin. (1) pct. 3 C.proc.civ., "Dacă ultima lună nu are zi
// corespunzătoare celei în care termenul a început să curgă, termenul se împlinește
// în ultima zi a acestei luni"; art. 2963 co. 4 c.c., "Se nel mese di scadenza manca
// tale giorno, il termine si compie con l'ultimo giorno dello stesso mese".
func TestAddMonths(t *testing.T) {
	for _, tc := range []struct {
		from   string
		months int
		want   string
		lacked bool
	}{
		{"2025-01-31", 1, "2025-02-28", true},
		{"2024-01-31", 1, "2024-02-29", true},
		{"2024-02-29", 12, "2025-02-28", true},
		{"2024-02-29", 48, "2028-02-29", false},
		{"2025-03-31", -1, "2025-02-28", true},
		{"2025-05-31", 1, "2025-06-30", true},
		{"2025-01-15", 1, "2025-02-15", false},
		{"2025-12-31", 2, "2026-02-28", true},
		{"2025-01-30", -13, "2023-12-30", false},
	} {
		from, _ := parseDay(tc.from)
		got, lacked := addMonths(from, tc.months)
		if day(got) != tc.want || lacked != tc.lacked {
			t.Errorf("%s %+d months = %s (lacked %v), want %s (%v)", tc.from, tc.months, day(got), lacked, tc.want, tc.lacked)
		}
	}
}

// TestWorkweeks: art. 181 alin. (2) C.proc.civ. moves a term off "o zi nelucrătoare"
// (Saturdays and Sundays, art. 137 Codul muncii, and the holidays of art. 139);
// art. 155 co. 4–5 c.p.c. off a holiday or a Saturday; art. 2963 co. 3 c.c. off a
// holiday only.
func TestWorkweeks(t *testing.T) {
	roW, cpc, cc := newWorkweek(HolidaysRO, weekendRO), newWorkweek(HolidaysIT, weekendIT[CodeCPC]), newWorkweek(HolidaysIT, weekendIT[CodeCC])
	for _, tc := range []struct {
		w      *workweek
		name   string
		day    string
		closed bool
	}{
		{roW, "ro", "2024-05-06", true},  // Orthodox Easter Monday
		{roW, "ro", "2024-04-01", false}, // the Catholic Easter Monday
		{roW, "ro", "2024-03-02", true},  // a Saturday
		{cpc, "it cpc", "2024-03-02", true},
		{cc, "it cc", "2024-03-02", false},
		{cc, "it cc", "2024-03-03", true}, // a Sunday
		{cpc, "it cpc", "2024-04-01", true},
		{cpc, "it cpc", "2026-10-05", false},
		{cpc, "it cpc", "2027-10-04", true},
	} {
		d, _ := parseDay(tc.day)
		if _, closed := tc.w.closed(d); closed != tc.closed {
			t.Errorf("%s %s closed = %v, want %v", tc.name, tc.day, closed, tc.closed)
		}
	}
	d, _ := parseDay("2026-06-01")
	if reason, _ := roW.closed(d); reason != "public holiday: Ziua Copilului (Children's Day) ("+codulMuncii+", added by Legea nr. 220/2016); A doua zi de Rusalii (Orthodox Whit Monday) ("+codulMuncii+")" {
		t.Errorf("1 June 2026: %q", reason)
	}
}
