package store

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckDetailsSize: values and log entries are measured one by one, the details
// as the updates leave them (nested paths and appends included), the system's fields
// left out.
func TestCheckDetailsSize(t *testing.T) {
	big := strings.Repeat("x", MaxDetailsValueBytes)
	details := map[string]any{"summary": map[string]any{"current": big}, "draft_status": map[string]any{"d": strings.Repeat("s", MaxDetailsBytes)}}
	for _, tc := range []struct {
		name    string
		updates map[string]any
		want    string
	}{
		{"a value at the limit", map[string]any{"summary.initial": big[2:]}, ""},
		{"a value past it", map[string]any{"summary.initial": big}, "summary.initial gets a value of"},
		{"a log entry past it", map[string]any{"agent_interactions.log": []any{"a", big}}, "agent_interactions.log gets a value of"},
		{"entries that fill the details", map[string]any{"facts": []any{big[2:], big[2:], big[2:], big[2:], big[2:], big[2:]}}, ""},
		{"one entry more", map[string]any{"facts": []any{big[2:], big[2:], big[2:], big[2:], big[2:], big[2:], big[2:]}}, "case_details would have"},
		{"a replaced value counts once", map[string]any{"summary.current": big[2:], "facts": []any{big[2:], big[2:], big[2:], big[2:], big[2:], big[2:]}}, ""},
	} {
		fields, err := ParseUpdates(tc.updates)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckDetailsSize(details, fields)
		if tc.want == "" && err != nil || tc.want != "" && (!errors.Is(err, ErrDetailsTooLarge) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	if len(details) != 2 || len(details["summary"].(map[string]any)) != 1 {
		t.Errorf("the check changed the details: %d fields", len(details))
	}
}
