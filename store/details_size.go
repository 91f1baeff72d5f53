package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// Limits of what update_case_details writes, measured as JSON: a field's new value or
// an entry appended to a log may have MaxDetailsValueBytes, and case_details, without
// the fields the system writes (schemas.SystemFields, bounded by their own limits),
// MaxDetailsBytes. Every read of the case carries its details, and a store refuses a
// document past its own limit (Firestore's is 1 MiB), the workflows' writes with it.
const (
	MaxDetailsValueBytes = 32 << 10
	MaxDetailsBytes      = 256 << 10
)

// ErrDetailsTooLarge means an update would take case_details past its limits.
var ErrDetailsTooLarge = errors.New("case_details too large")

// CheckDetailsSize returns an error wrapping ErrDetailsTooLarge, which says which limit
// and by how much, if updates (from ParseUpdates) applied to details would pass
// MaxDetailsValueBytes or MaxDetailsBytes. Writers at the same moment each check
// against what they read, so together they may pass MaxDetailsBytes by their updates.
func CheckDetailsSize(details map[string]any, updates []FieldUpdate) error {
	for _, u := range updates {
		values := []any{u.Value}
		if u.Append {
			values = u.Value.([]any)
		}
		for _, v := range values {
			if n := jsonSize(v); n > MaxDetailsValueBytes {
				return fmt.Errorf("%w: %s gets a value of %d bytes; a field's value, or an entry of a log, may have at most %d",
					ErrDetailsTooLarge, u.Path, n, MaxDetailsValueBytes)
			}
		}
	}
	after := applied(details, updates)
	for _, f := range schemas.SystemFields {
		delete(after, f)
	}
	if n := jsonSize(after); n > MaxDetailsBytes {
		return fmt.Errorf("%w: case_details would have %d bytes; the tools may write at most %d: replace or shorten fields rather than add to them",
			ErrDetailsTooLarge, n, MaxDetailsBytes)
	}
	return nil
}

// applied is a copy of details with updates applied as a store applies them, sharing
// what they leave unchanged.
func applied(details map[string]any, updates []FieldUpdate) map[string]any {
	out := maps.Clone(details)
	if out == nil {
		out = map[string]any{}
	}
	for _, u := range updates {
		segs := strings.Split(u.Path, ".")
		m := out
		for _, s := range segs[:len(segs)-1] {
			child, _ := m[s].(map[string]any)
			if child = maps.Clone(child); child == nil {
				child = map[string]any{}
			}
			m[s], m = child, child
		}
		last := segs[len(segs)-1]
		if u.Append {
			old, _ := m[last].([]any)
			m[last] = append(slices.Clone(old), u.Value.([]any)...)
			continue
		}
		m[last] = u.Value
	}
	return out
}

// jsonSize is the length of v as JSON; a value that is no JSON counts as nothing, for
// the store to refuse.
func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}
