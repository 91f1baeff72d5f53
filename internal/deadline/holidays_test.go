package deadline

import (
	"slices"
	"testing"
	"time"
)

// holidayDays writes a year's holidays as days.
func holidayDays(hs []Holiday) []string {
	var out []string
	for _, h := range hs {
		out = append(out, day(h.Date))
	}
	return out
}

// TestHolidaysROOfficialLists compares Romania's computed holidays with the lists
// published for named years. Art. 139 alin. (1) Codul muncii: "Zilele de sărbătoare
// legală în care nu se lucrează sunt: 1 și 2 ianuarie; 6 ianuarie […]; 7 ianuarie
// […]; 24 ianuarie […]; Vinerea Mare, ultima zi de vineri înaintea Paștelui; prima și
// a doua zi de Paști; 1 mai; 1 iunie; prima și a doua zi de Rusalii; Adormirea Maicii
// Domnului; 30 noiembrie […]; 1 decembrie; prima și a doua zi de Crăciun".
func TestHolidaysROOfficialLists(t *testing.T) {
	for _, tc := range []struct {
		year   int
		source string
		want   []string
	}{
		// Art. 139 before Legea nr. 52/2023 (M.Of. nr. 186 of 6 March 2023), as listed
		// at itmconsulting.ro: no 6 and 7 January; Paștele 16 April, Rusalii 4 June.
		{2023, "art. 139 Codul muncii before Legea nr. 52/2023 (itmconsulting.ro/itmconsulting/zilele-de-sarbatoare-legala-in-care-nu-se-lucreaza)",
			[]string{"2023-01-01", "2023-01-02", "2023-01-24", "2023-04-14", "2023-04-16", "2023-04-17", "2023-05-01",
				"2023-06-01", "2023-06-04", "2023-06-05", "2023-08-15", "2023-11-30", "2023-12-01", "2023-12-25", "2023-12-26"}},
		// zile-libere.info, "Zile Libere 2025": 17 days, Paștele 20 April (Orthodox and
		// Catholic on the same day that year).
		{2025, "zile-libere.info (Zile Libere 2025)",
			[]string{"2025-01-01", "2025-01-02", "2025-01-06", "2025-01-07", "2025-01-24", "2025-04-18", "2025-04-20",
				"2025-04-21", "2025-05-01", "2025-06-01", "2025-06-08", "2025-06-09", "2025-08-15", "2025-11-30",
				"2025-12-01", "2025-12-25", "2025-12-26"}},
		// realitatea.net, 29 December 2025, "Lista completă a zilelor libere legale în
		// 2026": 1 June is both Whit Monday and Children's Day.
		{2026, "realitatea.net (Lista completă a zilelor libere legale în 2026)",
			[]string{"2026-01-01", "2026-01-02", "2026-01-06", "2026-01-07", "2026-01-24", "2026-04-10", "2026-04-12",
				"2026-04-13", "2026-05-01", "2026-05-31", "2026-06-01", "2026-06-01", "2026-08-15", "2026-11-30",
				"2026-12-01", "2026-12-25", "2026-12-26"}},
	} {
		if got := holidayDays(HolidaysRO(tc.year)); !slices.Equal(got, tc.want) {
			t.Errorf("%d (%s):\n got %v\nwant %v", tc.year, tc.source, got, tc.want)
		}
	}
}

// TestHolidaysITOfficialLists compares Italy's computed holidays with art. 2 L.
// 260/1949 as in force for named years ("Sono considerati giorni festivi […]: tutte
// le domeniche; il primo giorno dell'anno; il giorno dell'Epifania; il 25 aprile […];
// il giorno di lunedì dopo Pasqua; il 1° maggio […]; il giorno dell'Assunzione della
// B. V. Maria; il 4 ottobre […]; il giorno di Ognissanti; […] l'Immacolata Concezione;
// il giorno di Natale; il giorno 26 dicembre"), with 2 June (art. 1, L. 336/2000).
// 4 October is a holiday from 2026: L. 151/2025 (G.U. n. 236 of 10 October 2025, in
// force 1 January 2026, normattiva.it urn:nir:stato:legge:2025-10-08;151).
func TestHolidaysITOfficialLists(t *testing.T) {
	for _, tc := range []struct {
		year int
		want []string
	}{
		{2024, []string{"2024-01-01", "2024-01-06", "2024-03-31", "2024-04-01", "2024-04-25", "2024-05-01", "2024-06-02",
			"2024-08-15", "2024-11-01", "2024-12-08", "2024-12-25", "2024-12-26"}},
		{2025, []string{"2025-01-01", "2025-01-06", "2025-04-20", "2025-04-21", "2025-04-25", "2025-05-01", "2025-06-02",
			"2025-08-15", "2025-11-01", "2025-12-08", "2025-12-25", "2025-12-26"}},
		{2026, []string{"2026-01-01", "2026-01-06", "2026-04-05", "2026-04-06", "2026-04-25", "2026-05-01", "2026-06-02",
			"2026-08-15", "2026-10-04", "2026-11-01", "2026-12-08", "2026-12-25", "2026-12-26"}},
	} {
		if got := holidayDays(HolidaysIT(tc.year)); !slices.Equal(got, tc.want) {
			t.Errorf("%d:\n got %v\nwant %v", tc.year, got, tc.want)
		}
	}
}

// TestHolidaysCoverEveryYear checks 2020–2035: every year has its fixed holidays and
// its movable ones on the right weekday (Good Friday, Easter Monday, Whit Monday),
// and the holidays added by law appear from their first year only.
func TestHolidaysCoverEveryYear(t *testing.T) {
	for y := 2020; y <= 2035; y++ {
		ro, it := HolidaysRO(y), HolidaysIT(y)
		wantRO, wantIT := 17, 12
		if y < 2024 {
			wantRO = 15 // 6 and 7 January from 2024 (Legea nr. 52/2023)
		}
		if y >= 2026 {
			wantIT = 13 // 4 October from 2026 (L. 151/2025)
		}
		if len(ro) != wantRO || len(it) != wantIT {
			t.Errorf("%d: %d Romanian and %d Italian holidays, want %d and %d", y, len(ro), len(it), wantRO, wantIT)
		}
		e := orthodoxEaster(y)
		for offset, wd := range map[int]time.Weekday{-2: time.Friday, 1: time.Monday, 50: time.Monday} {
			d := addDays(e, offset)
			if !slices.Contains(holidayDays(ro), day(d)) || d.Weekday() != wd {
				t.Errorf("%d: %s (Orthodox Easter %+d) is not a Romanian holiday on a %s", y, day(d), offset, wd)
			}
		}
		if m := addDays(westernEaster(y), 1); !slices.Contains(holidayDays(it), day(m)) || m.Weekday() != time.Monday {
			t.Errorf("%d: Easter Monday %s is not an Italian holiday", y, day(m))
		}
	}
}
