package api

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestDocListsEveryProblem holds docs/api.md's error table to problemTypes: every
// problem type the API answers is listed with its status, and nothing else is.
func TestDocListsEveryProblem(t *testing.T) {
	doc, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, m := range problemRow.FindAllSubmatch(doc, -1) {
		listed[string(m[1])] = string(m[2])
	}
	for typ, status := range problemTypes() {
		want := strconv.Itoa(status)
		if status == 0 {
			want = "4xx"
		}
		got, ok := listed[typ]
		switch {
		case !ok:
			t.Errorf("docs/api.md's error table lacks %s (%s)", typ, want)
		case got != want:
			t.Errorf("docs/api.md lists %s as %s; the API answers %s", typ, got, want)
		}
		delete(listed, typ)
	}
	for typ := range listed {
		t.Errorf("docs/api.md lists %s, which the API never answers", typ)
	}
}

// problemRow is a row of docs/api.md's error table: "| `type` | status | when |".
var problemRow = regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| (\\d{3}|\\dxx) \\|")
