package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Schema is the subset of JSON Schema that tool arguments use: an object of typed
// properties, with required names, defaults, enums and nested objects and arrays.
type Schema struct {
	Type        typeList           `json:"type"`
	Description string             `json:"description,omitempty"`
	Properties  map[string]*Schema `json:"properties,omitempty"`
	Required    []string           `json:"required,omitempty"`
	Default     any                `json:"default,omitempty"`
	Enum        []any              `json:"enum,omitempty"`
	Items       *Schema            `json:"items,omitempty"`
	// MinProperties bounds an object's size from below.
	MinProperties int `json:"minProperties,omitempty"`
	// Minimum and Maximum bound a number or an integer, both inclusive.
	Minimum *float64 `json:"minimum,omitempty"`
	Maximum *float64 `json:"maximum,omitempty"`
}

// typeList is a schema's "type": one name, or a list such as ["string", "null"].
type typeList []string

func (t *typeList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*t = typeList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("type must be a string or a list of strings")
	}
	*t = many
	return nil
}

// Result is a validated call: its arguments with defaults injected and unknown
// arguments removed, and the names of those removed.
type Result struct {
	Args    map[string]any
	Dropped []string
}

// Validate checks a tool call's JSON arguments against the schema with the rules of the
// structured tool loop (seed 001): the arguments must be a JSON object; every required
// argument must be present; types are strict (no bool→int or string→number coercion;
// an integer is accepted where a number is expected); defaults are injected; unknown
// arguments are dropped and reported. Errors name every offending argument.
func (s *Schema) Validate(raw []byte) (Result, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Result{}, fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if dec.More() {
		return Result{}, fmt.Errorf("arguments have data after the JSON object")
	}
	args, ok := v.(map[string]any)
	if !ok {
		return Result{}, fmt.Errorf("arguments must be a JSON object, got %s", kind(v))
	}
	var errs []string
	res := Result{Args: map[string]any{}}
	out, dropped := s.object("", args, &errs)
	res.Args, res.Dropped = out, dropped
	if len(errs) > 0 {
		return res, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return res, nil
}

// object validates an object against s's properties; path prefixes names in errors.
func (s *Schema) object(path string, in map[string]any, errs *[]string) (map[string]any, []string) {
	out := map[string]any{}
	var dropped []string
	for _, name := range sortedKeys(in) {
		p, ok := s.Properties[name]
		if !ok {
			dropped = append(dropped, path+name)
			continue
		}
		if v, ok := p.value(path+name, in[name], errs); ok {
			out[name] = v
		}
	}
	for _, name := range s.Required {
		if _, ok := in[name]; !ok {
			*errs = append(*errs, fmt.Sprintf("missing required argument %q", path+name))
		}
	}
	for _, name := range sortedKeys(s.Properties) {
		if _, ok := out[name]; !ok && s.Properties[name].Default != nil {
			if _, given := in[name]; !given {
				out[name] = s.Properties[name].Default
			}
		}
	}
	if len(out) < s.MinProperties {
		*errs = append(*errs, fmt.Sprintf("%s needs at least %d entries", orArgs(path), s.MinProperties))
	}
	return out, dropped
}

// value checks one value and returns it in plain Go form: json.Number becomes int64
// for integers and float64 for numbers.
func (s *Schema) value(name string, v any, errs *[]string) (any, bool) {
	fail := func(format string, args ...any) (any, bool) {
		*errs = append(*errs, fmt.Sprintf("argument %q ", name)+fmt.Sprintf(format, args...))
		return nil, false
	}
	var out any
	matched := len(s.Type) == 0
	for _, t := range s.Type {
		if x, ok := convert(t, v); ok {
			out, matched = x, true
			break
		}
	}
	if !matched {
		return fail("must be %s, got %s", strings.Join(s.Type, " or "), kind(v))
	}
	if len(s.Type) == 0 {
		out = plain(v)
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return equal(e, out) }) {
		return fail("must be one of %s, got %s", enumText(s.Enum), short(out))
	}
	if n, ok := number(out); ok {
		switch {
		case s.Minimum != nil && n < *s.Minimum:
			return fail("must be at least %s, got %s", strconv.FormatFloat(*s.Minimum, 'g', -1, 64), short(out))
		case s.Maximum != nil && n > *s.Maximum:
			return fail("must be at most %s, got %s", strconv.FormatFloat(*s.Maximum, 'g', -1, 64), short(out))
		}
	}
	switch x := out.(type) {
	case map[string]any:
		if s.Properties != nil {
			obj, _ := s.object(name+".", x, errs)
			return obj, true
		}
		if len(x) < s.MinProperties {
			return fail("needs at least %d entries", s.MinProperties)
		}
	case []any:
		if s.Items != nil {
			for i, item := range x {
				conv, ok := s.Items.value(fmt.Sprintf("%s[%d]", name, i), item, errs)
				if !ok {
					return nil, false
				}
				x[i] = conv
			}
		}
	}
	return out, true
}

// convert returns v as JSON Schema type t, if it is one, without coercion.
func convert(t string, v any) (any, bool) {
	switch t {
	case "string":
		s, ok := v.(string)
		return s, ok
	case "boolean":
		b, ok := v.(bool)
		return b, ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return nil, false
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		return i, err == nil
	case "number":
		n, ok := v.(json.Number)
		if !ok {
			return nil, false
		}
		f, err := n.Float64()
		return f, err == nil
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		return plain(m), true
	case "array":
		a, ok := v.([]any)
		if !ok {
			return nil, false
		}
		return plain(a), true
	case "null":
		return nil, v == nil
	}
	return nil, false
}

// plain replaces json.Number inside v with int64 or float64.
func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = plain(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = plain(e)
		}
		return a
	}
	return v
}

// number is a validated integer or number as a float64, for its bounds.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// equal compares an enum entry, decoded from the schema file, with a validated value.
func equal(enum, v any) bool {
	switch e := enum.(type) {
	case float64:
		switch x := v.(type) {
		case int64:
			return float64(x) == e
		case float64:
			return x == e
		}
		return false
	}
	return enum == v
}

func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return "an integer"
		}
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

func enumText(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = short(e)
	}
	return strings.Join(parts, ", ")
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

func orArgs(path string) string {
	if path == "" {
		return "arguments"
	}
	return fmt.Sprintf("argument %q", strings.TrimSuffix(path, "."))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
