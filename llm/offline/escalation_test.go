package offline

import (
	"encoding/json"
	"strings"
	"testing"
)

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
