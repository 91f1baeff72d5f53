package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestGeminiParameters checks the rewrite at every depth a schema nests (properties,
// items, anyOf), and that the registry's schema it is given stays as it was: the same
// map is offered to every provider.
func TestGeminiParameters(t *testing.T) {
	in := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"kind":  map[string]any{"anyOf": []any{map[string]any{"const": "lege"}, map[string]any{"const": "cod"}}},
			"years": map[string]any{"type": "array", "items": map[string]any{"type": "integer", "exclusiveMinimum": 1989, "minimum": 1990}},
			"mode":  map[string]any{"type": "string", "const": "a", "enum": []any{"a"}},
		},
		"required": []any{"kind"},
	}
	before, _ := json.Marshal(in)
	got := geminiParameters(in)
	want := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"kind":  map[string]any{"anyOf": []any{map[string]any{"enum": []any{"lege"}}, map[string]any{"enum": []any{"cod"}}}},
			"years": map[string]any{"type": "array", "items": map[string]any{"type": "integer", "minimum": 1990}},
			"mode":  map[string]any{"type": "string", "enum": []any{"a"}},
		},
		"required": []any{"kind"},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("rewritten\n%s\nwant\n%s", g, w)
	}
	if after, _ := json.Marshal(in); string(after) != string(before) {
		t.Errorf("the given schema changed:\n%s\nwas\n%s", after, before)
	}
}
