package corpus

import (
	"regexp"
	"slices"
	"strings"
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
}

// Courts a decision citation may name.
const (
	courtCassazione = "Corte di cassazione"
	courtICCJ       = "Înalta Curte de Casație și Justiție"
	courtCCR        = "Curtea Constituțională"
	courtCorteCost  = "Corte costituzionale"
	courtCJEU       = "Court of Justice of the EU"
	courtECtHR      = "European Court of Human Rights"
)

// Patterns of the citations that are not names of acts.
var (
	// articleRef is "art. 2043", "artt. 81, 110 e 640", "Article 6(1)(f)",
	// "art. 1270 alin. (1)", "art. 2, comma 1, lett. a)", "articolul 1.350".
	articleNumber = `(?:\d{1,2}\.\d{3}|\d+)(?:\s?\^\s?\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)?(?:(?:-\s*|\s)?` + latinSuffix + `\b)?`
	latinSuffix   = `(?:bis|ter|quater|quinquies|sexies|septies|octies|novies|decies|undecies|duodecies|terdecies|quaterdecies|quinquiesdecies|sexiesdecies|septiesdecies|octiesdecies|undevicies)`
	// ordinals are "secondo", "secondo, terzo e quarto".
	ordinal  = `(?:primo|secondo|terzo|quarto|quinto|sesto|settimo|ottavo|nono|decimo|ultimo|penultimo)`
	ordinals = ordinal + `(?:\s*(?:,|\be\b)\s*` + ordinal + `)*`
	// articleQualifier is a paragraph, letter or point of an article: "comma 1",
	// "comma terzo", "secondo e terzo comma", "alin. (1)", "lit. a)", "(1)(f)", "e ss.".
	articleQualifier = `(?:\s*,?\s*(?:comma|commi|co\.|c\.|alin(?:\.|eatul|eatele)|alineatul|paragraph|para\.|par\.|paragraful|paragrafo|paragrafele|§|pct\.|punctul|n\.|nr\.|teza|cpv\.?|capoverso)\s*\(?\d+(?:\^\d+)?\)?(?:-?\s*` + latinSuffix + `\b)?` +
		`|\s*,?\s*(?:lett(?:era|\.)|lit(?:era|\.)|literele|point)\s*\(?[a-z](?:\)|\b)` +
		`|\s*\(\d+\)(?:\s*[-–]\s*\(\d+\))?|\s*\([a-z]{1,2}\)|\s*,?\s*` + ordinals + `\s+(?:comma|commi|periodo)|\s*,?\s*(?:comma|commi|periodo)\s+` + ordinals +
		`|\s*,?\s*(?:e\s+)?ss\.|\s*,?\s*e\s+seguenti|\s*[sșş]i\s+urm(?:\.|ătoarele)|\s*et\s+seq\.|\s*,?\s*(?:first|second|third)\s+(?:paragraph|subparagraph|sentence))*`
	articleSep  = `\s*(?:,\s*(?:(?:e|ed|and|or|sau)\b|[sșş]i\s)?|;|\be\b|\bed\b|[sșş]i\s|\band\b|\bor\b|\bo\b|\bsau\b|-|–)\s*(?:art(?:t|s|icol(?:o|ul|ele)|icles?)?\.?\s*)?`
	articleRef  = regexp.MustCompile(`(?i)\bart(?:t|s|icol(?:o|i|ul|ele|ului)|icles?)?\.?\s*` + articleNumber + articleQualifier + `(?:` + articleSep + articleNumber + articleQualifier + `)*`)
	articleItem = regexp.MustCompile(`(?i)(?:^\s*art(?:t|s|icol(?:o|i|ul|ele|ului)|icles?)?\.?\s*|` + articleSep + `)(\d{1,2}\.\d{3}|\d+)`)
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
	// "Decizia CCR nr. 22/2016".
	roDecision = regexp.MustCompile(`(?i)\b(?:decizi(?:a|ei|e)|sentin[tțţ](?:a|ei)|[iî]ncheierea|[iî]ncheierii|hot[aă]r[aâ]r(?:ea|ii))` +
		`(?:\s+(?:civil[aă]|penal[aă]))?(?P<before>\s+(?:a\s+)?(?:CCR|[iî]\.?\s?C\.?\s?C\.?\s?J\.?|Cur[tțţ]ii\s+Constitu[tțţ]ionale|[iî]naltei\s+Cur[tțţ]ii?\s+de\s+Casa[tțţ]ie\s+[sșş]i\s+Justi[tțţ]ie|RIL|HP))?` +
		`\s*(?:nr\.|num[aă]rul)\s*(?P<num>\d+)\s*(?:/\s*(?:\d{1,2}\.\d{1,2}\.)?(?P<year>\d{4})|\s+din\s+(?:\d{1,2}[./]\d{1,2}[./]|\d{1,2}\s+\p{L}+\s+)?(?P<year2>\d{4}))`)
	// roCourt names the court after a Romanian decision's number.
	roCCR   = regexp.MustCompile(`(?i)\bCCR\b|cur[tțţ]ii\s+constitu[tțţ]ionale|curtea\s+constitu[tțţ]ional[aă]`)
	roICCJ  = regexp.MustCompile(`(?i)[iî]\.?\s?C\.?\s?C\.?\s?J\b|[iî]nalt(?:a|ei)\s+cur[tțţ](?:e|ii)\s+de\s+casa|\bRIL\b|recurs(?:ul|ului)?\s+[iî]n\s+interesul\s+legii|\bHP\b|dezlegarea\s+unor\s+chestiuni`)
	roAppel = regexp.MustCompile(`(?i)cur(?:tea|[tțţ]ii)\s+de\s+apel\s+(?P<city>\p{Lu}[\p{L}]+(?:[\s-]+(?:Mure[sșş]|Iulia))?)`)
	roOther = regexp.MustCompile(`(?i)\btribunal|judec[aă]tori`)

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
)

// cassazioneSections turns "VI", "6", "U" into the corpus's section names.
var cassazioneSections = map[string]string{"i": "Prima", "1": "Prima", "ii": "Seconda", "2": "Seconda", "iii": "Terza", "3": "Terza",
	"iv": "Quarta", "4": "Quarta", "v": "Quinta", "5": "Quinta", "vi": "Sesta", "6": "Sesta", "vii": "Settima", "7": "Settima",
	"u": "Sezioni Unite", "un": "Sezioni Unite", "un.": "Sezioni Unite", "unite": "Sezioni Unite"}

// findReferences finds the citations of text written in lang. Where two overlap,
// articles win over decisions and decisions over bare names of acts, and then the
// first.
func findReferences(text, lang string) []reference {
	var out []reference
	free := func(start, end int) bool {
		return !slices.ContainsFunc(out, func(r reference) bool { return start < r.end && r.start < end })
	}
	add := func(refs []reference) {
		for _, r := range refs {
			if free(r.start, r.end) {
				out = append(out, r)
			}
		}
	}
	acts := findActs(text, lang)
	add(findArticles(text, lang, acts))
	add(findDecisions(text))
	add(acts)
	slices.SortFunc(out, func(a, b reference) int { return a.start - b.start })
	return out
}

// findActs finds the names of acts that are citations on their own.
func findActs(text, lang string) []reference {
	var out []reference
	for _, p := range actPatterns {
		if p.anywhere == nil {
			continue
		}
		for _, loc := range p.anywhere.FindAllStringSubmatchIndex(text, -1) {
			if !endsAtBoundary(text, loc[1]) || !standaloneWord(text[loc[0]:loc[1]]) {
				continue
			}
			if slices.ContainsFunc(out, func(r reference) bool { return loc[0] < r.end && r.start < loc[1] }) {
				continue
			}
			out = append(out, reference{kind: KindAct, start: loc[0], end: loc[1], act: p.name(groupsOf(p.anywhere, text, loc), lang)})
		}
	}
	return out
}

// findArticles finds articles cited with their act, after them ("art. 2043 c.c.") or
// just before ("GDPR, Article 17"). An article with no act named is no citation.
func findArticles(text, lang string, acts []reference) []reference {
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
		if i := slices.IndexFunc(acts, func(a reference) bool { return a.end == len(before) && loc[0]-a.end <= 3 }); i >= 0 {
			r.act, r.start = acts[i].act, acts[i].start
			out = append(out, r)
		}
	}
	return out
}

// articleNumbers reads the article numbers of an article reference, as the corpus
// writes them.
func articleNumbers(ref string) []string {
	var out []string
	for _, m := range articleItem.FindAllStringSubmatchIndex(ref, -1) {
		end := m[1]
		n := normalizeArticle(strings.ReplaceAll(ref[m[2]:end], ".", ""))
		// The number group stops at the digits; take the suffix that follows.
		if suffix := articleSuffix.FindString(ref[end:]); suffix != "" {
			n += suffixOf(suffix)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

var articleSuffix = regexp.MustCompile(`(?i)^(?:\s?\^\s?\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)?(?:(?:-\s*|\s)?` + latinSuffix + `\b)?`)

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
	each := func(re *regexp.Regexp, f func(g groups) decisionName) {
		for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
			out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: f(groupsOf(re, text, loc))})
		}
	}
	for _, loc := range ecli.FindAllStringIndex(text, -1) {
		out = append(out, reference{kind: KindDecision, start: loc[0], end: loc[1], decision: decisionName{ecli: text[loc[0]:loc[1]]}})
	}
	for _, re := range []*regexp.Regexp{cassazione, massimario} {
		each(re, func(g groups) decisionName {
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
	ro := roDecision.FindAllStringSubmatchIndex(text, -1)
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
