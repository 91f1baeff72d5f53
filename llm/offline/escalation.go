package offline

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// askUserPhrases are the offline escalation reasoner's question to the client about a
// failed tool, per language.
var askUserPhrases = map[string]string{
	"en": "I could not complete a step of your case (%s). Could you check the details you gave me, or tell me to try again?",
	"ro": "Nu am putut finaliza un pas al cazului dvs. (%s). Puteți verifica datele pe care mi le-ați dat sau să-mi spuneți să încerc din nou?",
	"it": "Non sono riuscito a completare un passaggio del suo caso (%s). Può verificare i dati che mi ha dato, o dirmi di riprovare?",
}

// escalationRe reads the fields of the escalation request the Case's ladder writes.
var escalationRe = regexp.MustCompile(`(?m)^(Tool|Arguments|Error): (.*)$`)

// advise is the offline escalation reasoner: it reads the failed tool, its arguments and
// the error from the request and advises one retry with the same arguments, unless the
// error says the arguments or the data are wrong, when only the client can help.
func advise(user, lang string) string {
	ask := askUserPhrases[lang]
	if ask == "" {
		ask = askUserPhrases["en"]
	}
	fields := map[string]string{}
	for _, m := range escalationRe.FindAllStringSubmatch(user, -1) {
		fields[m[1]] = m[2]
	}
	var args map[string]any
	_ = json.Unmarshal([]byte(fields["Arguments"]), &args)
	errText := strings.ToLower(fields["Error"])
	var out map[string]any
	if args == nil || strings.Contains(errText, "not found") || strings.Contains(errText, "invalid") {
		out = map[string]any{"action": "ask_user", "question": fmt.Sprintf(ask, fields["Tool"]),
			"reason": "the error concerns the data, which only the client can check"}
	} else {
		out = map[string]any{"action": "retry", "args": args, "reason": "the failure looks transient: try once more"}
	}
	raw, _ := json.Marshal(out)
	return string(raw)
}
