package store

import (
	"errors"
	"testing"
)

func TestParseUpdates(t *testing.T) {
	got, err := ParseUpdates(map[string]any{
		"summary.current":            "new",
		"facts":                      []any{map[string]any{"fact": "x"}},
		"legal_research.legislation": []any{"a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []FieldUpdate{
		{Path: "facts", Value: []any{map[string]any{"fact": "x"}}, Append: true},
		{Path: "legal_research.legislation", Value: []any{"a"}},
		{Path: "summary.current", Value: "new"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d updates, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Path != want[i].Path || got[i].Append != want[i].Append {
			t.Errorf("update %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestParseUpdatesRejects(t *testing.T) {
	for name, updates := range map[string]map[string]any{
		"empty":              {},
		"dollar":             {"$where": 1},
		"empty segment":      {"summary..current": "x"},
		"leading dot":        {".summary": "x"},
		"space":              {"sum mary": "x"},
		"overlap":            {"summary": map[string]any{}, "summary.current": "x"},
		"too deep":           {"a.b.c.d.e.f.g.h.i": 1},
		"append not a list":  {"facts": "a fact"},
		"nested append path": {"agent_interactions.log": map[string]any{"x": 1}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseUpdates(updates); !errors.Is(err, ErrInvalidField) {
				t.Fatalf("ParseUpdates(%v) = %v, want ErrInvalidField", updates, err)
			}
		})
	}
}
