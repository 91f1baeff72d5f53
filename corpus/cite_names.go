package corpus

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// actName is an act as a citation names it, before the corpus is asked about it:
// either a fixed act id, or a numbered act by jurisdiction, form, number and year.
type actName struct {
	name         string // how the check reports it, e.g. "Codice di procedura civile"
	id           string // the corpus's act id when the name fixes one
	jurisdiction string
	form         string // "dlgs", "lege", "regulation", ...: see actForms
	number       string
	year         int
	lang         string // the language the name is written in, for EU acts
}

// actPattern recognizes one way of naming acts. Standalone names are citations on their
// own; the others (abbreviations such as "c.c.") only after an article.
type actPattern struct {
	at         *regexp.Regexp // anchored at the start of the text
	tail       *regexp.Regexp // anchored at the end of the text
	anywhere   *regexp.Regexp // nil unless standalone
	name       func(g groups, lang string) actName
	standalone bool
}

// groups reads a match's named groups.
type groups func(name string) string

func newActPattern(src string, standalone bool, name func(g groups, lang string) actName) actPattern {
	p := actPattern{at: regexp.MustCompile(`^(?i:` + src + `)`), tail: regexp.MustCompile(`(?i:` + src + `)$`), name: name, standalone: standalone}
	if standalone {
		p.anywhere = regexp.MustCompile(`(?i)\b(?:` + src + `)`)
	}
	return p
}

// fixed names an act whose id the name fixes; an empty id means the corpus does not
// hold it.
func fixed(name, id string) func(groups, string) actName {
	return func(groups, string) actName { return actName{name: name, id: id} }
}

// byLanguage names an abbreviation Italian and Romanian lawyers both use: "c.p." is
// the Codice penale in Italian and the Codul penal in Romanian.
func byLanguage(it, ro actName) func(groups, string) actName {
	return func(_ groups, lang string) actName {
		if lang == "ro" {
			return ro
		}
		return it
	}
}

// numbered names an act cited by number and year, in a form.
func numbered(label, jurisdiction, form string) func(groups, string) actName {
	return func(g groups, lang string) actName {
		n := actName{jurisdiction: jurisdiction, form: form, number: strings.TrimLeft(g("num"), "0"), year: year4(g("year") + g("year2"))}
		n.name = label + " " + n.number
		if n.year != 0 {
			n.name += "/" + strconv.Itoa(n.year)
		}
		return n
	}
}

// year4 reads a year, turning the two-digit years of older EU acts ("95/46/EC") into
// four.
func year4(s string) int {
	y, _ := strconv.Atoi(s)
	switch {
	case len(s) == 2 && y >= 50:
		return 1900 + y
	case len(s) == 2:
		return 2000 + y
	}
	return y
}

// Fragments of the patterns.
const (
	// numYear is "n. 231/2001", "nr. 98/2016", "231 del 2001", "n. 241 din 1990".
	numYear = `\s*(?:(?:n|nr|no)\.?\s*)?(?P<num>\d+)\s*(?:/\s*(?P<year>\d{4})|,?\s+(?:del(?:l['’])?|din|of)\s+(?:\d{1,2}[./]\d{1,2}[./])?(?P<year2>\d{4}))`
	// dateNum is "7 agosto 1990, n. 241", "8 giugno 2001 n. 231".
	dateNum = `\s+\d{1,2}\s+\p{L}+\s+(?P<year>\d{4})\s*,?\s*(?:n|nr)\.\s*(?P<num>\d+)`
	// euNumber is "(UE) 2016/679", "(EU) No 2016/679", "(CE) n. 45/2001", "2016/679".
	euNumber = `\s*(?:\((?:ue|eu|ce|cee|ec|eec)\)\s*|(?:ue|eu|ce)\s+)?(?:(?:n|nr|no)\.?\s*)?(?P<a>\d{1,4})\s*/\s*(?P<b>\d{1,4})`
	ro       = `[tțţ]`
	sh       = `[sșş]`
)

// euAct reads an EU act's number: "2016/679" is year/number since 2015, "45/2001" and
// "1215/2012" number/year before; "95/46" (directives) is year/number.
func euAct(label, form string, yearFirst bool) func(groups, string) actName {
	return func(g groups, lang string) actName {
		a, b := g("a"), g("b")
		year, number := a, b
		if !yearFirst && !plausibleYear(a) && plausibleYear(b) {
			year, number = b, a // "(EC) No 45/2001", "(EU) No 1215/2012"
		}
		n := actName{jurisdiction: "eu", form: form, number: strings.TrimLeft(number, "0"), year: year4(year), lang: lang}
		n.name = label + " " + strconv.Itoa(n.year) + "/" + n.number
		if w := strings.ToLower(g("word")); euWordLanguage[w] != "" {
			n.lang = euWordLanguage[w]
		}
		return n
	}
}

// plausibleYear reports whether a four-digit number can be an EU act's year.
func plausibleYear(s string) bool {
	y, err := strconv.Atoi(s)
	return err == nil && len(s) == 4 && y >= 1950 && y <= 2100
}

// euWordLanguage tells which language an EU act's name is written in.
var euWordLanguage = map[string]string{"regulation": "en", "regolamento": "it", "regulamentul": "ro", "regulamentului": "ro"}

// gdpr names the GDPR in the language it is cited in.
func gdpr(g groups, lang string) actName {
	return actName{name: "GDPR", jurisdiction: "eu", form: "regulation", number: "679", year: 2016, lang: lang}
}

// actPatterns are the names of acts the check recognizes, longest first where one
// abbreviation starts another ("c.p.c." before "c.p."). The names of codes cite an
// article of the code, not the code itself.
var actPatterns = []actPattern{
	// The implementing rules of the Italian codes and the preleggi, which the corpus
	// does not hold (the Codice civile's file mixes the preleggi in).
	newActPattern(`disp\.\s?att\.\s?(?:c\.\s?p\.\s?[pc]\.?|cod\.\s?proc\.\s?(?:pen|civ)\.?|c\.\s?c\.?)|disp\.\s?prel\.(?:\s?c\.\s?c\.)?|preleggi`, false,
		fixed("Disposizioni di attuazione o preliminari", "")),
	// Codes of procedure.
	newActPattern(`c\.\s?p\.\s?c\.|cod\.\s?proc\.\s?civ\.?|c\.\s?pr(?:oc)?\.\s?civ\.?|cpc\b|n\.?c\.?p\.?c\.?\b`, false, byLanguage(itCPC, roCPC)),
	newActPattern(`c\.\s?p\.\s?p\.|cod\.\s?proc\.\s?pen\.?|c\.\s?pr(?:oc)?\.\s?pen\.?|cpp\b|n\.?c\.?p\.?p\.?\b`, false, byLanguage(itCPP, roCPP)),
	newActPattern(`codice\s+di\s+procedura\s+civile`, false, fixed(itCPC.name, "")),
	newActPattern(`codice\s+di\s+procedura\s+penale`, false, fixed(itCPP.name, "")),
	newActPattern(`(?:noul\s+)?cod(?:ul|ului)?\s+de\s+procedur[aă]\s+civil[aă]`, false, fixed(roCPC.name, roCPC.id)),
	newActPattern(`(?:noul\s+)?cod(?:ul|ului)?\s+de\s+procedur[aă]\s+penal[aă]`, false, fixed(roCPP.name, roCPP.id)),
	newActPattern(`c\.\s?pr(?:oc)?\.\s?fisc\.?|cod(?:ul|ului)?\s+de\s+procedur[aă]\s+fiscal[aă]`, false,
		fixed("Codul de procedură fiscală", "ro/legea-207-2015")),
	// Civil and criminal codes, after the military ones the corpus does not hold.
	newActPattern(`(?:c\.\s?p\.|cod\.\s?pen\.)\s?mil\.(?:\s?(?:pace|guerra))?|codice\s+penale\s+militare(?:\s+di\s+(?:pace|guerra))?`, false,
		fixed("Codice penale militare", "")),
	newActPattern(`c\.\s?c\.|cod\.\s?civ\.?|c\.\s?civ\.?|cc\b|n\.?c\.?c\.?\b`, false, byLanguage(itCC, roCC)),
	newActPattern(`c\.\s?p\.|cod\.\s?pen\.?|c\.\s?pen\.?|cp\b|n\.?c\.?p\.?\b`, false, byLanguage(itCP, roCP)),
	newActPattern(`codice\s+civile`, false, fixed(itCC.name, itCC.id)),
	newActPattern(`codice\s+penale`, false, fixed(itCP.name, itCP.id)),
	newActPattern(`(?:noul\s+)?cod(?:ul|ului)?\s+civil\b`, false, fixed(roCC.name, roCC.id)),
	newActPattern(`(?:noul\s+)?cod(?:ul|ului)?\s+penal\b`, false, fixed(roCP.name, roCP.id)),
	// Other codes and the constitutions.
	newActPattern(`c\.\s?fisc\.?|cod(?:ul|ului)?\s+fiscal\b`, false, fixed("Codul fiscal", "ro/legea-227-2015")),
	newActPattern(`c\.\s?muncii|cod(?:ul|ului)?\s+muncii`, false, fixed("Codul muncii", "ro/legea-53-2003")),
	newActPattern(`cod(?:ul|ului)?\s+administrativ`, false, fixed("Codul administrativ", "ro/oug-57-2019")),
	newActPattern(`constitu`+ro+`i(?:a|ei)\s+italiei|(?:the\s+)?italian\s+constitution|constitution\s+of\s+the\s+italian\s+republic`, false, fixed(itCost.name, itCost.id)),
	newActPattern(`constitu`+ro+`i(?:a|ei|e)(?:\s+rom[aâ]niei)?`, false, fixed("Constituția României", "ro/constitutia-1991")),
	newActPattern(`cost\.|costituzione(?:\s+della\s+repubblica(?:\s+italiana)?)?`, false, fixed(itCost.name, itCost.id)),
	newActPattern(`codice\s+(?:della\s+)?privacy|codice\s+in\s+materia\s+di\s+protezione\s+dei\s+dati\s+personali`, false,
		fixed("Codice privacy", "it/dlgs-196-2003")),
	newActPattern(`codice\s+del\s+consumo`, false, fixed("Codice del consumo", "it/dlgs-206-2005")),
	// Numbered Italian and Romanian acts.
	newActPattern(`(?:d\.\s?lgs\.?|dlgs|decreto\s+legislativo)`+numYear, true, numbered("D.Lgs.", "it", "dlgs")),
	newActPattern(`(?:d\.\s?lgs\.?|decreto\s+legislativo)`+dateNum, true, numbered("D.Lgs.", "it", "dlgs")),
	newActPattern(`(?:d\.\s?l\.|decreto[-\s]legge)`+numYear, true, numbered("D.L.", "it", "dl")),
	newActPattern(`(?:d\.\s?l\.|decreto[-\s]legge)`+dateNum, true, numbered("D.L.", "it", "dl")),
	newActPattern(`(?:d\.\s?p\.\s?r\.|decreto\s+del\s+presidente\s+della\s+repubblica)`+numYear, true, numbered("D.P.R.", "it", "dpr")),
	newActPattern(`(?:d\.\s?p\.\s?r\.|decreto\s+del\s+presidente\s+della\s+repubblica)`+dateNum, true, numbered("D.P.R.", "it", "dpr")),
	newActPattern(`(?:d\.\s?m\.|decreto\s+ministeriale)`+numYear, true, numbered("D.M.", "it", "dm")),
	newActPattern(`legge`+numYear+`|legge`+dateNum, true, numbered("Legge", "it", "legge")),
	newActPattern(`(?:leg(?:ea|ii|e)\b)`+numYear, true, numbered("Legea", "ro", "lege")),
	// "Legea contenciosului administrativ nr. 554/2004".
	newActPattern(`leg(?:ea|ii)(?:\s+\p{L}+){1,4}\s+nr\.\s*(?P<num>\d+)\s*/\s*(?P<year>\d{4})`, true, numbered("Legea", "ro", "lege")),
	newActPattern(`l\.`+numYear, true, func(g groups, lang string) actName {
		if lang == "ro" {
			return numbered("Legea", "ro", "lege")(g, lang)
		}
		return numbered("Legge", "it", "legge")(g, lang)
	}),
	newActPattern(`(?:o\.?\s?u\.?\s?g\.?|ordonan`+ro+`(?:a|ei)\s+de\s+urgen`+ro+`[aă](?:\s+a\s+guvernului)?)`+numYear, true,
		numbered("OUG", "ro", "oug")),
	newActPattern(`(?:o\.?\s?g\.?|ordonan`+ro+`(?:a|ei)\s+guvernului)`+numYear, true, numbered("OG", "ro", "og")),
	newActPattern(`(?:h\.?\s?g\.?|hot[aă]r[aâ]r(?:ea|ii)\s+guvernului)`+numYear, true, numbered("HG", "ro", "hg")),
	// EU acts and the ECHR.
	newActPattern(`gdpr|rgpd|general\s+data\s+protection\s+regulation|regolamento\s+generale\s+sulla\s+protezione\s+dei\s+dati|regulamentul(?:ui)?\s+general\s+privind\s+protec`+ro+`ia\s+datelor`, true, gdpr),
	newActPattern(`(?P<word>regulation|regolamento|regulamentul(?:ui)?|reg\.)`+euNumber, true, euAct("Regulation", "regulation", false)),
	newActPattern(`(?:directive|direttiva|directiva|directivei|dir\.)`+euNumber+`(?:\s*/\s*(?:cee|eec|ue|eu|ce|ec))?`, true, euAct("Directive", "directive", true)),
	newActPattern(`(?:decisione\s+quadro|framework\s+decision|decizia-cadru)`+euNumber+`(?:\s*/\s*(?:gai|jha|jai))?`, true, euAct("Framework Decision", "framework", true)),
	newActPattern(`digital\s+services\s+act|dsa\b`, true, fixed("Regulation 2022/2065 (DSA)", "")),
	newActPattern(`digital\s+markets\s+act|dma\b`, true, fixed("Regulation 2022/1925 (DMA)", "")),
	newActPattern(`ai\s+act\b`, true, fixed("Regulation 2024/1689 (AI Act)", "")),
	newActPattern(`t\.?f\.?(?:e\.?u|u\.?e)\.?\b|treaty\s+on\s+the\s+functioning\s+of\s+the\s+european\s+union|trattato\s+sul\s+funzionamento\s+dell['’]unione\s+europea|tratatul(?:ui)?\s+privind\s+func`+ro+`ionarea\s+uniunii\s+europene`, true, fixed("TFEU", "")),
	newActPattern(`t\.?(?:e\.?u|u\.?e)\.?\b|treaty\s+on\s+european\s+union|trattato\s+sull['’]unione\s+europea|tratatul(?:ui)?\s+privind\s+uniunea\s+european[aă]`, true, fixed("TEU", "")),
	newActPattern(`charter\s+of\s+fundamental\s+rights(?:\s+of\s+the\s+european\s+union)?|carta\s+dei\s+diritti\s+fondamentali(?:\s+dell['’]unione\s+europea)?|carta\s+drepturilor\s+fundamentale(?:\s+a\s+uniunii\s+europene)?|cdfue\b`, true, fixed(charter, "")),
	newActPattern(`(?:the\s+)?charter\b|carta\b|cart(?:a|ei)\b`, false, fixed(charter, "")),
	newActPattern(`echr\b|cedu\b|cedo\b|conv\.\s?edu|european\s+convention\s+on\s+human\s+rights|convention\s+for\s+the\s+protection\s+of\s+human\s+rights(?:\s+and\s+fundamental\s+freedoms)?|convenzione\s+europea\s+(?:dei|per\s+la\s+salvaguardia\s+dei)\s+diritti\s+dell['’]uomo(?:\s+e\s+delle\s+libert[aà]\s+fondamentali)?|conven`+ro+`i(?:a|ei)\s+european[aă]\s+(?:a\s+drepturilor\s+omului|pentru\s+ap[aă]rarea\s+drepturilor\s+omului(?:\s+`+sh+`i\s+a\s+libert[aă]`+ro+`ilor\s+fundamentale)?)`, true, fixed(echr, "")),
	newActPattern(`(?:the\s+)?convention\b|convenzione\b|conven`+ro+`i(?:a|ei)\b`, false, fixed(echr, "")),
}

// The acts named several ways.
var (
	itCPC = actName{name: "Codice di procedura civile"}
	itCPP = actName{name: "Codice di procedura penale"}
	roCPC = actName{name: "Codul de procedură civilă", id: "ro/legea-134-2010"}
	roCPP = actName{name: "Codul de procedură penală", id: "ro/legea-135-2010"}
	itCC  = actName{name: "Codice civile", id: "it/rd-262-1942"}
	itCP  = actName{name: "Codice penale", id: "it/rd-1398-1930"}
	roCC  = actName{name: "Codul civil", id: "ro/legea-287-2009"}
	roCP  = actName{name: "Codul penal", id: "ro/legea-286-2009"}
	// itCost is the Italian Constitution: "Cost.", "Costituzione della Repubblica
	// italiana", "Constituția Italiei", "the Italian Constitution".
	itCost = actName{name: "Costituzione", id: "it/costituzione-1947"}
)

const (
	charter = "Charter of Fundamental Rights of the EU"
	echr    = "European Convention on Human Rights"
)

// standaloneWord reports whether a name found on its own is a citation: a short
// abbreviation ("GDPR", "TFEU") only in upper case, so that "dsa" in a word list or
// "cedo" ("I give up" in Italian) is not one.
func standaloneWord(text string) bool {
	if strings.ContainsAny(text, " ") || utf8.RuneCountInString(text) > 6 {
		return true
	}
	return strings.ToUpper(text) == text
}

// actAt recognizes the name of an act at the start of text, returning it and its
// length in bytes.
func actAt(text, lang string) (actName, int, bool) {
	for _, p := range actPatterns {
		loc := p.at.FindStringSubmatchIndex(text)
		if loc == nil || !endsAtBoundary(text, loc[1]) || cutsAbbreviation(text, loc[1]) {
			continue
		}
		return p.name(groupsOf(p.at, text, loc), lang), loc[1], true
	}
	return actName{}, 0, false
}

// actBefore recognizes the name of an act at the end of text, returning it and where
// it starts in text. The name must start a word.
func actBefore(text, lang string) (actName, int, bool) {
	for _, p := range actPatterns {
		loc := p.tail.FindStringSubmatchIndex(text)
		if loc == nil || !startsWord(text, loc[0]) {
			continue
		}
		return p.name(groupsOf(p.tail, text, loc), lang), loc[0], true
	}
	return actName{}, 0, false
}

// endsAtBoundary reports whether a match ending at end does not cut a word.
func endsAtBoundary(text string, end int) bool {
	if end == 0 || end >= len(text) {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(text[:end])
	next, _ := utf8.DecodeRuneInString(text[end:])
	return !(isWordRune(last) && isWordRune(next))
}

// startsWord reports whether a match starting at start does not start inside a word.
func startsWord(text string, start int) bool {
	if start == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:start])
	return !isWordRune(prev)
}

// cutsAbbreviation reports whether a match ending at end with a full stop is the start
// of a longer dotted abbreviation: "c.c." in "c.c.n.l.", "c.p." in "c.p.a.".
func cutsAbbreviation(text string, end int) bool {
	return strings.HasSuffix(text[:end], ".") && abbreviationGoesOn.MatchString(text[end:])
}

var abbreviationGoesOn = regexp.MustCompile(`^\s?\pL\.`)

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// groupsOf reads the named groups of a match.
func groupsOf(re *regexp.Regexp, text string, loc []int) groups {
	return func(name string) string {
		i := re.SubexpIndex(name)
		if i < 0 || loc[2*i] < 0 {
			return ""
		}
		return text[loc[2*i]:loc[2*i+1]]
	}
}
