package api

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestReadmeListsEveryProblem holds the README's error table to problemKinds: every
// problem type the API answers is listed with its status, and nothing else is.
func TestReadmeListsEveryProblem(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for _, m := range problemRow.FindAllSubmatch(readme, -1) {
		status, _ := strconv.Atoi(string(m[2]))
		listed[string(m[1])] = status
	}
	for _, k := range problemKinds {
		status, ok := listed[k.typ]
		switch {
		case !ok:
			t.Errorf("README's error table lacks %s (%d)", k.typ, k.status)
		case status != k.status:
			t.Errorf("README lists %s as %d; the API answers %d", k.typ, status, k.status)
		}
		delete(listed, k.typ)
	}
	for typ := range listed {
		t.Errorf("README lists %s, which the API never answers", typ)
	}
}

// problemRow is a row of the README's error table: "| `type` | status | when |".
var problemRow = regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| (\\d{3}) \\|")
