package draft

import (
	"fmt"
	"strings"
)

// Sample returns a synthetic Romanian statement of claim ("cerere de chemare în
// judecată") that renders to about that many A4 pages: headings, paragraphs with bold and
// italic, nested lists, quotations and tables, with every Romanian diacritic. The same
// pages always give the same text; benchmarks and tests use it.
func Sample(pages int) string {
	var b strings.Builder
	b.WriteString(sampleOpening)
	// The opening and closing fill about a page and a half; each episode about 0.55.
	for i := range max(0, pages*9/5-3) {
		writeEpisode(&b, i)
	}
	b.WriteString(sampleClosing)
	return b.String()
}

const sampleOpening = `# CERERE DE CHEMARE ÎN JUDECATĂ

**Către:** Judecătoria Sectorului 1 București  
**Dosar nr.:** 18342/299/2026  
**Termen:** *se va fixa de instanță*

Domnule Președinte,

## I. Părțile

**Reclamant:** Ștefan-Cătălin Iordache, cetățean român, domiciliat în București, str. Țăranului nr. 14, bl. A2, sc. 1, ap. 9, sectorul 3, posesor al C.I. seria RX nr. 482913, CNP 1850417400231, cu domiciliul procesual ales la *Cabinet de avocat Ioana Mureșan*, București, Bd. Unirii nr. 27, et. 4.

**Pârât:** S.C. Construcții Bârlădeanu S.R.L., cu sediul în Iași, Șoseaua Păcurari nr. 112, înmatriculată la Oficiul Registrului Comerțului sub nr. J22/1984/2011, CUI RO 28817342, reprezentată legal de administrator Gheorghiță Țurcanu.

## II. Obiectul cererii

Prin prezenta, în temeiul art. 194 și următoarele din Codul de procedură civilă, formulăm **cerere de chemare în judecată** și vă solicităm ca, prin hotărârea ce o veți pronunța, să dispuneți:

1. obligarea pârâtei la plata sumei de **48.750 lei**, reprezentând contravaloarea lucrărilor neexecutate;
2. obligarea pârâtei la plata penalităților de întârziere de *0,1% pe zi*, calculate de la data scadenței și până la plata efectivă;
3. obligarea pârâtei la plata dobânzii legale penalizatoare, conform O.G. nr. 13/2011;
4. obligarea pârâtei la plata cheltuielilor de judecată ocazionate de prezentul proces.

Evaluăm obiectul cererii la suma de **62.415 lei**, față de care am achitat taxa judiciară de timbru aferentă.

## III. Situația de fapt

Între reclamant, în calitate de *beneficiar*, și pârâtă, în calitate de *antreprenor*, s-a încheiat contractul de antrepriză nr. 77 din 14 martie 2025, având ca obiect renovarea și consolidarea imobilului situat în comuna Mărășești, județul Vrancea. Prezentăm mai jos, în ordine cronologică, împrejurările care au condus la litigiu.

`

// sampleSentences are recombined, deterministically, into the episodes' paragraphs.
var sampleSentences = []string{
	"Pârâta s-a obligat să execute lucrările în termen de **90 de zile** de la semnarea procesului-verbal de predare a amplasamentului.",
	"La data stabilită, reprezentanții pârâtei nu s-au prezentat pe șantier, deși au fost notificați în scris și telefonic.",
	"Reclamantul a achitat integral avansul de *30%* din valoarea contractului, astfel cum rezultă din ordinul de plată anexat.",
	"Din cuprinsul raportului de expertiză rezultă că fundația a fost turnată fără respectarea proiectului tehnic și a normativelor în vigoare.",
	"În ședința din 12 mai, părțile au încercat o soluționare amiabilă, însă pârâta a refuzat orice înțelegere rezonabilă.",
	"Martorii Ana-Maria Vâlcu și Traian Știrbei au constatat personal că șantierul era abandonat încă din luna iunie.",
	"Prin notificarea nr. 214, comunicată prin executor judecătoresc, pârâta a fost pusă în întârziere conform art. 1.522 C. civ.",
	"Această atitudine ***dovedește reaua-credință*** a pârâtei și justifică pe deplin acordarea daunelor-interese solicitate.",
	"Întârzierea a produs reclamantului prejudicii suplimentare, întrucât acesta a fost nevoit să închirieze o locuință temporară în Focșani.",
	"Facturile emise de pârâtă cuprind lucrări care nu au fost niciodată executate, precum izolația termică și tâmplăria din lemn stratificat.",
	"În ciuda somațiilor repetate, pârâta nu a remediat defectele semnalate și nici nu a restituit sumele încasate fără temei.",
	"Reclamantul și-a îndeplinit toate obligațiile contractuale, inclusiv asigurarea accesului la utilități și obținerea autorizației de construire.",
}

// sampleTitles name the episodes.
var sampleTitles = []string{
	"Încheierea contractului și plata avansului",
	"Predarea amplasamentului și începerea lucrărilor",
	"Întârzierile și notificările adresate pârâtei",
	"Constatările expertului tehnic judiciar",
	"Încercarea de soluționare amiabilă",
	"Abandonarea șantierului și prejudiciul suferit",
}

// writeEpisode writes the i-th episode of the facts: a heading, two paragraphs, a list,
// and every other time a table or a quotation.
func writeEpisode(b *strings.Builder, i int) {
	sentence := func(k int) string { return sampleSentences[(i*5+k)%len(sampleSentences)] }
	fmt.Fprintf(b, "### 3.%d. %s\n\n", i+1, sampleTitles[i%len(sampleTitles)])
	fmt.Fprintf(b, "%s %s %s %s\n\n", sentence(0), sentence(1), sentence(2), sentence(3))
	fmt.Fprintf(b, "%s %s %s\n\n", sentence(4), sentence(5), sentence(6))
	b.WriteString("Aspectele relevante sunt următoarele:\n\n")
	fmt.Fprintf(b, "- termenul contractual a fost depășit cu **%d de zile**;\n", 30+i*7%60)
	b.WriteString("- pârâta nu a comunicat niciun motiv obiectiv pentru întârziere:\n")
	b.WriteString("  - nici forța majoră, nici cazul fortuit nu au fost invocate;\n")
	b.WriteString("  - condițiile meteorologice au fost *favorabile* lucrărilor;\n")
	b.WriteString("- reclamantul a suportat costuri suplimentare, dovedite cu înscrisuri.\n\n")
	if i%2 == 0 {
		b.WriteString("| Nr. | Data | Înscrisul | Sumă (lei) |\n|---:|---|---|---:|\n")
		for k := range 4 {
			fmt.Fprintf(b, "| %d | %02d.%02d.2025 | %s | %d,%02d |\n", k+1, 1+(i+k*7)%28, 1+(i+k)%12,
				[]string{"Factura fiscală nr. 4471 emisă de pârâtă", "Ordin de plată — avans lucrări", "Proces-verbal de constatare a stadiului fizic", "Chitanță pentru chiria locuinței temporare"}[k],
				1000+(i*317+k*911)%9000, (i+k*13)%100)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("> *„Debitorul este ținut să repare prejudiciul cauzat creditorului prin neexecutarea fără justificare a obligației sale.”* — art. 1.530 Cod civil\n\n")
	}
}

const sampleClosing = `## IV. Motivele în drept

În drept, ne întemeiem cererea pe dispozițiile art. 1.270, art. 1.350, art. 1.516, art. 1.530 și următoarele, precum și art. 1.851–1.880 din *Codul civil*, privind contractul de antrepriză, și pe dispozițiile art. 194 din *Codul de procedură civilă*.

Potrivit art. 1.270 alin. (1) C. civ., **contractul valabil încheiat are putere de lege între părțile contractante**. Neexecutarea obligațiilor asumate de pârâtă îndreptățește reclamantul să solicite despăgubiri pentru întregul prejudiciu.

## V. Probe

În dovedirea cererii, solicităm încuviințarea următoarelor probe:

1. proba cu înscrisuri:
   1. contractul de antrepriză nr. 77/14.03.2025;
   2. ordinele de plată și facturile fiscale;
   3. notificarea de punere în întârziere și dovada comunicării;
2. proba testimonială, cu martorii Ana-Maria Vâlcu și Traian Știrbei;
3. proba cu expertiză tehnică judiciară în specialitatea *construcții civile*;
4. interogatoriul pârâtei.

## VI. Cheltuieli de judecată

| Categoria | Temeiul | Suma (lei) |
|---|---|---:|
| Taxa judiciară de timbru | art. 3 din O.U.G. nr. 80/2013 | 2.496,60 |
| Onorariu avocat | contractul de asistență juridică nr. 51/2025 | 7.500,00 |
| Onorariu expert | încheierea de încuviințare a probei | 3.200,00 |

Depunem prezenta cerere în **trei exemplare**, dintre care unul pentru comunicare către pârâtă.

---

Data: 2 februarie 2026

Reclamant,  
**Ștefan-Cătălin Iordache**  
prin avocat *Ioana Mureșan*
`
