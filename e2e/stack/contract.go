package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/lexflow/lexflow/api"
)

// contractRouter finds a request's operation in the API's OpenAPI document.
var contractRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := api.OpenAPI()
	if err != nil {
		return nil, err
	}
	return legacy.NewRouter(doc)
})

// checkContract holds an answer of the stack's API to its OpenAPI document: its status
// must be one the operation documents, or a problem, which every operation may answer;
// a JSON body must match the documented schema; a path or method the document lacks
// must answer a problem. Streams, PDFs and web pages are documented by media type and
// not read.
func checkContract(req *http.Request, status int, header http.Header, body []byte) error {
	media, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if media != "application/json" && media != api.ProblemContentType {
		return nil
	}
	router, err := contractRouter()
	if err != nil {
		return err
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		// A path or method the API lacks: its answer must still be a problem.
		doc, derr := api.OpenAPI()
		if derr != nil {
			return derr
		}
		var v any
		if jerr := json.Unmarshal(body, &v); jerr != nil || media != api.ProblemContentType {
			return fmt.Errorf("%s %s, which the OpenAPI document lacks (%w), answered %s, not a problem", req.Method, req.URL.Path, err, media)
		}
		if verr := doc.Components.Schemas["Problem"].Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); verr != nil {
			return fmt.Errorf("%s %s answered a problem against the OpenAPI document: %w", req.Method, req.URL.Path, verr)
		}
		return nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s answered %d against the OpenAPI document: %w\n%.600s", req.Method, req.URL.Path, status, err, body)
	}
	return nil
}
