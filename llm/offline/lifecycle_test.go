package offline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/prompts"
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

func TestAdvise(t *testing.T) {
	var a struct {
		Action   string         `json:"action"`
		Args     map[string]any `json:"args"`
		Question string         `json:"question"`
	}
	req := "Tool: normattiva_search\nArguments: {\"act_type\":\"codice civile\",\"article\":\"2043\"}\nError: upstream answered 503"
	if err := json.Unmarshal([]byte(advise(req, "it")), &a); err != nil || a.Action != "retry" || a.Args["article"] != "2043" {
		t.Fatalf("advice on a transient failure = %+v, %v", a, err)
	}
	a.Args = nil
	req = "Tool: get_party_id_by_name\nArguments: {\"mentioned_name\":\"Ion\"}\nError: Party not found"
	if err := json.Unmarshal([]byte(advise(req, "ro")), &a); err != nil || a.Action != "ask_user" || !strings.Contains(a.Question, "get_party_id_by_name") {
		t.Fatalf("advice on a data failure = %+v, %v", a, err)
	}
}

func TestDraftCall(t *testing.T) {
	args, ok := draftCall("draft: Cerere_chemare_judecata rev 2\n# Cerere\nReclamant: {{party0.lastName}}")
	if !ok || args["draft_name"] != "Cerere_chemare_judecata" || args["revision"] != 2 || !strings.HasPrefix(args["markdown_content"].(string), "# Cerere") {
		t.Fatalf("draftCall = %v, %v", args, ok)
	}
	if args, ok := draftCall("proiect: Notificare\nText"); !ok || args["revision"] != 1 {
		t.Fatalf("draftCall without revision = %v, %v", args, ok)
	}
	if _, ok := draftCall("draft: no body"); ok {
		t.Fatal("a draft without Markdown was read as a call")
	}
}
