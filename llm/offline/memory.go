package offline

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// selfRe is a sentence in which a client says something about themselves: it begins
// "I am", "I'm", "I work", "I live", "I run", "I have" or "My" (Romanian "Sunt",
// "Lucrez", "Locuiesc", "Am", "Conduc"; Italian "Sono", "Lavoro", "Abito", "Vivo",
// "Ho", "Gestisco").
var selfRe = regexp.MustCompile(`^(?i:I am|I'm|I work|I live|I run|I have|my|sunt|lucrez|locuiesc|am|conduc|sono|lavoro|abito|vivo|ho|gestisco)\b`)

// sentenceEndRe ends a sentence.
var sentenceEndRe = regexp.MustCompile(`[.!?]+(\s+|$)`)

// memoryPhrases are the offline memory role's lead-ins, per language.
var memoryPhrases = map[string]string{
	"en": "The client said: «%s»",
	"ro": "Clientul a spus: «%s»",
	"it": "Il cliente ha detto: «%s»",
}

// proposeFacts is the memory role's answer, {"facts": [...]}: each sentence of the
// client's messages (after schemas.MemoryClientHeading) in which they say something about
// themselves (selfRe), quoted in the case's language, at most 5, each at most 280
// characters; none when no sentence is such.
func proposeFacts(user, lang string) string {
	lead, ok := memoryPhrases[lang]
	if !ok {
		lead = memoryPhrases["en"]
	}
	facts := []string{}
	_, msgs, _ := strings.Cut(user, schemas.MemoryClientHeading)
	for _, line := range strings.Split(msgs, "\n") {
		line, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		for _, s := range sentences(line) {
			if len(facts) < 5 && selfRe.MatchString(s) {
				facts = append(facts, strings.Replace(lead, "%s", clip(s, 250), 1))
			}
		}
	}
	raw, _ := json.Marshal(map[string][]string{"facts": facts})
	return string(raw)
}

// sentences splits a text after each full stop, question or exclamation mark.
func sentences(text string) []string {
	var out []string
	for text != "" {
		loc := sentenceEndRe.FindStringIndex(text)
		end := len(text)
		if loc != nil {
			end = loc[1]
		}
		if s := strings.TrimSpace(text[:end]); s != "" {
			out = append(out, s)
		}
		text = text[end:]
	}
	return out
}
