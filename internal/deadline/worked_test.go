package deadline

import (
	"slices"
	"strings"
	"testing"
)

// worked is a worked example: a term, the day it ends, the days stepped over (first
// day of each), the rules applied (by ID, in order), and where the example comes
// from.
type worked struct {
	source  string
	req     Request
	due     string
	skipped []string
	rules   []string
}

// check computes each example and compares everything it states.
func check(t *testing.T, examples []worked) {
	t.Helper()
	for _, ex := range examples {
		name := ex.req.From + "+" + strings.Join([]string{ex.req.Direction, ex.req.Unit, ex.req.Code}, "/")
		t.Run(name, func(t *testing.T) {
			a, err := Compute(ex.req)
			if err != nil {
				t.Fatalf("%s: %v", ex.source, err)
			}
			var skipped, rules []string
			for _, s := range a.NonWorking {
				skipped = append(skipped, s.Date)
			}
			for _, r := range a.Rules {
				rules = append(rules, r.ID)
				if r.Article == "" || r.Detail == "" {
					t.Errorf("rule %s without its article or detail", r.ID)
				}
			}
			if a.Due != ex.due || !slices.Equal(skipped, ex.skipped) || !slices.Equal(rules, ex.rules) {
				t.Errorf("%s\n got due %s, skipped %v, rules %v\nwant due %s, skipped %v, rules %v",
					ex.source, a.Due, skipped, rules, ex.due, ex.skipped, ex.rules)
			}
		})
	}
}

// ptr is a pointer to v, for the optional suspension.
func ptr[T any](v T) *T { return &v }
