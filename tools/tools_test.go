package tools

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// TestEveryToolIsRegistered checks the registry against the tools the seeds name.
func TestEveryToolIsRegistered(t *testing.T) {
	want := []string{"web_search", "normattiva_search", "eurlex_search", "infolex_search", "kb_search", "legislation_search", "lex_search",
		"lex_search_enriched", "legal_sql", "get_party_id_by_name", "generate_draft_pdf", "check_quota",
		"get_case_details", "update_case_details", "create_support_ticket", "consult_reasoner", "list_documents", "read_document",
		"read_legal_text", "compute_deadline", "propose_deadline",
		"generate_image", "rag_search", "system_stats"}
	for _, name := range want {
		tool, ok := Get(name)
		if !ok {
			t.Errorf("%s is not registered", name)
			continue
		}
		if tool.Description == "" || tool.Schema == nil || tool.Format == nil || tool.Policy.Timeout == 0 || len(tool.Roles) == 0 {
			t.Errorf("%s lacks a description, schema, formatter, policy or roles", name)
		}
	}
	if len(All()) != len(want) {
		t.Errorf("registry has %d tools, want %d", len(All()), len(want))
	}
}

// TestStructsAgreeWithSchemas checks each tool's argument struct against its schema:
// the same argument names, and required arguments present in the struct. Fields tagged
// tool:"-" are the workflow's, not the model's.
func TestStructsAgreeWithSchemas(t *testing.T) {
	for _, tool := range All() {
		v, err := tool.decode([]byte(`{}`))
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		typ := reflect.TypeOf(v)
		var fields []string
		for i := range typ.NumField() {
			if typ.Field(i).Tag.Get("tool") == "-" {
				continue // set by the workflow, never by the model
			}
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			fields = append(fields, name)
		}
		props := sortedKeys(tool.Schema.Properties)
		slices.Sort(fields)
		if !slices.Equal(fields, props) {
			t.Errorf("%s: struct fields %v, schema properties %v", tool.Name, fields, props)
		}
	}
}

func TestPolicies(t *testing.T) {
	for name, want := range map[string]struct {
		timeout  string
		attempts int32
	}{
		"web_search": {"30s", 1}, "normattiva_search": {"30s", 1}, "eurlex_search": {"30s", 1}, "infolex_search": {"30s", 1},
		"kb_search": {"20s", 2}, "lex_search": {"15s", 2}, "lex_search_enriched": {"30s", 2},
		"get_case_details": {"10s", 3}, "update_case_details": {"10s", 3},
	} {
		tool, _ := Get(name)
		opts := tool.Policy.Options()
		if opts.StartToCloseTimeout.String() != want.timeout || opts.RetryPolicy.MaximumAttempts != want.attempts {
			t.Errorf("%s: %v, %d attempts; want %s, %d", name, opts.StartToCloseTimeout, opts.RetryPolicy.MaximumAttempts, want.timeout, want.attempts)
		}
		if !slices.Contains(opts.RetryPolicy.NonRetryableErrorTypes, schemas.ErrInvalidArgs) {
			t.Errorf("%s retries invalid arguments", name)
		}
	}
	if kb, _ := Get("kb_search"); kb.Policy.RetryInterval.String() != "1s" {
		t.Errorf("kb_search retries after %v, want 1s", kb.Policy.RetryInterval)
	}
}

func TestPolicyLongest(t *testing.T) {
	for _, tc := range []struct {
		p    Policy
		want string
	}{
		{lexeNoRetry, "30s"},
		// 10 s, 1 s, 10 s, 2 s, 10 s.
		{caseToolPolicy, "33s"},
		{Policy{Timeout: time.Second}, "1s"},
	} {
		if got := tc.p.Longest().String(); got != tc.want {
			t.Errorf("%+v: Longest = %s, want %s", tc.p, got, tc.want)
		}
	}
}

func TestToggleDefaults(t *testing.T) {
	for toggle, on := range map[string]bool{
		"web_search_enabled": false, "normattiva_enabled": true, "eurlex_enabled": true, "infolex_enabled": true,
		"kb_search_enabled": true, "lex_search_enabled": true, "lex_search_enriched_enabled": false,
		"legislation_search_enabled": true,
	} {
		found := false
		for _, tool := range All() {
			if tool.Toggle == toggle {
				found = true
				if tool.DefaultOn != on {
					t.Errorf("%s defaults to %v, want %v", toggle, tool.DefaultOn, on)
				}
			}
		}
		if !found {
			t.Errorf("no tool has toggle %s", toggle)
		}
	}
}

func validate(t *testing.T, tool, args string) (Result, error) {
	t.Helper()
	tl, ok := Get(tool)
	if !ok {
		t.Fatalf("no tool %s", tool)
	}
	return tl.Schema.Validate([]byte(args))
}

func TestValidateNormalizes(t *testing.T) {
	res, err := validate(t, "kb_search", `{"query": "danno biologico", "colour": "blue"}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Args["top_k"] != int64(5) {
		t.Errorf("top_k = %#v, want the default 5", res.Args["top_k"])
	}
	if _, ok := res.Args["colour"]; ok || !slices.Equal(res.Dropped, []string{"colour"}) {
		t.Errorf("unknown argument: args %v, dropped %v", res.Args, res.Dropped)
	}
	res, err = validate(t, "infolex_search", `{"act_type": "codice civile", "article": "2043"}`)
	if err != nil || res.Args["include_massime"] != true {
		t.Errorf("include_massime default: %v, %v", res.Args, err)
	}
	res, err = validate(t, "check_quota", `{"tier": 2, "organization_id": null}`)
	if err != nil || res.Args["tier"] != int64(2) {
		t.Errorf("check_quota: %v, %v", res.Args, err)
	}
	if _, ok := res.Args["organization_id"]; !ok {
		t.Errorf("explicit null organization_id dropped: %v", res.Args)
	}
}

func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct{ tool, args, want string }{
		{"kb_search", `{}`, `missing required argument "query"`},
		{"kb_search", `{"query": "x", "top_k": true}`, `argument "top_k" must be integer, got a boolean`},
		{"kb_search", `{"query": "x", "top_k": "5"}`, `argument "top_k" must be integer, got a string`},
		{"kb_search", `{"query": "x", "top_k": 2.5}`, `argument "top_k" must be integer, got a number`},
		{"kb_search", `{"query": 7}`, `argument "query" must be string, got an integer`},
		{"eurlex_search", `{"act_type": "legge", "year": 2016, "number": 679}`, `argument "act_type" must be one of`},
		{"check_quota", `{"tier": 4}`, `argument "tier" must be one of 1, 2, 3, got 4`},
		{"kb_search", `{"query": "appeal", "jurisdiction": "ro' OR 1=1 --"}`, `argument "jurisdiction" must be one of`},
		{"update_case_details", `{"updates": {}}`, `argument "updates" needs at least 1 entries`},
		{"kb_search", `["query"]`, `arguments must be a JSON object, got an array`},
		{"kb_search", `{"query": "x"`, `arguments are not valid JSON`},
		{"kb_search", `{"query": "x"} {}`, `data after the JSON object`},
	} {
		_, err := validate(t, tc.tool, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: error %v, want %q", tc.tool, tc.args, err, tc.want)
		}
	}
	// Every problem is named at once.
	_, err := validate(t, "eurlex_search", `{"year": "2016"}`)
	for _, want := range []string{`"act_type"`, `"number"`, `"year" must be integer`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %s", err, want)
		}
	}
}

func TestIntegerIsANumber(t *testing.T) {
	s := &Schema{Type: typeList{"object"}, Properties: map[string]*Schema{"scale": {Type: typeList{"number"}}}}
	res, err := s.Validate([]byte(`{"scale": 3}`))
	if err != nil || res.Args["scale"] != float64(3) {
		t.Fatalf("integer for a number: %v, %v", res.Args, err)
	}
}

// FuzzValidate feeds arbitrary arguments to every tool's schema: validation never
// panics, and what it accepts, re-validated, is accepted unchanged.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{`{}`, `{"query":"x","top_k":3}`, `{"updates":{"a.b":[1,{"c":null}]}}`,
		`{"act_type":"regolamento","year":2016,"number":679}`, `{"tier":1e400}`, `[]`, `null`, `{"a":`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		for _, tool := range All() {
			res, err := tool.Schema.Validate([]byte(args))
			if err != nil {
				continue
			}
			again, err := tool.Schema.Validate(mustJSON(t, res.Args))
			if err != nil {
				t.Fatalf("%s: accepted %s, then refused its own normalization: %v", tool.Name, args, err)
			}
			if !reflect.DeepEqual(again.Args, res.Args) {
				t.Fatalf("%s: normalization not stable: %v then %v", tool.Name, res.Args, again.Args)
			}
		}
	})
}

// TestDocTable checks that docs/tools.md lists the registry as it is.
func TestDocTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := Table(); !strings.Contains(string(doc), want) {
		t.Errorf("docs/tools.md's tool table is out of date; it should read:\n\n%s", want)
	}
}

// TestDefinitionIsWhatTheModelSees checks a tool's definition against its schema file:
// the file's description, and its parameters without $schema, title and description.
func TestDefinitionIsWhatTheModelSees(t *testing.T) {
	for _, tool := range All() {
		d := tool.Definition()
		if d.Name != tool.Name || d.Description == "" || d.Description != tool.JSONSchema["description"] {
			t.Errorf("%s: definition %q, %q", tool.Name, d.Name, d.Description)
		}
		for _, k := range []string{"$schema", "title", "description"} {
			if _, ok := d.Parameters[k]; ok {
				t.Errorf("%s: the parameters carry %s", tool.Name, k)
			}
		}
		if d.Parameters["type"] != "object" || d.Parameters["properties"] == nil {
			t.Errorf("%s: parameters %v", tool.Name, d.Parameters)
		}
		if _, ok := tool.JSONSchema["title"]; !ok {
			t.Errorf("%s: the schema file lost its title to the definition", tool.Name)
		}
	}
}
