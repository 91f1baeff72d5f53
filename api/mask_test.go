package api

import (
	"encoding/json"
	"testing"

	"github.com/lexflow/lexflow/store"
)

func TestMaskArgs(t *testing.T) {
	parties := partyNames([]store.Party{{FirstName: "Ion", LastName: "Popescu", Aliases: []string{"Nelu"}, Address: "Str. Lungă 3, Iași"}})
	var args any
	if err := json.Unmarshal([]byte(`{"updates": {"parties": [{"first_name": "Ion", "role": "chiriaș"}], "summary.current": "Maria Vasilescu datorează", "urgent": true},
		"query": "popescu ion din Str. Lunga 3, Iasi, RO49AAAA1B31007593840000, tel. 0721 234 567", "top_k": 5, "cnp": null,
		"client.cnp": "1800101221145", "opponent_phone_number": "021 000", "mentioned_name": "Maria", "id_number": 1800101221144}`), &args); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(maskArgs(args, parties))
	want := `{"client.cnp":"[masked]","cnp":null,"id_number":"[masked]","mentioned_name":"[masked]","opponent_phone_number":"[masked]",` +
		`"query":"[party] din [party], [iban], tel. [phone]","top_k":5,` +
		`"updates":{"parties":[{"first_name":"[masked]","role":"[masked]"}],"summary.current":"[masked]","urgent":true}}`
	if string(got) != want {
		t.Errorf("masked\n%s\nwant\n%s", got, want)
	}
}
