package corpus

import "regexp"

// reasoningStart finds where a Romanian court starts its own analysis, after the
// parties' claims and arguments: "Examinând recursul…", "Curtea reține…",
// "Instanța, în baza probelor administrate, constată…", "CONSIDERENTE".
var reasoningStart = regexp.MustCompile(`(?:Examinând|Analizând|Verificând)|` +
	`(?:Curtea|Instanța|Tribunalul|Completul)(?: de apel| supremă)?,? (?:(?:în )?(?:urma|baza) [^.]{0,60})?` +
	`(?:reține|constată|apreciază|observă)|CONSIDERENTE|(?i:considerentele curții)`)

// operativeStart finds the operative part ("dispozitiv") of a Romanian decision.
var operativeStart = regexp.MustCompile(`PENTRU ACESTE MOTIVE|ÎN NUMELE LEGII|\bDECIDE\b|\bHOTĂRĂȘTE\b|\bDISPUNE\b`)

// decisionParts splits a decision's full text into what the court decided (its
// reasoning, "considerente", and operative part, "dispozitiv") and what the parties
// argued before it. Romanian decisions are split where the court's analysis starts
// (the first marker past the first tenth of the text, before which sit the claims);
// a text without a marker, and an Italian one (the Cassazione's are its own
// reasoning), is all reasoning.
func decisionParts(d Decision) (reasoning, arguments string) {
	text := d.FullText
	if d.Language != "ro" {
		return text, ""
	}
	from := len(text) / 10
	if loc := reasoningStart.FindStringIndex(text[from:]); loc != nil {
		return text[from+loc[0]:], text[:from+loc[0]]
	}
	if locs := operativeStart.FindAllStringIndex(text, -1); len(locs) > 0 {
		last := locs[len(locs)-1][0]
		return text[last:], text[:last]
	}
	return text, ""
}
