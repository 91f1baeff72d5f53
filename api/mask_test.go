package api

import (
	"encoding/json"
	"testing"

	"github.com/lexflow/lexflow/store"
)

func TestMaskArgs(t *testing.T) {
	parties := partyNames([]store.Party{{FirstName: "Ion", LastName: "Popescu", Aliases: []string{"Nelu"}, Address: "Str. Lungă 3, Iași"}})
	var args any
	if err := json.Unmarshal([]byte(`{"updates": {"parties": [{"first_name": "Ion", "role": "chiriaș"}], "facts": "Nelu Popescu a plătit din RO49AAAA1B31007593840000, Str. Lungă 3, Iași"},
		"query": "popescu ion, tel. 0721 234 567", "top_k": 5, "cnp": null}`), &args); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(maskArgs(args, parties))
	want := `{"cnp":null,"query":"[party], tel. [phone]","top_k":5,"updates":{"facts":"[party] [party] a plătit din [iban], [party]","parties":[{"first_name":"[masked]","role":"chiriaș"}]}}`
	if string(got) != want {
		t.Errorf("masked\n%s\nwant\n%s", got, want)
	}
}
