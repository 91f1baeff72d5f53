// Package sealed wraps a store.Store so that what clients wrote reaches the database
// encrypted: a case's description, case_details and hold reason, its transcript,
// parties, tickets, event log, its deadlines' titles and references and its court
// hearings' results under the case's data key, and a user's memory and e-mail
// addresses under the user's. IDs, owners, times, statuses and numbers the store
// queries by stay in clear. Values written before sealing existed read as they are.
package sealed

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// prefix marks a sealed string: a value's JSON, sealed, in base64.
const prefix = "lxe1:"

// encoding is the base64 of sealed strings.
var encoding = base64.RawStdEncoding

// cutPrefix returns a sealed string's base64, and whether it is sealed.
func cutPrefix(v string) (string, bool) { return strings.CutPrefix(v, prefix) }

// Store is a store.Store that seals what clients wrote with Keys.
type Store struct {
	store.Store
	Keys *keys.Keyring
}

var _ store.Store = (*Store)(nil)

// New returns st sealed with the keys of kr.
func New(st store.Store, kr *keys.Keyring) *Store { return &Store{Store: st, Keys: kr} }

// caseKey is the key that seals a case's data, made if need be.
func (s *Store) caseKey(ctx context.Context, caseID string) (*keys.Key, error) {
	return s.Keys.Ensure(ctx, keys.CaseKeyID(caseID))
}

// opener opens sealed values under one data key, which it reads from the keyring only
// when a sealed value needs it: reading data stored before sealing makes no key, and
// reads nothing of a destroyed one.
type opener struct {
	ctx  context.Context
	keys *keys.Keyring
	id   string
	key  *keys.Key
}

// opener returns an opener of what the key named id sealed.
func (s *Store) opener(ctx context.Context, id string) *opener {
	return &opener{ctx: ctx, keys: s.Keys, id: id}
}

// openerOf returns an opener with the key k in hand.
func openerOf(k *keys.Key) *opener { return &opener{key: k, id: k.ID} }

// open opens bytes that sealBytes sealed.
func (o *opener) open(sealed []byte) ([]byte, error) {
	if o.key == nil {
		k, err := o.keys.Key(o.ctx, o.id)
		if err != nil {
			return nil, err
		}
		o.key = k
	}
	return o.key.Open(sealed, []byte(o.key.ID))
}

// sealBytes seals raw bytes as a prefixed string.
func sealBytes(k *keys.Key, raw []byte) string {
	return prefix + encoding.EncodeToString(k.Seal(raw, []byte(k.ID)))
}

// openBytes opens what sealBytes returned, and says whether v was sealed at all.
func openBytes(o *opener, v string) ([]byte, bool, error) {
	b64, ok := cutPrefix(v)
	if !ok {
		return nil, false, nil
	}
	sealed, err := encoding.DecodeString(b64)
	if err != nil {
		return nil, true, fmt.Errorf("sealed value: %w", err)
	}
	raw, err := o.open(sealed)
	return raw, true, err
}

// sealString seals a string; an empty one stays empty.
func sealString(k *keys.Key, v string) string {
	if v == "" {
		return ""
	}
	return sealJSON(k, v)
}

// sealJSON seals any JSON value as a prefixed string.
func sealJSON(k *keys.Key, v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		raw, _ = json.Marshal(fmt.Sprint(v)) // values reach the store as JSON anyway
	}
	return sealBytes(k, raw)
}

// openString opens what sealString returned; a string that is not sealed is returned
// as it is.
func openString(o *opener, v string) (string, error) {
	x, err := openJSON(o, v)
	if err != nil {
		return "", err
	}
	s, ok := x.(string)
	if !ok {
		return "", fmt.Errorf("sealed value is a %T, not a string", x)
	}
	return s, nil
}

// openJSON opens a sealed value; a string that is not sealed is returned as it is.
func openJSON(o *opener, v string) (any, error) {
	raw, sealed, err := openBytes(o, v)
	if !sealed || err != nil {
		return v, err
	}
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return nil, fmt.Errorf("sealed value: %w", err)
	}
	return x, nil
}

// field is a key that may stay in clear inside a sealed tree: an identifier, like the
// dot paths of case_details. A map with any other key (a name, say) is sealed whole.
var field = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// sealTree seals every leaf of a JSON-like value, keeping maps of identifiers and
// lists as they are, so that dot-path updates and appends still reach into it.
func sealTree(k *keys.Key, v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for name, x := range v {
			if !field.MatchString(name) {
				return sealJSON(k, v)
			}
			out[name] = sealTree(k, x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = sealTree(k, x)
		}
		return out
	default:
		return sealJSON(k, v)
	}
}

// openTree opens what sealTree returned.
func openTree(o *opener, v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for name, x := range v {
			y, err := openTree(o, x)
			if err != nil {
				return nil, err
			}
			out[name] = y
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			y, err := openTree(o, x)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	case string:
		return openJSON(o, v)
	default:
		return v, nil
	}
}

// sealMap seals a map's values with sealTree; nil stays nil.
func sealMap(k *keys.Key, m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return sealTree(k, m).(map[string]any)
}

// openMap opens what sealMap returned.
func openMap(o *opener, m map[string]any) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	x, err := openTree(o, m)
	if err != nil {
		return nil, err
	}
	out, ok := x.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("sealed map opened as a %T", x)
	}
	return out, nil
}
