package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestOpenAPIDocumentIsValid31 is the pinned validator's proof: the served document
// loads as OpenAPI 3.1 with the tools' JSON Schema 2020-12 argument schemas in it,
// validates, and those schemas accept a tool's valid arguments and refuse bad ones.
func TestOpenAPIDocumentIsValid31(t *testing.T) {
	srv := newServer(&handlers{}, Routes())
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("GET /v1/openapi.json without a token: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	doc, err := openapi3.NewLoader().LoadFromData(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsOpenAPI31OrLater() || doc.IsOpenAPI32OrLater() {
		t.Fatalf("the document is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the document does not validate: %v", err)
	}
	kb := doc.Components.Schemas["tool.kb_search"]
	if kb == nil || kb.Value.SchemaDialect == "" {
		t.Fatalf("kb_search's schema is missing or lost its $schema: %+v", kb)
	}
	for _, tc := range []struct {
		args  string
		valid bool
	}{
		{`{"query": "responsabilità extracontrattuale", "top_k": 5}`, true},
		{`{"top_k": 5}`, false},                       // query is required
		{`{"query": "x", "top_k": "five"}`, false},    // top_k is an integer
		{`{"query": "x", "drop_table": true}`, false}, // additionalProperties: false
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.args), &v); err != nil {
			t.Fatal(err)
		}
		err := kb.Value.VisitJSON(v, openapi3.EnableJSONSchema2020())
		if (err == nil) != tc.valid {
			t.Errorf("%s: valid = %v, want %v (%v)", tc.args, err == nil, tc.valid, err)
		}
	}
	problem := doc.Components.Schemas[problemSchema].Value.Properties["type"].Value
	if len(problem.Enum) != len(problemTypes()) {
		t.Errorf("the problem schema lists %d types, the API answers %d", len(problem.Enum), len(problemTypes()))
	}
}

// TestOpenAPICoversTheRouteTable: every route of the table is documented, and nothing
// else is.
func TestOpenAPICoversTheRouteTable(t *testing.T) {
	documented := map[string]bool{}
	for key := range operations {
		documented[key] = true
	}
	for _, r := range Routes() {
		key := r.Method + " " + r.Path
		if !documented[key] {
			t.Errorf("route %s has no operation in the OpenAPI document", key)
		}
		delete(documented, key)
	}
	for key := range documented {
		t.Errorf("the OpenAPI document documents %s, which the route table lacks", key)
	}
	doc, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	ops := 0
	for _, item := range doc.Paths.Map() {
		ops += len(item.Operations())
	}
	if ops != len(Routes()) {
		t.Errorf("the document has %d operations, the table %d routes", ops, len(Routes()))
	}
}

// TestOpenAPIRetryContract: the retry classes name routes of the table; the routes
// that take an Idempotency-Key document it, and every rate-limited route documents
// 429 with Retry-After.
func TestOpenAPIRetryContract(t *testing.T) {
	routes := map[string]Route{}
	for _, r := range Routes() {
		routes[r.Method+" "+r.Path] = r
	}
	for key := range retries {
		if _, ok := routes[key]; !ok {
			t.Errorf("retries names %s, which the route table lacks", key)
		}
	}
	doc, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			hasKey := op.Parameters.GetByInAndName("header", "Idempotency-Key") != nil
			if want := op.Extensions["x-lexflow-retry"] == retryWithKey; hasKey != want {
				t.Errorf("%s %s: Idempotency-Key documented %v, retry %v", method, path, hasKey, op.Extensions["x-lexflow-retry"])
			}
			tooMany := op.Responses.Value("429")
			limited := op.Extensions["x-lexflow-auth"] != string(Public) && op.Extensions["x-lexflow-auth"] != string(Webhook) &&
				op.Extensions["x-lexflow-auth"] != string(Codec)
			if limited != (tooMany != nil && tooMany.Value.Headers["Retry-After"] != nil) {
				t.Errorf("%s %s: rate limited %v, but 429 with Retry-After %v", method, path, limited, tooMany != nil)
			}
		}
	}
}
