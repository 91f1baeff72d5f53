package offline

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/prompts"
)

func TestAnswerQuery(t *testing.T) {
	lib, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	const sources = "Sources:\n[1] art. 2043 c.c. (normattiva_search)\nRisarcimento per fatto illecito. Qualunque fatto doloso o colposo.\n" +
		"[2] Cass. pen., Sez. VI, n. 10387/2025 (kb_search)\nIl reato di peculato. Altro.\n"
	for _, tc := range []struct {
		name, lang, message string
		answerHas           []string
		clarify             bool
		searchTerm          string
	}{
		{"sources, no hints", "it", "Question: Che cosa dice l'art. 2043 c.c. sul danno?\nWeb search hints: off\n" + sources,
			[]string{"Dalla base di conoscenza:", "- art. 2043 c.c.: Risarcimento per fatto illecito.", "- Cass. pen., Sez. VI, n. 10387/2025: Il reato di peculato."}, false, ""},
		{"live data asked, hints on", "it", "Question: Qual è l'ultima giurisprudenza sull'art. 2043 c.c.?\nWeb search hints: on\n" + sources,
			[]string{"- art. 2043 c.c."}, false, "ultima giurisprudenza art 2043"},
		{"live data asked, hints off", "en", "Question: What are the latest rulings on tort?\nWeb search hints: off\nSources:\n(none)\n",
			[]string{"The knowledge base holds nothing"}, false, ""},
		{"nothing found, hints on", "ro", "Question: Ce spune legea despre chiria neplătită?\nWeb search hints: on\nSources:\n(none)\n",
			[]string{"Baza de cunoștințe nu conține nimic"}, false, "spune legea despre chiria neplătită"},
		{"vague", "en", "Question: Help me\nWeb search hints: off\n" + sources, []string{"From the knowledge base:"}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			system := lib.System("query", prompts.Context{Language: tc.lang})
			r := decide([]message{msg("system", system), msg("user", tc.message)}, nil)
			var got struct {
				Answer              string   `json:"answer"`
				ClarifyingQuestions []string `json:"clarifying_questions"`
				SearchTerm          string   `json:"search_term"`
			}
			if err := json.Unmarshal([]byte(r.content), &got); err != nil {
				t.Fatalf("%v: %s", err, r.content)
			}
			for _, want := range tc.answerHas {
				if !strings.Contains(got.Answer, want) {
					t.Errorf("answer %q lacks %q", got.Answer, want)
				}
			}
			if (len(got.ClarifyingQuestions) > 0) != tc.clarify || got.SearchTerm != tc.searchTerm {
				t.Errorf("clarifying %v, search term %q; want clarifying %v, %q", got.ClarifyingQuestions, got.SearchTerm, tc.clarify, tc.searchTerm)
			}
		})
	}
	if got := searchTerm("What is the latest Bitcoin price in January 2026?"); !slices.Equal(strings.Fields(got), []string{"latest", "Bitcoin", "price", "January", "2026"}) {
		t.Errorf("searchTerm = %q", got)
	}
}
