// Package memory makes what Lexflow remembers about a user readable by a model: the
// facts the user kept across cases, each written in clear for the user, pseudonymized
// again with the parties of the case it came from before any model reads it.
package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/internal/pseudonym"
)

// Fact is a kept fact: its text, in clear, and the case it came from.
type Fact struct {
	CaseID string
	Text   string
}

// Parties reads a case's parties as pseudonymizing reads them; none for a case that
// is gone.
type Parties func(ctx context.Context, caseID string) ([]pseudonym.Party, error)

// ForModel returns the texts of facts, in their order, as a model may read them. Each
// fact is pseudonymized with the parties of the case it came from, and the
// placeholders and markers of each such case are renamed {{memN.…}} (N counting the
// cases in the order their first fact comes), so that the parties of another case are
// never read as the current case's {{partyN.…}}, nor two cases' parties as one. A case
// that is gone (erased) leaves its facts with the personal data found by its form
// marked.
func ForModel(ctx context.Context, facts []Fact, parties Parties) ([]string, error) {
	var order []string
	byCase := map[string][]int{}
	for i, f := range facts {
		if _, ok := byCase[f.CaseID]; !ok {
			order = append(order, f.CaseID)
		}
		byCase[f.CaseID] = append(byCase[f.CaseID], i)
	}
	out := make([]string, len(facts))
	for n, caseID := range order {
		ps, err := parties(ctx, caseID)
		if err != nil {
			return nil, err
		}
		idx := byCase[caseID]
		pages := make([]string, len(idx))
		for i, j := range idx {
			pages[i] = facts[j].Text
		}
		if pages, err = pseudonym.Pages(ctx, pages, ps); err != nil {
			return nil, fmt.Errorf("pseudonymize memory facts: %w", err)
		}
		prefix := fmt.Sprintf("{{mem%d.", n+1)
		for i, j := range idx {
			out[j] = strings.ReplaceAll(pages[i], "{{", prefix)
		}
	}
	return out, nil
}
