package deadline

import "testing"

// Articles quoted by the Romanian examples (Legea nr. 134/2010, republished; Legea nr.
// 287/2009):
//
//	art. 181 alin. (1) C.proc.civ.: "2. când termenul se socotește pe zile, nu intră în
//	calcul ziua de la care începe să curgă termenul, nici ziua când acesta se
//	împlinește; 3. când termenul se socotește pe săptămâni, luni sau ani, el se
//	împlinește în ziua corespunzătoare din ultima săptămână ori lună sau din ultimul
//	an. Dacă ultima lună nu are zi corespunzătoare celei în care termenul a început să
//	curgă, termenul se împlinește în ultima zi a acestei luni."
//	art. 181 alin. (2): "Când ultima zi a unui termen cade într-o zi nelucrătoare,
//	termenul se prelungește până în prima zi lucrătoare care urmează."
//	art. 2553 alin. (1) C.civ.: "Când termenul se stabilește pe zile, nu se iau în
//	calcul prima și ultima zi a termenului."
//	art. 2552 alin. (2) C.civ.: "Dacă ultima lună nu are o zi corespunzătoare celei în
//	care termenul a început să curgă, termenul se împlinește în ultima zi a acestei
//	luni."
//	art. 2554 C.civ.: "Dacă ultima zi a termenului este o zi nelucrătoare, termenul se
//	consideră împlinit la sfârșitul primei zile lucrătoare care îi urmează."
const (
	freeDays    = "art. 181 alin. (1) pct. 2 C.proc.civ."
	periodsRO   = "art. 181 alin. (1) pct. 3 C.proc.civ."
	prorogation = "art. 181 alin. (2) C.proc.civ."
)

func ro(from string, amount int, unit string) Request {
	return Request{Jurisdiction: Romania, From: from, Amount: amount, Unit: unit}
}

func roBack(from string, amount int, unit string) Request {
	r := ro(from, amount, unit)
	r.Direction = Backward
	return r
}

func roCC(from string, amount int, unit string) Request {
	r := ro(from, amount, unit)
	r.Code = CodeCC
	return r
}

// TestWorkedExamplesRO is the Romanian table: free days, month ends, leap years,
// Romanian and Orthodox holidays, the holidays added by law from their first year,
// the Civil Code's rules and terms counted backward.
func TestWorkedExamplesRO(t *testing.T) {
	days, fwd := []string{"ro.days.free", "ro.end"}, []string{"ro.days.free", "ro.prorogation", "ro.end"}
	months, monthsMoved := []string{"ro.months", "ro.end"}, []string{"ro.months", "ro.prorogation", "ro.end"}
	check(t, []worked{
		{"avocatnet.ro (forum, art. 181 C.proc.civ.): a minute communicated on 10.09.2025, 15 days: first day 11.09, last 25.09, the act on 26.09.2025 — " + freeDays,
			ro("2025-09-10", 15, Days), "2025-09-26", nil, days},
		{"revizio.ro, Termene procedurale: \"se acordă termen de 3 zile – vor fi la dispoziție de fapt 5 zile\" — " + freeDays,
			ro("2025-03-03", 3, Days), "2025-03-07", nil, days},
		{"appeal of 30 days from communication (art. 468 alin. (1) C.proc.civ.) counted in free days — " + freeDays,
			ro("2024-06-03", 30, Days), "2024-07-04", nil, days},
		{"2024 is a leap year: 30 free days from 1 March end on 1 April; the Catholic Easter Monday is a working day in Romania — " + freeDays,
			ro("2024-03-01", 30, Days), "2024-04-01", nil, days},
		{"last day a Saturday: the term runs to Monday — " + prorogation,
			ro("2024-01-11", 15, Days), "2024-01-29", []string{"2024-01-27", "2024-01-28"}, fwd},
		{"last day 24 January, Ziua Unirii (Legea nr. 171/2016) — " + prorogation,
			ro("2024-01-08", 15, Days), "2024-01-25", []string{"2024-01-24"}, fwd},
		{"last day 6 January 2025: Boboteaza and Sfântul Ioan are holidays from 2024 (Legea nr. 52/2023) — " + prorogation,
			ro("2024-12-20", 16, Days), "2025-01-08", []string{"2025-01-06", "2025-01-07"}, fwd},
		{"6 January 2023 was a working day: Legea nr. 52/2023 came in March 2023 — " + freeDays,
			ro("2022-12-21", 15, Days), "2023-01-06", nil, days},
		{"Orthodox Easter 2024 (5 May, not the Catholic 31 March): Vinerea Mare, the weekend and a doua zi de Paște — " + prorogation,
			ro("2024-04-16", 16, Days), "2024-05-07", []string{"2024-05-03", "2024-05-04", "2024-05-05", "2024-05-06"}, fwd},
		{"1 May, Ziua Muncii — " + prorogation,
			ro("2024-04-15", 15, Days), "2024-05-02", []string{"2024-05-01"}, fwd},
		{"Orthodox Pentecost 2024: Rusaliile 23 June and a doua zi 24 June — " + prorogation,
			ro("2024-06-07", 15, Days), "2024-06-25", []string{"2024-06-23", "2024-06-24"}, fwd},
		{"1 June 2026 is both a doua zi de Rusalii and Ziua Copilului (Legea nr. 220/2016) — " + prorogation,
			ro("2026-05-15", 16, Days), "2026-06-02", []string{"2026-06-01"}, fwd},
		{"15 August, Adormirea Maicii Domnului: Romania has no judicial vacation suspending terms — " + prorogation,
			ro("2024-07-30", 15, Days), "2024-08-16", []string{"2024-08-15"}, fwd},
		{"30 November (Legea nr. 147/2012) and 1 December — " + prorogation,
			ro("2026-11-14", 15, Days), "2026-12-02", []string{"2026-11-30", "2026-12-01"}, fwd},
		{"Christmas 2025 and the weekend after — " + prorogation,
			ro("2025-12-09", 15, Days), "2025-12-29", []string{"2025-12-25", "2025-12-26", "2025-12-27", "2025-12-28"}, fwd},
		{"6 and 7 January 2026 — " + prorogation,
			ro("2025-12-20", 16, Days), "2026-01-08", []string{"2026-01-06", "2026-01-07"}, fwd},
		{"31 January + 1 month: February has no 31st, so its last day — " + periodsRO,
			ro("2025-01-31", 1, Months), "2025-02-28", nil, []string{"ro.months.last-day", "ro.end"}},
		{"leap year: 31 January 2024 + 1 month is 29 February — " + periodsRO,
			ro("2024-01-31", 1, Months), "2024-02-29", nil, []string{"ro.months.last-day", "ro.end"}},
		{"29 February 2024 + 1 year: 2025 has no 29 February — " + periodsRO,
			ro("2024-02-29", 1, Years), "2025-02-28", nil, []string{"ro.months.last-day", "ro.end"}},
		{"31 March + 1 month ends on 30 April, a Sunday, and 1 May is a holiday — " + periodsRO + ", " + prorogation,
			ro("2023-03-31", 1, Months), "2023-05-02", []string{"2023-04-30", "2023-05-01"}, []string{"ro.months.last-day", "ro.prorogation", "ro.end"}},
		{"2 weeks end on the corresponding weekday — " + periodsRO,
			ro("2024-03-06", 2, Weeks), "2024-03-20", nil, []string{"ro.weeks", "ro.end"}},
		{"a week ending on Sfântul Andrei, then Ziua Națională (a Sunday) — " + periodsRO + ", " + prorogation,
			ro("2024-11-23", 1, Weeks), "2024-12-02", []string{"2024-11-30", "2024-12-01"}, []string{"ro.weeks", "ro.prorogation", "ro.end"}},
		{"3 months across the new year — " + periodsRO,
			ro("2024-10-15", 3, Months), "2025-01-15", nil, months},
		{"1 year — " + periodsRO,
			ro("2023-05-10", 1, Years), "2024-05-10", nil, months},
		{"1 year ending on the Orthodox Easter Monday of 2024 — " + periodsRO + ", " + prorogation,
			ro("2023-05-06", 1, Years), "2024-05-07", []string{"2024-05-06"}, monthsMoved},
		{"the Civil Code counts days the same way: \"nu se iau în calcul prima și ultima zi\" — art. 2553 alin. (1) C.civ.",
			roCC("2025-09-10", 15, Days), "2025-09-26", nil, days},
		{"6 months from 31 August end on the last day of February — art. 2552 alin. (2) C.civ.",
			roCC("2021-08-31", 6, Months), "2022-02-28", nil, []string{"ro.months.last-day", "ro.end"}},
		{"the 3-year prescription (art. 2517 C.civ.) ending on 24 January 2025, a Friday holiday, then a weekend — art. 2552, art. 2554 C.civ.",
			roCC("2022-01-24", 3, Years), "2025-01-27", []string{"2025-01-24", "2025-01-25", "2025-01-26"}, monthsMoved},
		{"5 free days before a hearing on Friday 14 March 2025: 9 to 13 March are the free days, so the act by the 8th, a Saturday, which moves earlier — " + freeDays,
			roBack("2025-03-14", 5, Days), "2025-03-07", []string{"2025-03-08"}, []string{"ro.days.free", "ro.backward.earlier", "ro.end"}},
		{"10 free days before a hearing on Tuesday 18 March 2025 — " + freeDays,
			roBack("2025-03-18", 10, Days), "2025-03-07", nil, days},
		{"8 free days before 15 May 2024 end on the Orthodox Easter Monday, and move back past Easter and Vinerea Mare — " + freeDays,
			roBack("2024-05-15", 8, Days), "2024-05-02", []string{"2024-05-06", "2024-05-05", "2024-05-04", "2024-05-03"}, []string{"ro.days.free", "ro.backward.earlier", "ro.end"}},
		{"1 week before a hearing — " + periodsRO,
			roBack("2025-12-02", 1, Weeks), "2025-11-25", nil, []string{"ro.weeks", "ro.end"}},
		{"1 month before 31 March: February's last day — " + periodsRO,
			roBack("2025-03-31", 1, Months), "2025-02-28", nil, []string{"ro.months.last-day", "ro.end"}},
	})
}
