package memory

import (
	"context"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/pseudonym"
)

func TestForModel(t *testing.T) {
	parties := map[string][]pseudonym.Party{
		"a": {{ID: "party0", FirstName: "Ion", LastName: "Popescu"}},
		"b": {{ID: "party0", FirstName: "Maria", LastName: "Ionescu"}},
	}
	facts := []Fact{
		{CaseID: "a", Text: "Rents a flat from Ion Popescu in Cluj."},
		{CaseID: "b", Text: "Works for Maria Ionescu, phone 0722 123 456."},
		{CaseID: "gone", Text: "Their e-mail is ana@example.ro."},
		{CaseID: "a", Text: "Ion Popescu kept their deposit."},
	}
	got, err := ForModel(t.Context(), facts, func(_ context.Context, caseID string) ([]pseudonym.Party, error) {
		return parties[caseID], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Rents a flat from {{mem1.party0.fullName}} in Cluj.",
		"Works for {{mem2.party0.fullName}}, phone {{mem2.doc.phone.1}}.",
		"Their e-mail is {{mem3.doc.email.1}}.",
		"{{mem1.party0.fullName}} kept their deposit.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ForModel =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
