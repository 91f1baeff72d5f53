package firestore

import (
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/store"
)

// applyUpdates applies parsed update_case_details entries to details in place, as
// MongoDB's $set and $push would: a replaced field's missing parents are made, and a
// log missing is started. A path through something that is not an object, or an
// append to something that is not a list, is store.ErrInvalidField.
func applyUpdates(details map[string]any, fields []store.FieldUpdate) error {
	for _, f := range fields {
		segs := strings.Split(f.Path, ".")
		parent := details
		for _, seg := range segs[:len(segs)-1] {
			next, ok := parent[seg]
			if !ok {
				m := map[string]any{}
				parent[seg] = m
				parent = m
				continue
			}
			if parent, ok = next.(map[string]any); !ok {
				return fmt.Errorf("%w: %q goes through %q, which is not an object", store.ErrInvalidField, f.Path, seg)
			}
		}
		last := segs[len(segs)-1]
		if !f.Append {
			parent[last] = f.Value
			continue
		}
		old, ok := parent[last]
		if !ok || old == nil {
			old = []any{}
		}
		list, ok := old.([]any)
		if !ok {
			return fmt.Errorf("%w: %q is not a list to append to", store.ErrInvalidField, f.Path)
		}
		parent[last] = append(list, f.Value.([]any)...)
	}
	return nil
}
