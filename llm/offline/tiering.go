package offline

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/lexflow/lexflow/corpus"
)

// tieringWording holds the offline model's tiering phrases in one language.
type tieringWording struct {
	// matched justifies a tier by the keywords of its definition that the client used.
	matched string
	// unmatched justifies tier 1 when no keyword of any tier was used.
	unmatched string
	// question is the one clarifying question about the tier.
	question string
}

var tieringPhrases = map[string]tieringWording{
	"en": {
		matched:   "The description mentions %s, which the definition of tier %d lists.",
		unmatched: "The description mentions nothing the definitions of tiers 2 and 3 list.",
		question:  "Is there already a dispute in court, or is a significant sum of money involved?",
	},
	"ro": {
		matched:   "Descrierea menționează %s, termeni pe care definiția nivelului %d îi enumeră.",
		unmatched: "Descrierea nu menționează nimic din ce enumeră definițiile nivelurilor 2 și 3.",
		question:  "Există deja un litigiu în instanță sau este implicată o sumă importantă de bani?",
	},
	"it": {
		matched:   "La descrizione menziona %s, termini che la definizione del livello %d elenca.",
		unmatched: "La descrizione non menziona nulla di ciò che elencano le definizioni dei livelli 2 e 3.",
		question:  "C'è già una causa in tribunale, o è in gioco una somma di denaro rilevante?",
	},
}

var (
	tierHeadingRe = regexp.MustCompile(`(?m)^##\s+\D*(\d)\s*$`)
	keywordsRe    = regexp.MustCompile(`(?m)^(?:Keywords|Cuvinte cheie|Parole chiave):\s*(.+)$`)
)

// decideNow is the line the Tiering workflow adds once its one question has been asked.
const decideNow = "Decide now"

// vagueWords is how short a description must be, with no keyword of any tier, for the
// offline model to ask its clarifying question.
const vagueWords = 4

// classify is the offline tiering model: it reads the tier definitions from the system
// prompt and picks the tier whose keywords the description uses most, the higher tier on
// a tie. With no keyword it asks its one question when the description is shorter than
// vagueWords words, and chooses tier 1 otherwise or once it must decide.
func classify(system, user, lang string) string {
	w := tieringPhrases[lang]
	if w.question == "" {
		w = tieringPhrases["en"]
	}
	user = strings.NewReplacer("<description>", "", "</description>", "").Replace(user)
	text := " " + corpus.Fold(user) + " "
	best, bestTier, bestWords := 0, 0, []string(nil)
	headings := tierHeadingRe.FindAllStringSubmatchIndex(system, -1)
	for i, h := range headings {
		end := len(system)
		if i+1 < len(headings) {
			end = headings[i+1][0]
		}
		tier := int(system[h[2]] - '0')
		var words []string
		if m := keywordsRe.FindStringSubmatch(system[h[1]:end]); m != nil {
			for _, k := range strings.Split(m[1], ",") {
				if k = strings.TrimSpace(k); k != "" && containsWord(text, corpus.Fold(k)) {
					words = append(words, k)
				}
			}
		}
		if len(words) > 0 && len(words) >= best {
			best, bestTier, bestWords = len(words), tier, words
		}
	}
	var out map[string]any
	switch {
	case bestTier > 0:
		out = map[string]any{"tier": bestTier, "justification": fmt.Sprintf(w.matched, strings.Join(bestWords, ", "), bestTier)}
	case !strings.Contains(user, decideNow) && len(strings.Fields(user)) < vagueWords:
		out = map[string]any{"question": w.question}
	default:
		out = map[string]any{"tier": 1, "justification": w.unmatched}
	}
	raw, _ := json.Marshal(out)
	return string(raw)
}

// containsWord reports whether the folded phrase occurs in text as whole words.
func containsWord(text, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], phrase)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(phrase)
		if !isLetter(text[start-1]) && (end >= len(text) || !isLetter(text[end])) {
			return true
		}
		i = start + 1
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
