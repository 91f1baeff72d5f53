package corpus

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

var (
	// layoutA is the first line of ReJust and RoLII exports.
	layoutA = regexp.MustCompile(`^(Decizie|Sentinta|Incheiere|Hotarare) nr\. (?:RJ )?(\S+)/(\d{4}) din (\d\d)-(ian|feb|mar|apr|mai|iun|iul|aug|sept|oct|nov|dec)-(\d{4}), (Curtea de Apel [^,]+), (.+)$`)
	// ecliRO finds a Romanian ECLI, whose unique part the sources mask.
	ecliRO = regexp.MustCompile(`(?:ECLI\s*:?\s*)?(?:ECLI:)?\s*RO:(CA[A-Z]{3}):(\d{4}):(\d+)\.([#_]+|\d+)`)
	// fileDate is the decision date in a file name, DD.MM.YYYY.
	fileDate = regexp.MustCompile(`(\d\d)\.(\d\d)\.(\d{4})`)
	// mangledTag is quoted text the source turned into fake HTML tags.
	mangledTag = regexp.MustCompile(`</?_[^>]*>|<[_a-zA-Z][^>]*=""[^>]*>`)
	// iccjHeader is the first line of an ÎCCJ unification decision.
	iccjHeader = regexp.MustCompile(`^ÎCCJ - Decizia nr\. (\d+)/(\d{4}) \((RIL|HP)\) - (.+)$`)
	// iccjDate is the date line of an ÎCCJ decision: "DECIZIA nr. 11 din 19 iunie 2023".
	iccjDate = regexp.MustCompile(`DECIZIA nr\. \d+ din (\d{1,2}) (\p{L}+) (\d{4})`)
	// subject is the object of a dispute, in the text of a decision.
	subject = regexp.MustCompile(`având ca obiect ([^.;\n]{5,200})`)
)

var roMonths = map[string]string{"ian": "01", "feb": "02", "mar": "03", "apr": "04", "mai": "05", "iun": "06",
	"iul": "07", "aug": "08", "sept": "09", "oct": "10", "nov": "11", "dec": "12"}

// ecliCourts names the courts of appeal by their ECLI code.
var ecliCourts = map[string]string{
	"CABUC": "Curtea de Apel București", "CABAC": "Curtea de Apel Bacău", "CATGM": "Curtea de Apel Târgu Mureș",
	"CACTA": "Curtea de Apel Constanța", "CAALB": "Curtea de Apel Alba Iulia", "CAPIT": "Curtea de Apel Pitești",
	"CAPLO": "Curtea de Apel Ploiești", "CASVA": "Curtea de Apel Suceava", "CAGLT": "Curtea de Apel Galați",
	"CATIM": "Curtea de Apel Timișoara", "CAORA": "Curtea de Apel Oradea", "CACRV": "Curtea de Apel Craiova",
	"CABRV": "Curtea de Apel Brașov",
}

// loadRejust reads the Romanian decisions: courts of appeal on public procurement, in
// the ReJust/RoLII layout (type, number, date, court and subject on the first line) or
// the later one (court from the ECLI code, date from the file name), and the ÎCCJ
// unification decisions with their official header.
func loadRejust(f files) ([]Decision, error) {
	var out []Decision
	for _, name := range f.under("ro-jurisprudenta-rejust/jurisprudenta-ca/decizii", ".txt") {
		out = append(out, courtOfAppeal(name, string(f[name])))
	}
	for _, name := range f.under("ro-jurisprudenta-rejust/jurisprudenta-iccj/decizii", ".txt") {
		d, err := iccj(name, string(f[name]))
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// RejustDocPrefix begins the doc_id of a court of appeal's decision, before its ReJust
// identifier ("ro/ca/Hotarare-27.05.2026-d98e82869").
const RejustDocPrefix = "ro/ca/"

func courtOfAppeal(name, raw string) Decision {
	id := strings.TrimSuffix(path.Base(name), ".txt")
	text := cleanText(mangledTag.ReplaceAllString(raw, ""))
	d := Decision{DocID: RejustDocPrefix + id, Jurisdiction: "ro", Language: "ro", Kind: "decizie", Number: id,
		Materia: "achiziții publice (contencios administrativ și fiscal)", FullText: text}
	if m := fileDate.FindStringSubmatch(id); m != nil {
		d.Date = m[3] + "-" + m[2] + "-" + m[1]
		d.Year, _ = strconv.Atoi(m[3])
	}
	first, _, _ := strings.Cut(text, "\n")
	if m := ecliRO.FindStringSubmatch(text); m != nil {
		d.ECLI = "ECLI:RO:" + m[1] + ":" + m[2] + ":" + m[3] + "." + m[4]
		d.Court = ecliCourts[m[1]]
	}
	if d.Court == "" {
		d.Court = courtNamed(first)
	}
	if m := layoutA.FindStringSubmatch(first); m != nil {
		d.Kind = strings.ToLower(m[1])
		d.Number = m[2] + "/" + m[3]
		d.Date = m[6] + "-" + roMonths[m[5]] + "-" + m[4]
		d.Year, _ = strconv.Atoi(m[6])
		_, d.FullText, _ = strings.Cut(text, "\n") // the header line is the source's, not the court's
		d.FullText = strings.TrimSpace(d.FullText)
	}
	if strings.Contains(text, "www.rejust.ro") {
		d.URL = "https://www.rejust.ro"
	} else if strings.Contains(text, "www.rolii.ro") {
		d.URL = "https://www.rolii.ro"
	}
	if m := subject.FindStringSubmatch(text); m != nil {
		d.Summary = "Obiect: " + strings.TrimSpace(m[1])
	}
	return d
}

func iccj(name, raw string) (Decision, error) {
	text := strings.TrimPrefix(raw, "\ufeff")
	lines := strings.Split(text, "\n")
	m := iccjHeader.FindStringSubmatch(strings.TrimSpace(lines[0]))
	if m == nil || len(lines) < 8 {
		return Decision{}, fmt.Errorf("corpus: %s: unexpected ÎCCJ header %q", name, lines[0])
	}
	year, _ := strconv.Atoi(m[2])
	d := Decision{
		DocID: fmt.Sprintf("ro/iccj/%s-%s-%s", strings.ToLower(m[3]), m[1], m[2]), Jurisdiction: "ro", Language: "ro",
		Kind: m[3], Court: "Înalta Curte de Casație și Justiție", Number: m[1] + "/" + m[2], Year: year,
		Materia: cleanLine(m[4]),
		URL:     strings.TrimSpace(strings.TrimPrefix(lines[2], "Sursa oficiala:")),
		Summary: cleanLine(strings.TrimPrefix(lines[4], "Obiect:")),
	}
	if disp := strings.TrimSpace(strings.TrimPrefix(lines[6], "DISPOZITIV INTEGRAL:")); disp != "(vezi textul)" {
		d.Massima = cleanText(disp)
	}
	_, body, _ := strings.Cut(text, "===== CONSIDERENTELE INTEGRALE =====")
	if i := strings.LastIndex(body, " ----- "); i >= 0 {
		body = body[:i] // the web page's banners
	}
	d.FullText = cleanText(body)
	if m := iccjDate.FindStringSubmatch(d.FullText); m != nil {
		day, _ := strconv.Atoi(m[1])
		d.Date = fmt.Sprintf("%s-%s-%02d", m[3], romanianMonth(m[2]), day)
	}
	return d, nil
}

// courtNamed finds the court of appeal a header line names, even without diacritics
// or cut short ("CURTEA DE APEL CONSTAN — ...").
func courtNamed(line string) string {
	_, rest, ok := strings.Cut(Fold(line), "curtea de apel ")
	if !ok {
		return ""
	}
	rest, _, _ = strings.Cut(rest, " —")
	rest, _, _ = strings.Cut(rest, ",")
	rest = strings.TrimSpace(rest)
	if len(rest) < 4 {
		return ""
	}
	for _, code := range sortedCourtCodes {
		city := strings.TrimPrefix(Fold(ecliCourts[code]), "curtea de apel ")
		if strings.HasPrefix(city, rest) {
			return ecliCourts[code]
		}
	}
	return ""
}

// sortedCourtCodes lists ecliCourts' keys in order, for deterministic matching.
var sortedCourtCodes = func() []string {
	var codes []string
	for c := range ecliCourts {
		codes = append(codes, c)
	}
	sortStrings(codes)
	return codes
}()

// romanianMonth returns the number of a Romanian month name, "00" if unknown.
func romanianMonth(name string) string {
	months := []string{"ianuarie", "februarie", "martie", "aprilie", "mai", "iunie", "iulie", "august",
		"septembrie", "octombrie", "noiembrie", "decembrie"}
	for i, m := range months {
		if strings.EqualFold(name, m) {
			return fmt.Sprintf("%02d", i+1)
		}
	}
	return "00"
}
