package store

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// AppendFields are the case_details fields that are logs: a list written to one of them
// is appended, never replacing what is there. Any other field is replaced.
var AppendFields = []string{"facts", "documents", "internal_notes", "agent_interactions.log", "support_log"}

// FieldUpdate is one parsed update_case_details entry.
type FieldUpdate struct {
	// Path is the dot path inside case_details, e.g. "summary.current".
	Path string
	// Value replaces the field, or, when Append is set, holds the items to append.
	Value any
	// Append is set when Path is one of AppendFields.
	Append bool
}

var segment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// maxDepth bounds how deep a dot path may reach into case_details.
const maxDepth = 8

// ParseUpdates checks update_case_details' updates and returns them sorted by path.
// Paths are dot-separated identifiers; no path may be a prefix of another, since the
// result would depend on order; none may write schemas.LastUpdatedField, which the
// store sets. A value for an append field must be a list. Errors wrap
// ErrInvalidField and name the offending path.
func ParseUpdates(updates map[string]any) ([]FieldUpdate, error) {
	if len(updates) == 0 {
		return nil, fmt.Errorf("%w: updates is empty", ErrInvalidField)
	}
	paths := make([]string, 0, len(updates))
	for p := range updates {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := make([]FieldUpdate, 0, len(paths))
	for i, p := range paths {
		segs := strings.Split(p, ".")
		if len(segs) > maxDepth {
			return nil, fmt.Errorf("%w: %q is deeper than %d levels", ErrInvalidField, p, maxDepth)
		}
		for _, s := range segs {
			if !segment.MatchString(s) {
				return nil, fmt.Errorf("%w: %q is not a dot path of identifiers", ErrInvalidField, p)
			}
		}
		if segs[0] == schemas.LastUpdatedField {
			return nil, fmt.Errorf("%w: %q is set by the store on every write, never by its callers", ErrInvalidField, p)
		}
		if i > 0 && strings.HasPrefix(p, paths[i-1]+".") {
			return nil, fmt.Errorf("%w: %q and %q overlap", ErrInvalidField, paths[i-1], p)
		}
		u := FieldUpdate{Path: p, Value: updates[p], Append: slices.Contains(AppendFields, p)}
		if u.Append {
			items, ok := u.Value.([]any)
			if !ok {
				return nil, fmt.Errorf("%w: %q is a log, so its value must be a list of entries to append", ErrInvalidField, p)
			}
			u.Value = items
		}
		out = append(out, u)
	}
	return out, nil
}
