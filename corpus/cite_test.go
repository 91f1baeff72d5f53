package corpus

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// want is what a test expects of one citation.
type want struct {
	text, status, docID string
}

func checkCitations(t *testing.T, text, lang string, wants []want) []Citation {
	t.Helper()
	got, err := db.CheckCitations(context.Background(), text, lang)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(wants) {
		t.Fatalf("found %d citations, want %d:\n%s", len(got), len(wants), describeCitations(got))
	}
	for i, w := range wants {
		if got[i].Text != w.text || got[i].Status != w.status || got[i].DocID != w.docID {
			t.Errorf("citation %d = %q %s %q (%s), want %q %s %q", i, got[i].Text, got[i].Status, got[i].DocID, got[i].RefersTo,
				w.text, w.status, w.docID)
		}
		if got[i].DocID != "" && got[i].URL == "" {
			t.Errorf("%s has no URL", got[i].Text)
		}
		if got[i].DocID != "" && got[i].AsOf == "" {
			t.Errorf("%s has no as_of date", got[i].Text)
		}
	}
	return got
}

func describeCitations(cits []Citation) string {
	var b strings.Builder
	for _, c := range cits {
		b.WriteString("  " + c.Text + " → " + c.Status + " " + c.DocID + " (" + c.RefersTo + ")\n")
	}
	return b.String()
}

// TestProcedureCodesAreNotThePenalCode: "art. 360 c.p.c." once came back verified as
// art. 360 of the Codice penale. The corpus holds neither Italian code of procedure.
func TestProcedureCodesAreNotThePenalCode(t *testing.T) {
	got := checkCitations(t, "Ricorso ex art. 360 c.p.c. e opposizione ex art. 640 c.p.p.; vedi art. 640 c.p.", "it", []want{
		{"art. 360 c.p.c.", StatusUnknownSource, ""},
		{"art. 640 c.p.p.", StatusUnknownSource, ""},
		{"art. 640 c.p.", StatusVerified, "it/rd-1398-1930/art-640"},
	})
	if got[0].RefersTo != "Codice di procedura civile" || got[1].RefersTo != "Codice di procedura penale" {
		t.Errorf("the codes of procedure were read as %q and %q", got[0].RefersTo, got[1].RefersTo)
	}
}

// TestFormsLawyersWrite: forms that once produced no citation at all.
func TestFormsLawyersWrite(t *testing.T) {
	checkCitations(t, "Vedi art. 111 Cost., art. 3 L. 241/1990, art. 6 CEDU e l'OUG nr. 34/2006.", "it", []want{
		{"art. 111 Cost.", StatusVerified, "it/costituzione-1947/art-111"},
		{"art. 3 L. 241/1990", StatusUnknownSource, ""},
		{"art. 6 CEDU", StatusUnknownSource, ""},
		{"OUG nr. 34/2006", StatusUnknownSource, ""},
	})
	checkCitations(t, "Potrivit art. 194 C.proc.civ. și art. 1270 alin. (1) C.civ., precum și art. 1.350 din Codul civil, "+
		"art. 21 din Constituție și art. 53 alin. (1) din Legea nr. 101/2016.", "ro", []want{
		{"art. 194 C.proc.civ.", StatusVerified, "ro/legea-134-2010/art-194"},
		{"art. 1270 alin. (1) C.civ.", StatusVerified, "ro/legea-287-2009/art-1270"},
		{"art. 1.350 din Codul civil", StatusVerified, "ro/legea-287-2009/art-1350"},
		{"art. 21 din Constituție", StatusVerified, "ro/constitutia-1991/art-21"},
		{"art. 53 alin. (1) din Legea nr. 101/2016", StatusUnknownSource, ""},
	})
	checkCitations(t, "Under Article 6(1)(f) GDPR, Article 267 TFEU, Article 8 of the Charter, Directive 95/46/EC, "+
		"Regulation (EU) 2022/2065, Article 120 GDPR and Case C-131/12; see also ECLI:EU:C:2014:317 and "+
		"Bărbulescu v. Romania [GC], no. 61496/08.", "en", []want{
		{"Article 6(1)(f) GDPR", StatusVerified, "eu/32016R0679/en/art-6"},
		{"Article 267 TFEU", StatusUnknownSource, ""},
		{"Article 8 of the Charter", StatusUnknownSource, ""},
		{"Directive 95/46/EC", StatusUnknownSource, ""},
		{"Regulation (EU) 2022/2065", StatusUnknownSource, ""},
		{"Article 120 GDPR", StatusNotFound, ""},
		{"Case C-131/12", StatusUnknownSource, ""},
		{"ECLI:EU:C:2014:317", StatusUnknownSource, ""},
		{"Bărbulescu v. Romania [GC], no. 61496/08", StatusUnknownSource, ""},
	})
	checkCitations(t, "Il danno ex artt. 2043 e 2059 c.c.; l'art. 2, comma 1, lett. a), d.lgs. n. 231 del 2001; "+
		"l'art. 17 del Regolamento (UE) 2016/679.", "it", []want{
		{"artt. 2043 e 2059 c.c.", StatusVerified, "it/rd-262-1942/art-2043"},
		{"artt. 2043 e 2059 c.c.", StatusVerified, "it/rd-262-1942/art-2059"},
		{"art. 2, comma 1, lett. a), d.lgs. n. 231 del 2001", StatusVerified, "it/dlgs-231-2001/art-2"},
		{"art. 17 del Regolamento (UE) 2016/679", StatusVerified, "eu/32016R0679/it/art-17"},
	})
}

// TestNotFoundNeedsACompleteSource: a complete act disproves an article past its
// last; a source that lacks part of an act, or holds a few decisions of a court,
// disproves nothing.
func TestNotFoundNeedsACompleteSource(t *testing.T) {
	checkCitations(t, "Né l'art. 3000 c.c. né l'art. 2014 c.c.; Cass. pen., Sez. I, n. 10387/2025, "+
		"Cass., Sez. I, n. 10387/2025, Cass. pen., Sez. VI, n. 10387/2025, Cass. civ., Sez. VI, n. 10387/2025 e Cass. pen., n. 1/1999.", "it", []want{
		{"art. 3000 c.c.", StatusNotFound, ""},
		// Within the code's numbers but missing from the source: a gap, not proof.
		{"art. 2014 c.c.", StatusUnknownSource, ""},
		// The decision is in the Sesta: the citation contradicts it.
		{"Cass. pen., Sez. I, n. 10387/2025", StatusNotFound, ""},
		// Civil and criminal decisions are numbered apart: unspecified, it may be civil.
		{"Cass., Sez. I, n. 10387/2025", StatusUnknownSource, ""},
		{"Cass. pen., Sez. VI, n. 10387/2025", StatusVerified, "it/cass/10387-2025"},
		{"Cass. civ., Sez. VI, n. 10387/2025", StatusUnknownSource, ""},
		{"Cass. pen., n. 1/1999", StatusUnknownSource, ""},
	})
	checkCitations(t, "Decizia nr. 11/2023 a ÎCCJ (RIL), decizia nr. 11/2023, Decizia CCR nr. 22/2016.", "ro", []want{
		{"Decizia nr. 11/2023", StatusVerified, "ro/iccj/ril-11-2023"},
		// No court named: Romanian courts each number their own decisions.
		{"decizia nr. 11/2023", StatusUnknownSource, ""},
		{"Decizia CCR nr. 22/2016", StatusUnknownSource, ""},
	})
	// A decision whose number the source masks is cited by its ReJust identifier; one
	// the corpus does not hold is not disproved.
	checkCitations(t, "Decizia din 16.03.2023, Curtea de Apel București (ReJust Hotarare-16.03.2023-RJee3dge372); ReJust Hotarare-27.05.2026-zzzzzzzzz.", "ro", []want{
		{"ReJust Hotarare-16.03.2023-RJee3dge372", StatusVerified, "ro/ca/Hotarare-16.03.2023-RJee3dge372"},
		{"ReJust Hotarare-27.05.2026-zzzzzzzzz", StatusUnknownSource, ""},
	})
}

// TestQuotationsAreChecked: a quotation must be in the cited text, whatever its case,
// diacritics, spacing and ellipses.
func TestQuotationsAreChecked(t *testing.T) {
	got := checkCitations(t, `L'art. 2043 c.c. dispone: «Qualunque fatto doloso obbliga lo Stato al risarcimento». `+
		`Invece l'art. 2043 c.c. dice «qualunque fatto doloso o colposo ... obbliga colui che ha commesso il fatto a risarcire il danno».`, "it", []want{
		{"art. 2043 c.c.", StatusMisquoted, "it/rd-262-1942/art-2043"},
		{"art. 2043 c.c.", StatusVerified, "it/rd-262-1942/art-2043"},
	})
	if !strings.Contains(Fold(got[0].Passage), "qualunque fatto doloso o colposo") {
		t.Errorf("the closest passage is %q", got[0].Passage)
	}
	checkCitations(t, `„Cel care cauzeaza altuia un prejudiciu printr-o fapta ilicita” (art. 1357 C.civ.), `+
		`iar art. 1357 C.civ. spune „cel care cauzează altuia un folos este obligat să îl plătească”.`, "ro", []want{
		{"art. 1357 C.civ.", StatusVerified, "ro/legea-287-2009/art-1357"},
		{"art. 1357 C.civ.", StatusMisquoted, "ro/legea-287-2009/art-1357"},
	})
	checkCitations(t, `Cass. pen., Sez. VI, n. 10387/2025 afferma che «il giudice deve sempre ammettere i crediti senza prova».`, "it", []want{
		{"Cass. pen., Sez. VI, n. 10387/2025", StatusMisquoted, "it/cass/10387-2025"},
	})
}

// TestRepealedArticles are reported as such, not as verified.
func TestRepealedArticles(t *testing.T) {
	got := checkCitations(t, "Si veda l'art. 12 c.c.", "it", []want{{"art. 12 c.c.", StatusRepealed, "it/rd-262-1942/art-12"}})
	if got[0].InForce {
		t.Error("a repealed article is in force")
	}
}

func TestMark(t *testing.T) {
	text := "Vedi art. 2043 c.c., art. 9999 c.c., art. 12 c.c., artt. 2043 e 9998 c.c. e art. 360 c.p.c."
	cits, err := db.CheckCitations(context.Background(), text, "it")
	if err != nil {
		t.Fatal(err)
	}
	got := Mark(text, cits, "it")
	want := "Vedi art. 2043 c.c., art. 9999 c.c. [non trovato], art. 12 c.c. [abrogato], artt. 2043 e 9998 c.c. [art. 9998: non trovato] e art. 360 c.p.c." +
		"\n\nNon verificate (la fonte non è nel corpus di Lexflow, il che non le rende errate): art. 360 c.p.c."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestBareArticlesAreNoCitations: an article with no act named cannot be checked, and
// a word that merely looks like an abbreviation is no act.
func TestBareArticlesAreNoCitations(t *testing.T) {
	checkCitations(t, "L'articolo 5 stabilisce che il termine decorre; cc: avv. Rossi; dsa e cedo.", "it", nil)
}

// TestLookalikesAreNotCitations: longer abbreviations that start like a code's, and
// sections of other courts, are not read as the codes or the Cassazione.
func TestLookalikesAreNotCitations(t *testing.T) {
	checkCitations(t, "Ai sensi dell'art. 38 c.c.n.l. e dell'art. 5 c.p.a.; Cons. Stato, Sez. VI, n. 10387/2025.", "it", []want{
		{"Sez. VI, n. 10387/2025", StatusUnknownSource, ""},
	})
	got := checkCitations(t, "Vedi Regulation (EU) No 1215/2012 e încheierea nr. 5/2021 a Curții de Apel București.", "it", []want{
		{"Regulation (EU) No 1215/2012", StatusUnknownSource, ""},
		{"încheierea nr. 5/2021", StatusUnknownSource, ""},
	})
	if got[0].RefersTo != "Regulation 2012/1215" || got[1].RefersTo != "Curtea de Apel București" {
		t.Errorf("read as %q and %q", got[0].RefersTo, got[1].RefersTo)
	}
}

// TestParagraphListsAreNotArticles: "commi 1 e 2" and "alin. (1) și (2)" are paragraphs
// of one article; "artt. 81, comma 2, e 110" are two articles.
func TestParagraphListsAreNotArticles(t *testing.T) {
	checkCitations(t, "L'art. 2, commi 1 e 2, d.lgs. n. 231 del 2001 e gli artt. 81, comma 2, e 110 c.p.", "it", []want{
		{"art. 2, commi 1 e 2, d.lgs. n. 231 del 2001", StatusVerified, "it/dlgs-231-2001/art-2"},
		{"artt. 81, comma 2, e 110 c.p.", StatusVerified, "it/rd-1398-1930/art-81"},
		{"artt. 81, comma 2, e 110 c.p.", StatusVerified, "it/rd-1398-1930/art-110"},
	})
	checkCitations(t, "Potrivit art. 1357 alin. (1) și (2) C.civ. și lit. a) și b).", "ro", []want{
		{"art. 1357 alin. (1) și (2) C.civ.", StatusVerified, "ro/legea-287-2009/art-1357"},
	})
}

// TestEachQuotationBelongsToOneCitation: a quotation after one citation is not also
// read as the quotation before the next; a repealed article stays repealed whatever
// is quoted; a quotation written with combining marks matches.
func TestEachQuotationBelongsToOneCitation(t *testing.T) {
	checkCitations(t, "L'art. 2043 c.c.: «Qualunque fatto doloso o colposo», art. 2059 c.c.: «Il danno non patrimoniale deve essere risarcito». "+
		"L'art. 12 c.c.: «un testo qualsiasi».", "it", []want{
		{"art. 2043 c.c.", StatusVerified, "it/rd-262-1942/art-2043"},
		{"art. 2059 c.c.", StatusVerified, "it/rd-262-1942/art-2059"},
		{"art. 12 c.c.", StatusRepealed, "it/rd-262-1942/art-12"},
	})
	decomposed := "Cel care cauzeaza\u0306 altuia un prejudiciu printr-o fapta\u0306 ilicita\u0306" // ă as a + U+0306
	checkCitations(t, "Art. 1357 C.civ.: „"+decomposed+"”.", "ro", []want{
		{"Art. 1357 C.civ.", StatusVerified, "ro/legea-287-2009/art-1357"},
	})
	// A quotation in the next sentence is not the citation's.
	checkCitations(t, "Si veda l'art. 2043 c.c. Il cliente scrive: «nessuna di queste parole».", "it", []want{
		{"art. 2043 c.c.", StatusVerified, "it/rd-262-1942/art-2043"},
	})
}

// TestHostileTextsAreBounded: texts built to cost the most give at most MaxCitations
// citations, each list at most maxArticlesPerReference articles.
func TestHostileTextsAreBounded(t *testing.T) {
	var list strings.Builder
	list.WriteString("artt. 1")
	for i := 2; i <= 5_000; i++ {
		fmt.Fprintf(&list, ", %d", i)
	}
	list.WriteString(" c.c.")
	for _, text := range []string{list.String(), strings.Repeat("GDPR ", 10_000), strings.Repeat("art. 1 c.c. «x» ", 3_000)} {
		cits, err := db.CheckCitations(context.Background(), text, "it")
		if err != nil {
			t.Fatal(err)
		}
		if len(cits) == 0 || len(cits) > MaxCitations {
			t.Errorf("%.20q…: %d citations", text, len(cits))
		}
	}
	if n := len(articleNumbers(list.String())); n != maxArticlesPerReference {
		t.Errorf("a list of 5,000 articles gave %d", n)
	}
}

// TestQuotationsAfterAnApposition: a quotation introduced after the act's name with the
// article in an apposition ("the GDPR, at art. 82, provides: «…»") is checked against
// that article. A false quotation of this form once came back verified, as a
// citation of the whole GDPR.
func TestQuotationsAfterAnApposition(t *testing.T) {
	checkCitations(t, `The GDPR, at art. 82, provides: «Any person who has suffered material or non-material damage `+
		`shall have the right to receive compensation within thirty days».`, "en", []want{
		{"GDPR, at art. 82", StatusMisquoted, "eu/32016R0679/en/art-82"},
	})
	checkCitations(t, `The GDPR, in Article 82, provides: "Any person who has suffered material or non-material damage `+
		`as a result of an infringement of this Regulation shall have the right to receive compensation".`, "en", []want{
		{"GDPR, in Article 82", StatusVerified, "eu/32016R0679/en/art-82"},
	})
	checkCitations(t, `Codul civil, la art. 1357, prevede: „Cel care cauzează altuia un prejudiciu printr-o faptă licită este obligat să îl repare”.`, "ro", []want{
		{"Codul civil, la art. 1357", StatusMisquoted, "ro/legea-287-2009/art-1357"},
	})
	checkCitations(t, `Codul civil, la art. 1357 alin. (1), prevede: „Cel care cauzează altuia un prejudiciu printr-o faptă ilicită”.`, "ro", []want{
		{"Codul civil, la art. 1357 alin. (1)", StatusVerified, "ro/legea-287-2009/art-1357"},
	})
	checkCitations(t, `Il codice civile, all'art. 2043, dispone: «Qualunque fatto doloso obbliga lo Stato al risarcimento».`, "it", []want{
		{"codice civile, all'art. 2043", StatusMisquoted, "it/rd-262-1942/art-2043"},
	})
	checkCitations(t, `Il codice civile, all’art. 2043, dispone: «Qualunque fatto doloso o colposo, che cagiona ad altri un danno ingiusto».`, "it", []want{
		{"codice civile, all’art. 2043", StatusVerified, "it/rd-262-1942/art-2043"},
	})
	// A name far before an article, or joined by other words, is not its act.
	checkCitations(t, `Il codice civile regola molte cose, e all'art. 5 si legge: «qualcosa».`, "it", nil)
}

// TestItalianConstitution: the Constitution is cited by "Cost.", "Costituzione",
// "Costituzione della Repubblica italiana" and in the other languages; its articles
// repealed in 2001 are repealed, and it ends at art. 139.
func TestItalianConstitution(t *testing.T) {
	checkCitations(t, "Gli artt. 3 e 24 Cost., l'art. 117 della Costituzione della Repubblica italiana, l'art. 128 Cost. "+
		"e l'art. 140 Cost.; la Costituzione, all'art. 2, dispone: «La Repubblica riconosce e garantisce i diritti inviolabili dell'uomo».", "it", []want{
		{"artt. 3 e 24 Cost.", StatusVerified, "it/costituzione-1947/art-3"},
		{"artt. 3 e 24 Cost.", StatusVerified, "it/costituzione-1947/art-24"},
		{"art. 117 della Costituzione della Repubblica italiana", StatusVerified, "it/costituzione-1947/art-117"},
		{"art. 128 Cost.", StatusRepealed, "it/costituzione-1947/art-128"},
		{"art. 140 Cost.", StatusNotFound, ""},
		{"Costituzione, all'art. 2", StatusVerified, "it/costituzione-1947/art-2"},
	})
	checkCitations(t, "Article 9 of the Italian Constitution; art. 32 din Constituția Italiei și art. 21 din Constituția României.", "en", []want{
		{"Article 9 of the Italian Constitution", StatusVerified, "it/costituzione-1947/art-9"},
		{"art. 32 din Constituția Italiei", StatusVerified, "it/costituzione-1947/art-32"},
		{"art. 21 din Constituția României", StatusVerified, "ro/constitutia-1991/art-21"},
	})
}
