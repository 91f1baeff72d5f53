package api

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"
	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/tools"
)

// OpenAPI returns the API's OpenAPI 3.1 document, built from the route table and
// operations: every route's path, parameters and who may call it, its request and
// answer bodies (schemas generated from the Go types the handlers use), every error as
// a problem with its types listed, and each tool's argument schema as schemas/tools
// holds it.
func OpenAPI() (*openapi3.T, error) { return openAPIDocument(Routes()) }

// openAPIJSON is the document of table as GET /v1/openapi.json serves it.
func openAPIJSON(table []Route) ([]byte, error) {
	doc, err := openAPIDocument(table)
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// openapi answers GET /v1/openapi.json, the document built once per server.
func (h *handlers) openapi(c echo.Context) error {
	body, err := h.openAPIBody()
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// Names of the document's shared parts.
const (
	problemSchema = "Problem"
	bearerScheme  = "bearer"
	cookieScheme  = "codecCookie"
	toolPrefix    = "tool."
)

func openAPIDocument(table []Route) (*openapi3.T, error) {
	doc := &openapi3.T{
		OpenAPI: "3.1.0",
		Info: &openapi3.Info{Title: "Lexflow API", Version: "1",
			Description: "Lexflow's REST API: cases, chat turns, parties, drafts, citations, support and administration. Errors are application/problem+json (RFC 9457)."},
		Paths: openapi3.NewPaths(),
		Components: &openapi3.Components{
			Schemas: openapi3.Schemas{},
			SecuritySchemes: openapi3.SecuritySchemes{
				bearerScheme: {Value: openapi3.NewJWTSecurityScheme()},
				cookieScheme: {Value: openapi3.NewSecurityScheme().WithType("apiKey").WithIn("cookie").WithName(codecCookie)},
			},
		},
	}
	problem, err := schemaOf(Problem{})
	if err != nil {
		return nil, err
	}
	for _, typ := range slices.Sorted(maps.Keys(problemTypes())) {
		problem.Value.Properties["type"].Value.Enum = append(problem.Value.Properties["type"].Value.Enum, ProblemTypeBase+typ)
	}
	doc.Components.Schemas[problemSchema] = problem
	for _, t := range tools.All() {
		s, err := toolSchema(t)
		if err != nil {
			return nil, err
		}
		doc.Components.Schemas[toolPrefix+t.Name] = s
	}
	for _, r := range table {
		key := r.Method + " " + r.Path
		op, ok := operations[key]
		if !ok {
			return nil, fmt.Errorf("openapi: route %s %s has no operation", r.Method, r.Path)
		}
		o, err := operationOf(r, op, problem.Value)
		if err != nil {
			return nil, fmt.Errorf("openapi: %s %s: %w", r.Method, r.Path, err)
		}
		o.Extensions["x-lexflow-retry"] = cmp.Or(retries[key], retrySafe)
		path, params := openAPIPath(r.Path)
		if o.Extensions["x-lexflow-retry"] == retryWithKey {
			params = append(params, idempotencyKeyParameter())
		}
		o.Parameters = params
		item := doc.Paths.Value(path)
		if item == nil {
			item = &openapi3.PathItem{}
			doc.Paths.Set(path, item)
		}
		item.SetOperation(r.Method, o)
	}
	return doc, nil
}

// operationOf documents one route; its problems refer to the Problem schema, whose
// value the reference carries too, so that the document works unmarshalled as built.
func operationOf(r Route, op operation, problemRef *openapi3.Schema) (*openapi3.Operation, error) {
	o := openapi3.NewOperation()
	o.OperationID, o.Summary = op.id, op.summary
	o.Extensions = map[string]any{"x-lexflow-auth": string(r.Auth)}
	if r.DevOnly {
		o.Extensions["x-dev-only"] = true
	}
	switch r.Auth {
	case User, Support, Admin, Billing:
		o.Security = &openapi3.SecurityRequirements{{bearerScheme: {}}}
	case Codec:
		o.Security = &openapi3.SecurityRequirements{{bearerScheme: {}}, {cookieScheme: {}}}
	}
	if _, ok := op.request.(uploadForm); ok {
		s := openapi3.NewObjectSchema().WithProperty("file", openapi3.NewStringSchema().WithFormat("binary"))
		s.Required = []string{"file"}
		o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithContent(openapi3.NewContentWithFormDataSchema(s))}
	} else if op.request != nil {
		s, err := schemaOf(op.request)
		if err != nil {
			return nil, err
		}
		o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithJSONSchemaRef(s)}
	}
	o.Responses = openapi3.NewResponses()
	for _, resp := range op.responses {
		content := openapi3.Content{}
		switch {
		case resp.media != "":
			content[resp.media] = &openapi3.MediaType{}
		case resp.body != nil:
			s, err := schemaOf(resp.body)
			if err != nil {
				return nil, err
			}
			markRequired(reflect.TypeOf(resp.body), s.Value)
			content[echo.MIMEApplicationJSON] = openapi3.NewMediaType().WithSchemaRef(s)
		}
		status := strconv.Itoa(resp.status)
		if existing := o.Responses.Value(status); existing != nil {
			for k, v := range content {
				existing.Value.Content[k] = v
			}
			continue
		}
		o.Responses.Set(status, &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription(resp.desc).WithContent(content)})
	}
	problem := openapi3.NewSchemaRef("#/components/schemas/"+problemSchema, problemRef)
	problemContent := openapi3.Content{ProblemContentType: openapi3.NewMediaType().WithSchemaRef(problem)}
	o.Responses.Set("default", &openapi3.ResponseRef{Value: openapi3.NewResponse().
		WithDescription("A problem (RFC 9457); its type says which").WithContent(problemContent)})
	if rateLimited(r) {
		retryAfter := &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
			Description: "Seconds until the limit lifts: a request-rate limit refills within a minute, the concurrent-turn limit answers 10, a daily limit names the next UTC day's start",
			Schema:      openapi3.NewIntegerSchema().NewRef()}}}
		resp := openapi3.NewResponse().WithDescription("too-many-requests: a limit is reached; retry after Retry-After").WithContent(problemContent)
		resp.Headers = openapi3.Headers{"Retry-After": retryAfter}
		o.Responses.Set(strconv.Itoa(http.StatusTooManyRequests), &openapi3.ResponseRef{Value: resp})
	}
	return o, nil
}

// rateLimited reports whether limitRequests guards the route: every route behind a
// token but the codec server's, which the Web UI calls once per history event.
func rateLimited(r Route) bool {
	return slices.Contains([]Auth{User, Support, Admin, Billing}, r.Auth)
}

// How a request may be sent again after a timeout or a dropped connection, as each
// operation's x-lexflow-retry says (and the "Retrying" table of docs/api.md).
const (
	// retrySafe: the request changes nothing, or sets a state; again, it answers the
	// same (or, for a state already left, its 409).
	retrySafe = "safe"
	// retryWithKey: safe with the same Idempotency-Key, not without one.
	retryWithKey = "with-idempotency-key"
	// retryUnsafe: each request does its work again; read the state before retrying.
	retryUnsafe = "unsafe"
)

// retries are the operations that are not simply safe to retry.
var retries = map[string]string{
	"POST /v1/cases":                    retryWithKey,
	"POST /v1/cases/:id/messages":       retryWithKey,
	"POST /v1/cases/:id/parties":        retryUnsafe,
	"POST /v1/cases/:id/checkout":       retryUnsafe,
	"POST /v1/support/cases/:id/resume": retryUnsafe,
	"POST /v1/admin/tools/execute":      retryUnsafe,
	"POST /pay/:session":                retryUnsafe,
}

// idempotencyKeyParameter is the Idempotency-Key header, as idempotencyKey checks it.
func idempotencyKeyParameter() *openapi3.ParameterRef {
	s := openapi3.NewStringSchema().WithMaxLength(maxIdempotencyKey).WithPattern(`^[ -~]*$`)
	return &openapi3.ParameterRef{Value: openapi3.NewHeaderParameter("Idempotency-Key").WithSchema(s).WithDescription(
		"Makes a retry safe: at most 255 printable ASCII characters. For POST /v1/cases it is scoped to the caller (organization and subject) and kept for good: the same key answers the same case. For POST /v1/cases/{id}/messages it is scoped to the caller and the case and kept for 24 hours: a repeat answers the earlier turn's result.")}
}

// openAPIPath turns an Echo path into an OpenAPI one, with its parameters: ":id" is
// {id}, a trailing "*" {path}.
func openAPIPath(p string) (string, openapi3.Parameters) {
	var params openapi3.Parameters
	segments := strings.Split(p, "/")
	for i, s := range segments {
		name := ""
		switch {
		case strings.HasPrefix(s, ":"):
			name = s[1:]
		case s == "*":
			name = "path"
		default:
			continue
		}
		segments[i] = "{" + name + "}"
		params = append(params, &openapi3.ParameterRef{Value: openapi3.NewPathParameter(name).WithSchema(openapi3.NewStringSchema())})
	}
	return strings.Join(segments, "/"), params
}

// rawJSON is any JSON value.
var rawJSON = reflect.TypeOf(json.RawMessage{})

// schemaOf generates the schema of a Go value's JSON. Raw JSON and interface values
// may be any JSON value.
func schemaOf(v any) (*openapi3.SchemaRef, error) {
	return openapi3gen.NewSchemaRefForValue(v, nil, openapi3gen.SchemaCustomizer(
		func(_ string, t reflect.Type, _ reflect.StructTag, s *openapi3.Schema) error {
			if t == rawJSON || t.Kind() == reflect.Interface {
				*s = openapi3.Schema{}
			}
			return nil
		}))
}

// markRequired lists as required, in an answer's schema s of Go type t and in those of
// its fields, every field encoding/json always writes: those without omitempty or
// omitzero. (A request's fields are left optional: which ones a handler needs is its
// own business, and its 422 says so.)
func markRequired(t reflect.Type, s *openapi3.Schema) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || t == rawJSON {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if s.Items != nil {
			markRequired(t.Elem(), s.Items.Value)
		}
	case reflect.Map:
		if s.AdditionalProperties.Schema != nil {
			markRequired(t.Elem(), s.AdditionalProperties.Schema.Value)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			tag, hasTag := f.Tag.Lookup("json")
			name, opts, _ := strings.Cut(tag, ",")
			switch {
			case !f.IsExported() || name == "-":
				continue
			case f.Anonymous && !hasTag:
				markRequired(f.Type, s) // flattened into s
				continue
			case name == "":
				name = f.Name
			}
			prop := s.Properties[name]
			if prop == nil {
				continue
			}
			if !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") && !slices.Contains(s.Required, name) {
				s.Required = append(s.Required, name)
			}
			markRequired(f.Type, prop.Value)
		}
	}
}

// toolSchema is a tool's argument schema as schemas/tools holds it.
func toolSchema(t *tools.Tool) (*openapi3.SchemaRef, error) {
	raw, err := json.Marshal(t.JSONSchema)
	if err != nil {
		return nil, err
	}
	s := openapi3.NewSchema()
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("tool %s's schema: %w", t.Name, err)
	}
	return openapi3.NewSchemaRef("", s), nil
}
