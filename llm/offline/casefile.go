package offline

import (
	"encoding/json"
	"fmt"
	"strings"
)

// caseFile reads get_case_details' text as the model is shown it (tools' case-file
// shaping): a "case_details:" line, then a "field: JSON" line per field, the facts
// perhaps as "facts (the latest K of N): JSON". It returns the current summary ("—"
// for none) and how many facts the case holds; ok is false for another text.
func caseFile(text string) (summary string, facts int, ok bool) {
	lines := strings.Split(text, "\n")
	if lines[0] != "case_details:" {
		return "", 0, false
	}
	summary = "—"
	for _, l := range lines[1:] {
		key, value, found := strings.Cut(l, ": ")
		if !found {
			continue
		}
		switch {
		case key == "summary":
			var s struct {
				Current string `json:"current"`
			}
			if json.Unmarshal([]byte(value), &s) == nil && s.Current != "" {
				summary = s.Current
			}
		case key == "facts":
			var fs []any
			_ = json.Unmarshal([]byte(value), &fs)
			facts = len(fs)
		case strings.HasPrefix(key, "facts (the latest "):
			var kept int
			_, _ = fmt.Sscanf(key, "facts (the latest %d of %d)", &kept, &facts)
		}
	}
	return summary, facts, true
}
