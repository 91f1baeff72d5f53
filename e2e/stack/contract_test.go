package stack

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestContractCatchesBrokenAnswers: the check every suite's request goes through fails
// an answer whose body breaks its schema, whose status the operation does not
// document, or a problem of a type the API does not have.
func TestContractCatchesBrokenAnswers(t *testing.T) {
	json := http.Header{"Content-Type": {"application/json"}}
	problem := http.Header{"Content-Type": {"application/problem+json"}}
	for _, tc := range []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		ok                 bool
	}{
		{"a citation report", "POST", "/v1/citations/check", 200, json, `{"citations": [{"text": "art. 1 c.c.", "kind": "article", "status": "verified", "verified": true}]}`, true},
		{"a field of the wrong type", "POST", "/v1/citations/check", 200, json, `{"citations": [{"text": 1}]}`, false},
		{"a field always written, missing", "POST", "/v1/citations/check", 200, json, `{"citations": [{"text": "art. 1 c.c.", "kind": "article", "status": "verified"}]}`, false},
		{"a 429 with its problem", "POST", "/v1/query", 429, problem, `{"type": "https://lexflow.dev/problems/too-many-requests", "title": "A limit is reached", "status": 429}`, true},
		{"a status the operation lacks", "POST", "/v1/citations/check", 201, json, `{"citations": []}`, false},
		{"a known problem", "GET", "/v1/cases/x", 404, problem, `{"type": "https://lexflow.dev/problems/not-found", "title": "Not found", "status": 404}`, true},
		{"an unknown problem type", "GET", "/v1/cases/x", 404, problem, `{"type": "https://lexflow.dev/problems/oops", "title": "Oops", "status": 404}`, false},
		{"a problem on a path the API lacks", "GET", "/v1/nothing", 404, problem, `{"type": "https://lexflow.dev/problems/not-found", "title": "Not found", "status": 404}`, true},
		{"JSON that is no problem on a path the API lacks", "GET", "/v1/nothing", 200, json, `{}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://127.0.0.1:8080"+tc.path, nil)
			err := checkContract(req, tc.status, tc.header, []byte(tc.body))
			if (err == nil) != tc.ok {
				t.Errorf("checkContract = %v, want ok %v", err, tc.ok)
			}
		})
	}
}
