package offline

import (
	"regexp"
	"strings"
)

// chatWording holds the offline chat model's phrases in one language.
type chatWording struct{ intro, none string }

var chatPhrases = map[string]chatWording{
	"en": {"From the tools:", "No tool ran for this message, and I answer only from what tools find."},
	"ro": {"Din instrumente:", "Niciun instrument nu a rulat pentru acest mesaj, iar eu răspund doar din ce găsesc instrumentele."},
	"it": {"Dagli strumenti:", "Nessuno strumento è stato eseguito per questo messaggio, e rispondo solo da ciò che trovano gli strumenti."},
}

// chatSectionRe is a section's heading in the chat message's tool context: "[name]".
var chatSectionRe = regexp.MustCompile(`^\[([a-z_]+)\]$`)

// answerChat is the chat role's answer: each section of the message's tool context,
// by name, with its first line of text, or a sentence saying no tool ran.
func answerChat(user, lang string) string {
	w, ok := chatPhrases[lang]
	if !ok {
		w = chatPhrases["en"]
	}
	_, context, found := strings.Cut(user, "\nTool context:\n")
	if !found {
		return w.none
	}
	var b strings.Builder
	b.WriteString(w.intro)
	name, taken := "", true
	for _, line := range strings.Split(context, "\n") {
		line = strings.TrimSpace(line)
		if g := chatSectionRe.FindStringSubmatch(line); g != nil {
			name, taken = g[1], false
			continue
		}
		if line != "" && !taken {
			b.WriteString("\n- " + name + ": " + clip(line, 300))
			taken = true
		}
	}
	return b.String()
}
