package deadline

import "testing"

// Articles and case law quoted by the Italian examples:
//
//	art. 155 c.p.c.: "Nel computo dei termini a giorni o ad ore, si escludono il
//	giorno o l'ora iniziali. Per il computo dei termini a mesi o ad anni, si osserva il
//	calendario comune. […] Se il giorno di scadenza è festivo, la scadenza è prorogata
//	di diritto al primo giorno seguente non festivo. La proroga prevista dal quarto
//	comma si applica altresì ai termini per il compimento degli atti processuali svolti
//	fuori dell'udienza che scadono nella giornata del sabato."
//	art. 2963 c.c.: "Non si computa il giorno nel corso del quale cade il momento
//	iniziale del termine […]. Se il termine scade in giorno festivo, è prorogato di
//	diritto al giorno seguente non festivo. […] Se nel mese di scadenza manca tale
//	giorno, il termine si compie con l'ultimo giorno dello stesso mese."
//	art. 1 L. 742/1969: "Il decorso dei termini processuali […] è sospeso di diritto
//	dal 1° al 31 agosto di ciascun anno, e riprende a decorrere dalla fine del periodo
//	di sospensione. Ove il decorso abbia inizio durante il periodo di sospensione,
//	l'inizio stesso è differito alla fine di detto periodo."
//	Cass. n. 14147/2020: a term starting in the suspension starts "il 1° settembre
//	[…] che va, quindi, computato"; six months then end on 1 March.
//	Cass. n. 12044/2010: a term counted backward that meets the suspension meets "una
//	parentesi oltre la quale il conteggio stesso deve proseguire fino ad esaurimento".
//	Cass. n. 14767/2014: for backward terms the move of art. 155 co. 4–5 "opera in
//	modo speculare", to the previous day that is neither a holiday nor a Saturday.
//	Cass. n. 6748/2005 and n. 16549/2012: the long term of art. 327 c.p.c. is counted
//	by the calendar, then lengthened by the suspension, again for each August it
//	reaches.
const (
	art155     = "art. 155 c.p.c."
	l742       = "art. 1 L. 742/1969"
	art2963    = "art. 2963 c.c."
	ddpExample = "serviziamministrativi.ddp.it, Sospensione feriale dei termini processuali (2023)"
)

func it(from string, amount int, unit string) Request {
	return Request{Jurisdiction: Italy, From: from, Amount: amount, Unit: unit}
}

func itBack(from string, amount int, unit string) Request {
	r := it(from, amount, unit)
	r.Direction = Backward
	return r
}

func itNoSuspension(r Request) Request {
	r.Suspension = ptr(false)
	return r
}

func itCC(from string, amount int, unit string) Request {
	r := it(from, amount, unit)
	r.Code = CodeCC
	return r
}

// TestWorkedExamplesIT is the Italian table: days from the day after, months by the
// calendar, Sundays, holidays and Saturdays, Easter Monday, 4 October from 2026, the
// August suspension forward, from inside it and backward, the exempt proceedings,
// the civil code's rule, and backward terms moving earlier.
func TestWorkedExamplesIT(t *testing.T) {
	days, moved := []string{"it.days", "it.end"}, []string{"it.days", "it.holiday", "it.end"}
	susp, suspMoved := []string{"it.suspension", "it.days", "it.end"}, []string{"it.suspension", "it.days", "it.holiday", "it.end"}
	start := []string{"it.suspension.start", "it.days", "it.end"}
	check(t, []worked{
		{ddpExample + ": an act notified between 1 and 31 August 2023, 60 days: the term ends on 30.10.2023 — " + l742,
			it("2023-08-10", 60, Days), "2023-10-30", []string{"2023-08-10"}, start},
		{ddpExample + ": notified on 20.7.2023, 60 days end on 19.10.2023 — " + l742,
			it("2023-07-20", 60, Days), "2023-10-19", []string{"2023-08-01"}, susp},
		{ddpExample + ": a hearing on 5.9.2023 and a deposit 20 days before, which the suspension pushes into July: by 14.7.2023 (the page counts free days under art. 32 D.Lgs. 546/1992; counted by art. 155 the 20th day is Sunday 16 July, which moves back past the Saturday) — Cass. n. 12044/2010, n. 14767/2014",
			itBack("2023-09-05", 20, Days), "2023-07-14", []string{"2023-08-01", "2023-07-16", "2023-07-15"}, []string{"it.suspension.backward", "it.days", "it.backward.earlier", "it.end"}},
		{"ateneoweb.com, Termini processuali in pausa estiva: notified on 8 July, 60 days: 23 days to 31 July, 37 from 1 September, so 7 October — in 2023 a Saturday, which moves to Monday 9 — " + l742 + ", " + art155 + " co. 5",
			it("2023-07-08", 60, Days), "2023-10-09", []string{"2023-08-01", "2023-10-07", "2023-10-08"}, suspMoved},
		{"Cass. civ. n. 14147/2020: a decision deposited in August; six months run from 1 September, which counts, and end on 1 March — " + l742 + ", " + art155 + " co. 2",
			it("2021-08-10", 6, Months), "2022-03-01", []string{"2021-08-10"}, []string{"it.suspension.start", "it.months", "it.end"}},
		{"Cass. civ. n. 12044/2010: 20 days before a hearing on 12 September 2024 meet the suspension, and the count goes on in July",
			itBack("2024-09-12", 20, Days), "2024-07-23", []string{"2024-08-01"}, []string{"it.suspension.backward", "it.days", "it.end"}},
		{"the short term to appeal, 30 days (art. 325 c.p.c.), the day of notification excluded — " + art155 + " co. 1",
			it("2024-03-04", 30, Days), "2024-04-03", nil, days},
		{"Easter Monday 2024 (1 April; the Orthodox Easter was 5 May) — " + art155 + " co. 4",
			it("2024-03-02", 30, Days), "2024-04-02", []string{"2024-04-01"}, moved},
		{"a Saturday and a Sunday — " + art155 + " co. 4–5",
			it("2024-02-01", 30, Days), "2024-03-04", []string{"2024-03-02", "2024-03-03"}, moved},
		{"the civil code's rule knows no Saturday: a term ending on Saturday 2 March 2024 ends then — " + art2963 + " co. 3",
			itCC("2024-02-01", 30, Days), "2024-03-02", nil, days},
		{"25 April 2025, a Friday, then the weekend — " + art155 + " co. 4",
			it("2025-03-26", 30, Days), "2025-04-28", []string{"2025-04-25", "2025-04-26", "2025-04-27"}, moved},
		{"2 June 2025, Festa della Repubblica — " + art155 + " co. 4",
			it("2025-05-03", 30, Days), "2025-06-03", []string{"2025-06-02"}, moved},
		{"4 October 2027, San Francesco d'Assisi, a holiday from 2026 (L. 151/2025) — " + art155 + " co. 4",
			it("2027-09-04", 30, Days), "2027-10-05", []string{"2027-10-04"}, moved},
		{"4 October 2024 was a working day: L. 151/2025 applies from 1 January 2026 — " + art155 + " co. 1",
			it("2024-09-04", 30, Days), "2024-10-04", nil, days},
		{"8 December 2025, Immacolata — " + art155 + " co. 4",
			it("2025-11-08", 30, Days), "2025-12-09", []string{"2025-12-08"}, moved},
		{"Christmas 2025, Santo Stefano and the weekend — " + art155 + " co. 4–5",
			it("2025-11-25", 30, Days), "2025-12-29", []string{"2025-12-25", "2025-12-26", "2025-12-27", "2025-12-28"}, moved},
		{"1 November 2024, Ognissanti, a Friday — " + art155 + " co. 4–5",
			it("2024-10-02", 30, Days), "2024-11-04", []string{"2024-11-01", "2024-11-02", "2024-11-03"}, moved},
		{"31 January + 1 month: 28 February — " + art155 + " co. 2, " + art2963 + " co. 4",
			it("2025-01-31", 1, Months), "2025-02-28", nil, []string{"it.months.last-day", "it.end"}},
		{"leap year: 31 January 2024 + 1 month is 29 February — " + art2963 + " co. 4",
			it("2024-01-31", 1, Months), "2024-02-29", nil, []string{"it.months.last-day", "it.end"}},
		{"the long term of six months (art. 327 c.p.c.) spanning no August, ending on a Saturday — " + art155 + " co. 2 and 5",
			it("2024-09-15", 6, Months), "2025-03-17", []string{"2025-03-15", "2025-03-16"}, []string{"it.months", "it.holiday", "it.end"}},
		{"six months spanning August: the calendar gives 12 September, the suspension adds 31 days, 13 October is a Sunday — Cass. n. 6748/2005, " + l742,
			it("2024-03-12", 6, Months), "2024-10-14", []string{"2024-08-01", "2024-10-13"}, []string{"it.months", "it.suspension", "it.holiday", "it.end"}},
		{"a year whose lengthening reaches the next August, which lengthens it again — Cass. n. 16549/2012",
			it("2023-07-20", 1, Years), "2024-09-20", []string{"2023-08-01", "2024-08-01"}, []string{"it.months", "it.suspension", "it.suspension", "it.end"}},
		{"29 February 2024 + 1 year: 28 February 2025, then the 31 days of August 2024 — " + art2963 + " co. 4, " + l742,
			it("2024-02-29", 1, Years), "2025-03-31", []string{"2024-08-01"}, []string{"it.months.last-day", "it.suspension", "it.end"}},
		{"a labour case (art. 3 L. 742/1969): no suspension, 30 days from 20 July end on 19 August — " + art155 + " co. 1",
			itNoSuspension(it("2024-07-20", 30, Days)), "2024-08-19", nil, days},
		{"without the suspension, 15 August (Assunzione) moves the term — " + art155 + " co. 4",
			itNoSuspension(it("2024-07-16", 30, Days)), "2024-08-16", []string{"2024-08-15"}, moved},
		{"30 days from 15 July across August: 16 days in July, 14 in September, Saturday 14 moves to Monday — " + l742,
			it("2024-07-15", 30, Days), "2024-09-16", []string{"2024-08-01", "2024-09-14", "2024-09-15"}, suspMoved},
		{"30 days from 5 August: the start is deferred, 1 September is the first day — " + l742 + "; Cass. n. 688/2006",
			it("2024-08-05", 30, Days), "2024-09-30", []string{"2024-08-05"}, start},
		{"10 days from 31 July: the first day, 1 August, is suspended — " + l742,
			it("2024-07-31", 10, Days), "2024-09-10", []string{"2024-08-01"}, susp},
		{"10 days from 31 August — " + l742,
			it("2024-08-31", 10, Days), "2024-09-10", []string{"2024-08-31"}, start},
		{"a memory 5 days before a hearing on 20 March 2024 (a termine a ritroso) — " + art155 + " co. 1",
			itBack("2024-03-20", 5, Days), "2024-03-15", nil, days},
		{"5 days before Friday 22 March 2024 is a Sunday: it moves earlier, past the Saturday — Cass. n. 14767/2014",
			itBack("2024-03-22", 5, Days), "2024-03-15", []string{"2024-03-17", "2024-03-16"}, []string{"it.days", "it.backward.earlier", "it.end"}},
		{"10 days before 11 April 2024 is Easter Monday: back past Easter and the Saturday — Cass. n. 14767/2014",
			itBack("2024-04-11", 10, Days), "2024-03-29", []string{"2024-04-01", "2024-03-31", "2024-03-30"}, []string{"it.days", "it.backward.earlier", "it.end"}},
		{"a labour hearing on 10 September 2024: 20 days before, with no suspension, is 21 August — art. 3 L. 742/1969, " + art155,
			itNoSuspension(itBack("2024-09-10", 20, Days)), "2024-08-21", nil, days},
		{"5 years of prescription ending on a working day — " + art2963 + " co. 1, 4",
			itCC("2021-06-15", 5, Years), "2026-06-15", nil, []string{"it.months", "it.end"}},
		{"the civil code's terms know no August suspension: 6 months from 12 March 2024 end on 12 September — " + art2963,
			itCC("2024-03-12", 6, Months), "2024-09-12", nil, []string{"it.months", "it.end"}},
		{"10 years ending at Christmas 2025: Natale and Santo Stefano move it, a Saturday does not (civil code) — " + art2963 + " co. 3",
			itCC("2015-12-25", 10, Years), "2025-12-27", []string{"2025-12-25", "2025-12-26"}, []string{"it.months", "it.holiday", "it.end"}},
		{"2 weeks are 14 days — " + art155 + " co. 1",
			it("2024-10-07", 2, Weeks), "2024-10-21", nil, days},
	})
}
