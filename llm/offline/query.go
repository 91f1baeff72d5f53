package offline

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/lexflow/lexflow/corpus"
)

// queryWording holds the offline query model's phrases in one language.
type queryWording struct {
	intro, none, clarify string
}

var queryPhrases = map[string]queryWording{
	"en": {"From the knowledge base:", "The knowledge base holds nothing that answers this question.",
		"What happened, when, and what outcome do you want?"},
	"ro": {"Din baza de cunoștințe:", "Baza de cunoștințe nu conține nimic care să răspundă la această întrebare.",
		"Ce s-a întâmplat, când și ce rezultat doriți?"},
	"it": {"Dalla base di conoscenza:", "La base di conoscenza non contiene nulla che risponda a questa domanda.",
		"Che cosa è successo, quando, e quale risultato desidera?"},
}

var (
	// sourceRe is a source's heading in the query message: "[1] reference (tool)".
	sourceRe = regexp.MustCompile(`^\[\d+\] (.+) \((\w+)\)$`)
	// liveDataRe is what asks for data newer than a corpus, matched on folded text.
	liveDataRe = regexp.MustCompile(`\b(latest|current|currently|today|now|recent|news|this (week|month|year)|ultim[aeio]|attual[ei]|oggi|recent[ei]|notizi[ae]|azi|acum|actual[ae]?|recent[ae]?|stiri|20[2-9]\d)\b`)
)

// stopWords are left out of a search term.
var stopWords = strings.Fields(`what which who how when where why is are was were the a an of for in on at to and or does do
	ce care cine cum cand unde de ce este sunt e a al ale la din in si cu pe un o
	che cosa chi come quando dove perche qual quale il lo la i gli le di da con su per e un una del della dell sull nell all`)

// queryVagueWords is how short a question must be for the offline query model to ask
// what happened.
const queryVagueWords = 4

// answerQuery is the offline query model. It answers with the first three sources of
// the message, each by its reference and the first sentence of its excerpt, or says the
// knowledge base holds nothing; it asks what happened when the question has fewer
// than four words; and, with web search hints on, it suggests a search term (the
// question's keywords, at most eight) when the question asks for live data (latest,
// today, news, a recent year, in the three languages) or no source came.
func answerQuery(user, lang string) string {
	w := queryPhrases[lang]
	if w.intro == "" {
		w = queryPhrases["en"]
	}
	question, hints := "", false
	type source struct{ reference, excerpt string }
	var sources []source
	for _, line := range strings.Split(user, "\n") {
		switch m := sourceRe.FindStringSubmatch(line); {
		case strings.HasPrefix(line, "Question: "):
			question = strings.TrimPrefix(line, "Question: ")
		case line == "Web search hints: on":
			hints = true
		case m != nil:
			sources = append(sources, source{reference: m[1]})
		case len(sources) > 0 && sources[len(sources)-1].excerpt == "" && strings.TrimSpace(line) != "":
			sources[len(sources)-1].excerpt = firstSentence(line)
		}
	}
	out := struct {
		Answer              string   `json:"answer"`
		ClarifyingQuestions []string `json:"clarifying_questions"`
		SearchTerm          string   `json:"search_term,omitempty"`
	}{Answer: w.none, ClarifyingQuestions: []string{}}
	if len(sources) > 0 {
		var b strings.Builder
		b.WriteString(w.intro)
		for _, s := range sources[:min(len(sources), 3)] {
			b.WriteString("\n- " + s.reference + ": " + s.excerpt)
		}
		out.Answer = b.String()
	}
	if len(strings.Fields(question)) < queryVagueWords {
		out.ClarifyingQuestions = append(out.ClarifyingQuestions, w.clarify)
	}
	if hints && (len(sources) == 0 || liveDataRe.MatchString(corpus.Fold(question))) {
		out.SearchTerm = searchTerm(question)
	}
	raw, _ := json.Marshal(out)
	return string(raw)
}

// firstSentence is a line's first sentence, at most 200 characters.
func firstSentence(line string) string {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, ". "); i > 0 {
		line = line[:i+1]
	}
	if r := []rune(line); len(r) > 200 {
		line = string(r[:200]) + "…"
	}
	return line
}

// searchTerm is a question's keywords: its words of two letters or more (split at
// apostrophes and punctuation) without stop words, at most eight.
func searchTerm(question string) string {
	var keep []string
	for _, w := range strings.FieldsFunc(question, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) < 2 || slices.Contains(stopWords, corpus.Fold(w)) {
			continue
		}
		if keep = append(keep, w); len(keep) == 8 {
			break
		}
	}
	return strings.Join(keep, " ")
}
