package offline

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

func TestProposeFacts(t *testing.T) {
	msg := "Summary: A deposit kept.\nFacts:\n- I live in Cluj (a fact, not a message).\n" + schemas.MemoryClientHeading +
		"\n- Hello. I run a bakery in Cluj. The landlord kept my deposit!\n- My daughter studies law? Thanks.\n"
	var got struct{ Facts []string }
	if err := json.Unmarshal([]byte(proposeFacts(msg, "en")), &got); err != nil {
		t.Fatal(err)
	}
	want := []string{"The client said: «I run a bakery in Cluj.»", "The client said: «My daughter studies law?»"}
	if !slices.Equal(got.Facts, want) {
		t.Errorf("proposeFacts = %q, want %q", got.Facts, want)
	}
	if got := proposeFacts("Summary: x\n"+schemas.MemoryClientHeading+"\n- Ce termen am?\n- Sunt profesoară la Iași.", "ro"); got != `{"facts":["Clientul a spus: «Sunt profesoară la Iași.»"]}` {
		t.Errorf("Romanian = %s", got)
	}
	if got := proposeFacts("Summary: x\n"+schemas.MemoryClientHeading+"\n- What can I do?", "it"); got != `{"facts":[]}` {
		t.Errorf("nothing to remember = %s", got)
	}
}
