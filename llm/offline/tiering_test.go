package offline

import (
	"encoding/json"
	"testing"

	"github.com/lexflow/lexflow/internal/prompts"
)

func TestClassifyReadsTheTierDefinitions(t *testing.T) {
	lib, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang, description string
		tier              int
		question          bool
	}{
		{"en", "My landlord kept my deposit after I moved out", 2, false},
		{"en", "I have a question about a lease I want to sign next month", 1, false},
		{"ro", "Societatea mea este în insolvență și acționarii vor să depună plângere penală", 3, false},
		{"ro", "Vreau o consultanță despre o notificare primită de la vecin", 1, false},
		{"it", "Sono stato licenziato e voglio fare causa al datore di lavoro", 2, false},
		{"it", "Aiuto", 0, true},
		{"it", "Aiuto\n\nDecide now", 1, false},
		{"en", "Something happened to me yesterday evening at home", 1, false},
	} {
		system := lib.System("tiering", prompts.Context{Language: tc.lang})
		var got struct {
			Tier          int    `json:"tier"`
			Justification string `json:"justification"`
			Question      string `json:"question"`
		}
		if err := json.Unmarshal([]byte(classify(system, tc.description, tc.lang)), &got); err != nil {
			t.Fatal(err)
		}
		if got.Tier != tc.tier || (got.Question != "") != tc.question {
			t.Errorf("%s %q → %+v, want tier %d (question %v)", tc.lang, tc.description, got, tc.tier, tc.question)
		}
		if got.Tier > 0 && got.Justification == "" {
			t.Errorf("%q: no justification", tc.description)
		}
	}
}
