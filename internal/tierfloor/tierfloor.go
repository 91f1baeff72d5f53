// Package tierfloor finds, in a client's description of a case, the facts that set a
// lowest tier whatever the tiering model answers: a dispute in court or a deadline
// (tier 2), a sum above 40,000 euros (tier 3). The model classifies what the client
// wrote, and the client's text can try to talk it down; these signals are read by
// rule, in Romanian, Italian and English, so a sentence aimed at the classifier cannot
// lower the price below them. A signal only raises the tier: a word read wrongly
// costs a tier, never makes a case cheaper than the model said.
package tierfloor

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Floor is the lowest tier a description's signals set (0: none), and the words of
// the description that set it, in lower case and without diacritics.
type Floor struct {
	Tier    int
	Signals []string
}

// LargeSum is the sum, in euros, above which a case is tier 3 (the tier definitions'
// "sums above 40,000 euros").
const LargeSum = 40_000

// ronPerEuro converts lei to euros, rounded down so that a sum in lei is never
// overstated.
const ronPerEuro = 5

// Of returns the floor that text's signals set.
func Of(text string) Floor {
	t := fold(text)
	var f Floor
	raise := func(tier int, signal string) {
		f.Tier = max(f.Tier, tier)
		f.Signals = append(f.Signals, strings.TrimSpace(signal))
	}
	for _, m := range sumRe.FindAllStringSubmatch(t, -1) {
		if euros(m) > LargeSum {
			raise(3, m[0])
		}
	}
	for _, re := range []*regexp.Regexp{courtRe, deadlineRe} {
		if m := re.FindString(t); m != "" {
			raise(2, m)
		}
	}
	return f
}

// courtRe finds a dispute before a court, in the three languages, leaving out what
// only looks like one: an Italian "a causa di" (because of), a Romanian
// "proces-verbal" (a fine's report, tier 1 or 2 by the definitions).
var courtRe = regexp.MustCompile(`\b(` +
	`court|lawsuit|sued|suing|summons|hearing|trial|litigation|claim form|` +
	`instanta|instantei|tribunal(?:ul|ului)?|judecatori(?:a|ei|e)|judecator(?:ul)?|proces(?:ul|ului)?\b(?:[^-]|$)|chemare in judecata|citatie|litigiu(?:l)?|dat in judecata|actionat in judecata|` +
	`tribunale|giudice|ricorso|citazione|udienza|processo|contenzioso|decreto ingiuntivo|fare causa|in causa)\b`)

// deadlineRe finds a deadline the client must meet.
var deadlineRe = regexp.MustCompile(`\b(` +
	`deadline|time limit|within \d+ (?:calendar |working )?days|` +
	`termen(?:ul)? limita|in termen de \d+ (?:de )?zile|pana cel tarziu|` +
	`scadenza|termine perentorio|entro \d+ giorni|entro il \d+)\b`)

// sumRe finds a sum of money: digits with thousands separators or decimals, an
// optional multiplier (thousand, million) and a currency, before or after.
var sumRe = regexp.MustCompile(`(?:(€|\$|\beur\b|\beuro\b|\bron\b|\blei\b|\busd\b)\s?)?\b(\d{1,3}(?:[ .,']\d{3})+|\d+)(?:[.,](\d{1,2}))?\b\s?` +
	`(?:(k|mii|mie|mila|mille|thousand|milioane|milion|milioni|milione|million|millions|mln)\b)?\s?(?:de\s)?(€|\$|\beur\b|\beuro\b|\beuros\b|\bron\b|\blei\b|\busd\b)?`)

// euros is the sum a match of sumRe names, in euros; 0 when it names no currency.
func euros(m []string) int64 {
	currency := m[1]
	if currency == "" {
		currency = m[5]
	}
	if currency == "" {
		return 0
	}
	digits := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, m[2])
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || len(digits) > 15 {
		return 0
	}
	switch m[4] {
	case "k", "mii", "mie", "mila", "mille", "thousand":
		n *= 1_000
	case "":
	default:
		n *= 1_000_000
	}
	if currency == "ron" || currency == "lei" {
		n /= ronPerEuro
	}
	return n
}

// fold is s in lower case, without diacritics.
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
