package corpus

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// reference is a citation as found in a text, before the corpus is asked about it.
type reference struct {
	kind       string // KindArticle, KindAct or KindDecision
	start, end int    // the citation's bytes in the text
	articles   []string
	act        actName
	decision   decisionName
}

// decisionName is a court decision as a citation names it.
type decisionName struct {
	court   string // courtCassazione, courtICCJ, courtCCR, courtCorteCost, courtCJEU, courtECtHR, a court of appeal, or ""
	branch  string // for the Cassazione: "pen", "civ" or "" when the citation does not say
	section string // the Cassazione's section as the corpus writes it ("Sesta", "Sezioni Unite")
	number  string // "10387", or "101/2021" for a Romanian decision
	year    string
	ecli    string
	rejust  string // a Romanian decision's ReJust identifier ("Hotarare-27.05.2026-d98e82869")
}

// Courts a decision citation may name.
const (
	courtCassazione = "Corte di cassazione"
	courtICCJ       = "Înalta Curte de Casație și Justiție"
	courtCCR        = "Curtea Constituțională"
	courtCorteCost  = "Corte costituzionale"
	// courtOtherItalian is a section cited after another Italian court's name.
	courtOtherItalian = "another Italian court"
	courtCJEU         = "Court of Justice of the EU"
	courtECtHR        = "European Court of Human Rights"
)

// Patterns of the citations that are not names of acts.
var (
	// articleRef is "art. 2043", "artt. 81, 110 e 640", "Article 6(1)(f)",
	// "art. 1270 alin. (1)", "art. 2, comma 1, lett. a)", "articolul 1.350"; articleItem
	// is one article of it, read in turn from its start.
	articleWord   = `art(?:t|s|icol(?:o|i|ul|ele|ului)|icles?)?\.?\s*`
	articleDigits = `(\d{1,2}\.\d{3}|\d+)`
	numberSuffix  = `((?:\s?\^\s?\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)?(?:(?:-\s*|\s)?` + latinSuffix + `\b)?)`
	latinSuffix   = `(?:bis|ter|quater|quinquies|sexies|septies|octies|novies|decies|undecies|duodecies|terdecies|quaterdecies|quinquiesdecies|sexiesdecies|septiesdecies|octiesdecies|undevicies)`
	// ordinals are "secondo", "secondo, terzo e quarto".
	ordinal  = `(?:primo|secondo|terzo|quarto|quinto|sesto|settimo|ottavo|nono|decimo|ultimo|penultimo)`
	ordinals = ordinal + `(?:\s*(?:,|\be\b)\s*` + ordinal + `)*`
	// A paragraph's number, and the words that join several: a paragraph list is read
	// as such only after a plural ("commi 1 e 2"), in brackets ("alin. (1) și (2)") or as
	// a range ("comma 1-3"), so that "artt. 81, comma 2, e 110" keeps article 110.
	paragraphNumber = `\(?\d+(?:\^\d+)?\)?(?:-?\s*` + latinSuffix + `\b)?`
	listJoin        = `\s*(?:,|\be\b|[sșş]i\s|\band\b)\s*`
	// A letter is "a)" or "(a)"; the first of a list may also be a bare "a".
	letter = `\(?[a-z](?:\)|\b)`
	// articleQualifier is a paragraph, letter or point of an article: "comma 1",
	// "comma terzo", "secondo e terzo comma", "alin. (1)", "lit. a) și b)", "(1)(f)",
	// "e ss.".
	articleQualifier = `(?:\s*,?\s*(?:comma|co\.|c\.|alin\.|alineatul|paragraph|para\.|par\.|paragraful|paragrafo|§|pct\.|punctul|n\.|nr\.|teza|cpv\.?|capoverso)\s*` +
		paragraphNumber + `(?:\s*[-–]\s*` + paragraphNumber + `|(?:` + listJoin + `\(\d+\))*)` +
		`|\s*,?\s*(?:commi|alineatele|paragrafele|paragraphs|paragrafi|punctele)\s*` + paragraphNumber + `(?:(?:` + listJoin + `|\s*[-–]\s*)` + paragraphNumber + `)*` +
		`|\s*,?\s*(?:lett(?:era|ere|\.)|lit(?:era|\.)|literele|points?)\s*` + letter + `(?:(?:` + listJoin + `|\s*[-–]\s*)\(?[a-z]\))*` +
		`|\s*\(\d+\)(?:\s*[-–]\s*\(\d+\))?|\s*\([a-z]{1,2}\)|\s*,?\s*` + ordinals + `\s+(?:comma|commi|periodo)|\s*,?\s*(?:comma|commi|periodo)\s+` + ordinals +
		`|\s*,?\s*(?:e\s+)?ss\.|\s*,?\s*e\s+seguenti|\s*[sșş]i\s+urm(?:\.|ătoarele)|\s*et\s+seq\.|\s*,?\s*(?:first|second|third)\s+(?:paragraph|subparagraph|sentence))*`
	articleSep  = `\s*(?:,\s*(?:(?:e|ed|and|or|sau)\b|[sșş]i\s)?|;|\be\b|\bed\b|[sșş]i\s|\band\b|\bor\b|\bo\b|\bsau\b|-|–)\s*(?:` + articleWord + `)?`
	articleRef  = regexp.MustCompile(`(?i)\b` + articleWord + articleDigits + numberSuffix + articleQualifier + `(?:` + articleSep + articleDigits + numberSuffix + articleQualifier + `)*`)
	articleItem = regexp.MustCompile(`(?i)^(?:\s*` + articleWord + `|` + articleSep + `)` + articleDigits + numberSuffix + articleQualifier)
	// actConnector joins an article to its act: "del", "din", "of the", ", ".
	actConnector = regexp.MustCompile(`^\s*,?\s*(?:(?:del(?:la|lo|l['’]|le|l)?|dei|degli|dal(?:la)?|din|al|ale|a|of(?:\s+the)?|from|under|in)\s+)?`)

	// cassazione is "Cass. pen., Sez. VI, n. 10387/2025", "Cass. civ., sez. un., 12 marzo
	// 2024, n. 123", "Corte di cassazione, Sezioni Unite, sentenza n. 1 del 2020".
	cassazione = regexp.MustCompile(`(?i)\b(?:cass(?:azione)?\.?|corte\s+(?:suprema\s+)?di\s+cassazione)` +
		`(?:\s*,?\s*(?P<branch>pen(?:\.|ale\b)|civ(?:\.|ile\b)|lav\.))?` + cassazioneTail)
	// massimario is the Massimario's own form, "Sez. 6, n. 10387 del 11/03/2025" and
	// "Sez. U, n. 12 del 2020".
	massimario     = regexp.MustCompile(`(?i)\bsez\.\s*` + cassazioneSec + `(?:\s*(?P<branch>pen|civ)\.)?` + cassazioneNumber)
	cassazioneSec  = `(?P<sec>[ivx]+|\d|un(?:ite|\.)?|u)\b\.?`
	cassazioneTail = `(?:\s*,?\s*(?:sez(?:ione|\.)?\s*` + cassazioneSec + `(?:\s*(?:pen|civ)\.)?|(?P<su>ss\.\s?uu\.|sezioni\s+unite)))?` + cassazioneNumber
	cassazioneDate = `\d{1,2}\s?[./-]\s?\d{1,2}\s?[./-]\s?(?P<dyear>\d{4})|\d{1,2}\s+\p{L}+\s+(?P<dyear2>\d{4})`
	// cassazioneNumber is ", 12 marzo 2024, sent. n. 123/2024" or "n. 123 del 2024".
	cassazioneNumber = `(?:\s*,?\s*(?:` + cassazioneDate + `))?\s*,?\s*(?:(?:sent(?:enza|\.)?|ord(?:inanza|\.)?)\s*)?n\.\s*(?P<num>\d+)` +
		`(?:\s*/\s*(?P<year>\d{4})|,?\s+del(?:l['’])?\s*(?:\d{1,2}\s?[./-]\s?\d{1,2}\s?[./-]\s?|\d{1,2}\s+\p{L}+\s+)?(?P<year2>\d{4}))?`

	// roDecision is "Decizia nr. 11/2023", "sentința civilă nr. 101 din 28 mai 2021",
	// "Decizia CCR nr. 22/2016". It starts a word (startsWord: Go's \b knows no "î").
	roDecision = regexp.MustCompile(`(?i)(?:decizi(?:a|ei|e)|sentin[tțţ](?:a|ei)|[iî]ncheierea|[iî]ncheierii|hot[aă]r[aâ]r(?:ea|ii))` +
		`(?:\s+(?:civil[aă]|penal[aă]))?(?P<before>\s+(?:a\s+)?(?:CCR|[iî]\.?\s?C\.?\s?C\.?\s?J\.?|Cur[tțţ]ii\s+Constitu[tțţ]ionale|[iî]naltei\s+Cur[tțţ]ii?\s+de\s+Casa[tțţ]ie\s+[sșş]i\s+Justi[tțţ]ie|RIL|HP))?` +
		`\s*(?:nr\.|num[aă]rul)\s*(?P<num>\d+)\s*(?:/\s*(?:\d{1,2}\.\d{1,2}\.)?(?P<year>\d{4})|\s+din\s+(?:\d{1,2}[./]\d{1,2}[./]|\d{1,2}\s+\p{L}+\s+)?(?P<year2>\d{4}))`)
	// roCourt names the court after a Romanian decision's number.
	roCCR   = regexp.MustCompile(`(?i)\bCCR\b|cur[tțţ]ii\s+constitu[tțţ]ionale|curtea\s+constitu[tțţ]ional[aă]`)
	roICCJ  = regexp.MustCompile(`(?i)[iî]\.?\s?C\.?\s?C\.?\s?J\b|[iî]nalt(?:a|ei)\s+cur[tțţ](?:e|ii)\s+de\s+casa|\bRIL\b|recurs(?:ul|ului)?\s+[iî]n\s+interesul\s+legii|\bHP\b|dezlegarea\s+unor\s+chestiuni`)
	roAppel = regexp.MustCompile(`(?i)cur(?:tea|[tțţ]ii)\s+de\s+apel\s+(?P<city>\p{Lu}[\p{L}]+(?:[\s-]+(?:Mure[sșş]|Iulia))?)`)
	roOther = regexp.MustCompile(`(?i)\btribunal|judec[aă]tori`)
	// rejustID is "ReJust Hotarare-27.05.2026-d98e82869": the identifier ReJust gives a
	// court of appeal's decision, by which the corpus knows the decisions whose number
	// the source masks (kb_search and read_legal_text cite those by it).
	rejustID = regexp.MustCompile(`\bReJust\s+(Hotarare-\d{2}\.\d{2}\.\d{4}-[0-9A-Za-z]+)\b`)

	// corteCost is a decision of the Italian Constitutional Court: "Corte cost., sent. n.
	// 173 del 2024", "sentenza della Corte costituzionale n. 173/2024", "sentenza n. 74
	// del 2025 della Corte costituzionale".
	corteCost = regexp.MustCompile(`(?i)\b(?:(?:sentenza|ordinanza|sent\.|ord\.)\s+(?:della\s+)?corte\s+cost(?:ituzionale|\.)|corte\s+cost(?:ituzionale|\.)\s*,?\s*(?:(?:sentenza|ordinanza|sent\.|ord\.)\s*)?)` +
		`\s*,?\s*n\.\s*\d+(?:\s*/\s*\d{4}|\s+del\s+\d{4})|\b(?:sentenza|ordinanza)\s+n\.\s*\d+(?:\s*/\s*\d{4}|\s+del\s+\d{4})\s+della\s+corte\s+costituzionale`)
	// cjeuCase is "C-131/12", "causa C-40/17", "Case T-604/18".
	cjeuCase = regexp.MustCompile(`\b(?:(?i:joined\s+cases|cases?|cause\s+riunite|causa|cauzele|cauza)\s+)?[CT]-?\s?\d+/\d{2}\b(?:\s*P\b)?`)
	// echrCase is "Bărbulescu v. Romania [GC], no. 61496/08", "ricorso n. 123/05".
	echrCase = regexp.MustCompile(`(?:\p{Lu}[\p{L}'’-]+(?:\s+(?:and\s+Others|e\s+altri|[sșş]i\s+al[tțţ]ii))?\s+(?:v\.|c\.|contro|[iî]mpotriva)\s+\p{Lu}[\p{L}]+(?:\s+\p{Lu}[\p{L}]+)?(?:\s*\[(?:GC|MC)\])?\s*,\s*|(?i:application|ricorso|cererea|requête)\s+)(?i:nos?|nr|n)\.?\s*\d+/\d{2}\b`)
	// ecli is a European Case Law Identifier.
	ecli = regexp.MustCompile(`\bECLI:[A-Z]{2}:[A-Z0-9.]+:\d{4}:[A-Za-z0-9._]*[A-Za-z0-9_]`)
	// otherCourt ends a text just before "Sez. VI, n. …" when the section is another
	// court's: the Consiglio di Stato's, a TAR's, the Corte dei conti's, an appeal
	// court's or a tribunal's.
	otherCourt = regexp.MustCompile(`(?i)(?:cons\.?\s*(?:di\s+)?st(?:ato|\.)|consiglio\s+di\s+stato|t\.?a\.?r\.?(?:\s+\p{L}+)?|corte\s+dei\s+conti|c\.\s*conti|corte\s+d['’]\s*appello(?:\s+di\s+\p{L}+)?|app\.(?:\s+\p{L}+)?|trib(?:unale|\.)(?:\s+(?:di\s+)?\p{L}+)?)\s*,?\s*$`)
)

// cassazioneSections turns "VI", "6", "U" into the corpus's section names.
var cassazioneSections = map[string]string{"i": "Prima", "1": "Prima", "ii": "Seconda", "2": "Seconda", "iii": "Terza", "3": "Terza",
	"iv": "Quarta", "4": "Quarta", "v": "Quinta", "5": "Quinta", "vi": "Sesta", "6": "Sesta", "vii": "Settima", "7": "Settima",
	"u": "Sezioni Unite", "un": "Sezioni Unite", "un.": "Sezioni Unite", "unite": "Sezioni Unite"}

// spans are references that do not overlap, in the order of the text, so that a
// new one is placed and checked against them in logarithmic time: a hostile text
// brings thousands.
type spans []reference

// free reports whether [start, end) overlaps none of s.
func (s spans) free(start, end int) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].end > start })
	return i == len(s) || s[i].start >= end
}

// add places r among s when it overlaps none, and reports whether it did.
func (s *spans) add(r reference) bool {
	if !s.free(r.start, r.end) {
		return false
	}
	i := sort.Search(len(*s), func(i int) bool { return (*s)[i].start > r.start })
	*s = slices.Insert(*s, i, r)
	return true
}

// endingAt returns the reference of s that ends at end, if any.
func (s spans) endingAt(end int) (reference, bool) {
	i := sort.Search(len(s), func(i int) bool { return s[i].end >= end })
	if i < len(s) && s[i].end == end {
		return s[i], true
	}
	return reference{}, false
}

// findReferences finds the citations of text written in lang, in order. Where two
// overlap, articles win over decisions and decisions over bare names of acts, and then
// the first.
func findReferences(text, lang string) []reference {
	var out spans
	acts := findActs(text, lang)
	for _, found := range [][]reference{findArticles(text, lang, acts), findDecisions(text), acts} {
		for _, r := range found {
			out.add(r)
		}
	}
	return out
}

// findActs finds the names of acts that are citations on their own.
func findActs(text, lang string) spans {
	var out spans
	for _, p := range actPatterns {
		if p.anywhere == nil {
			continue
		}
		for _, loc := range p.anywhere.FindAllStringSubmatchIndex(text, -1) {
			if !endsAtBoundary(text, loc[1]) || cutsAbbreviation(text, loc[1]) || !standaloneWord(text[loc[0]:loc[1]]) {
				continue
			}
			out.add(reference{kind: KindAct, start: loc[0], end: loc[1], act: p.name(groupsOf(p.anywhere, text, loc), lang)})
		}
	}
	return out
}

// findArticles finds articles cited with their act, after them ("art. 2043 c.c.") or
// just before ("GDPR, Article 17"). An article with no act named is no citation.
func findArticles(text, lang string, acts spans) []reference {
	var out []reference
	for _, loc := range articleRef.FindAllStringIndex(text, -1) {
		r := reference{kind: KindArticle, start: loc[0], end: loc[1], articles: articleNumbers(text[loc[0]:loc[1]])}
		rest := text[loc[1]:]
		conn := actConnector.FindStringIndex(rest)
		if name, n, ok := actAt(rest[conn[1]:], lang); ok {
			r.act, r.end = name, loc[1]+conn[1]+n
			out = append(out, r)
			continue
		}
		before := strings.TrimRight(text[:loc[0]], " ,")
		if a, ok := acts.endingAt(len(before)); ok && loc[0]-a.end <= 3 {
			r.act, r.start = a.act, a.start
			out = append(out, r)
			continue
		}
		if name, start, ok := actInApposition(text[:loc[0]], lang); ok {
			r.act, r.start = name, start
			out = append(out, r)
		}
	}
	return out
}

// apposition is what joins an act's name to an article set in apposition after it:
// "the GDPR, at art. 82", "Codul civil, la art. 1357", "il codice civile, all'art. 2043".
var apposition = regexp.MustCompile(`(?i)\s*,\s*(?:at|in|under|la|[iî]n|al|all['’]|allo|nell['’]|nel|dall['’]|dal)\s*$`)

// Bounds of an apposition and of the act's name before it, in bytes.
const (
	maxAppositionBytes = 24
	maxActNameBytes    = 120
)

// actInApposition recognizes an act named just before an apposition that ends text,
// returning the act and where its name starts in text.
func actInApposition(text, lang string) (actName, int, bool) {
	// The apposition is short: look for it in the last bytes only, so that a text
	// of many articles costs no more than its length each.
	cut := max(0, len(text)-maxAppositionBytes)
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	m := apposition.FindStringIndex(text[cut:])
	if m == nil {
		return actName{}, 0, false
	}
	m[0] += cut
	from := max(0, m[0]-maxActNameBytes)
	for from < m[0] && !utf8.RuneStart(text[from]) {
		from++
	}
	name, start, ok := actBefore(text[from:m[0]], lang)
	if !ok || !startsWord(text, from+start) {
		return actName{}, 0, false
	}
	return name, from + start, true
}

// maxArticlesPerReference bounds the articles one reference lists: a hostile list of
// thousands would cost a lookup each and repeat the reference's text in each result.
const maxArticlesPerReference = 50

// articleNumbers reads the article numbers of an article reference in turn, as the
// corpus writes them, at most maxArticlesPerReference.
func articleNumbers(ref string) []string {
	var out []string
	seen := map[string]bool{}
	for pos := 0; pos < len(ref) && len(out) < maxArticlesPerReference; {
		m := articleItem.FindStringSubmatchIndex(ref[pos:])
		if m == nil || m[1] == 0 {
			break
		}
		n := normalizeArticle(strings.ReplaceAll(ref[pos+m[2]:pos+m[3]], ".", "")) + suffixOf(ref[pos+m[4]:pos+m[5]])
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
		pos += m[1]
	}
	return out
}

// superscripts maps superscript digits to digits.
var superscripts = strings.NewReplacer("¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9", "⁰", "0")

// suffixOf turns an article number's suffix into the corpus's form: "^1", "-bis".
func suffixOf(s string) string {
	s = strings.ToLower(superscripts.Replace(strings.Join(strings.Fields(s), "")))
	var out string
	if i := strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }); i >= 0 {
		out = "-" + strings.TrimLeft(s[i:], "-")
		s = s[:i]
	}
	s = strings.TrimPrefix(strings.TrimRight(s, "-"), "^")
	if s != "" {
		out = "^" + s + out
	}
	return out
}

// findDecisions finds citations of court decisions, the more specific forms first.
func findDecisions(text string) []reference {
	var out []reference
	each := func(re *regexp.Regexp, f func(g groups, start int) decisionName) {
		for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
			out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: f(groupsOf(re, text, loc), loc[0])})
		}
	}
	for _, loc := range ecli.FindAllStringIndex(text, -1) {
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: decisionName{ecli: text[loc[0]:loc[1]]}})
	}
	for _, re := range []*regexp.Regexp{cassazione, massimario} {
		each(re, func(g groups, start int) decisionName {
			if re == massimario && otherCourt.MatchString(text[max(0, start-60):start]) {
				return decisionName{court: courtOtherItalian}
			}
			d := decisionName{court: courtCassazione, number: g("num"), year: g("year") + g("year2")}
			if d.year == "" {
				d.year = g("dyear") + g("dyear2")
			}
			switch b := strings.ToLower(g("branch")); {
			case strings.HasPrefix(b, "pen"):
				d.branch = "pen"
			case b != "":
				d.branch = "civ"
			}
			if g("su") != "" {
				d.section = "Sezioni Unite"
			} else if sec := strings.ToLower(strings.TrimSuffix(g("sec"), ".")); sec != "" {
				d.section = cassazioneSections[strings.TrimSuffix(sec, ".")]
			}
			return d
		})
	}
	var ro [][]int
	for _, loc := range roDecision.FindAllStringSubmatchIndex(text, -1) {
		if startsWord(text, loc[0]) {
			ro = append(ro, loc)
		}
	}
	for i, loc := range ro {
		g := groupsOf(roDecision, text, loc)
		d := decisionName{number: g("num") + "/" + g("year") + g("year2"), year: g("year") + g("year2")}
		next := len(text)
		if i+1 < len(ro) {
			next = ro[i+1][0]
		}
		d.court = romanianCourt(g("before") + " " + courtWindow(text[loc[1]:next]))
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: d})
	}
	for _, loc := range rejustID.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: decisionName{rejust: text[loc[2]:loc[3]]}})
	}
	for _, loc := range corteCost.FindAllStringIndex(text, -1) {
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: decisionName{court: courtCorteCost}})
	}
	for _, loc := range cjeuCase.FindAllStringIndex(text, -1) {
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: decisionName{court: courtCJEU}})
	}
	for _, loc := range echrCase.FindAllStringIndex(text, -1) {
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: decisionName{court: courtECtHR}})
	}
	return out
}

// courtWindow is the text after a Romanian decision's number that may name its court:
// up to the end of the sentence or the next decision, at most 120 bytes.
func courtWindow(rest string) string {
	if len(rest) > 120 {
		rest = rest[:120]
	}
	if i := strings.IndexAny(rest, ";\n"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.Index(rest, ". "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// romanianCourt names the court of a Romanian decision from the words around it, or ""
// when they name none.
func romanianCourt(words string) string {
	switch {
	case roCCR.MatchString(words):
		return courtCCR
	case roICCJ.MatchString(words):
		return courtICCJ
	}
	if m := roAppel.FindStringSubmatch(words); m != nil {
		return "Curtea de Apel " + strings.ReplaceAll(m[1], "-", " ")
	}
	if roOther.MatchString(words) {
		return "tribunal"
	}
	return ""
}
