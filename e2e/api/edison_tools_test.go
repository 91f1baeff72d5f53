package api_test

import (
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestWebSearchMaxResults: web_search honours Edison's max_results through the tool
// run route: one result asked, one result answered and shown (the stack's SearXNG
// answers two), and a count outside 1–10 refused as invalid arguments.
func TestWebSearchMaxResults(t *testing.T) {
	t.Parallel()
	admin := s.Mint(t, auth.Identity{Subject: "edison-web-admin", Org: "acme", Roles: []string{schemas.RoleAdmin}})
	r := runTool(t, admin, map[string]any{"tool": "web_search", "args": map[string]any{"query": "diritto all'oblio", "max_results": 1}})
	results, _ := r.Body["result"].(map[string]any)["results"].([]any)
	if r.Body["status"] != schemas.ToolOK || len(results) != 1 || r.Body["args"].(map[string]any)["max_results"] != float64(1) {
		t.Fatalf("max_results 1: %s", r.Raw)
	}
	r = runTool(t, admin, map[string]any{"tool": "web_search", "args": map[string]any{"query": "diritto all'oblio"}})
	if results, _ := r.Body["result"].(map[string]any)["results"].([]any); len(results) != 2 || r.Body["args"].(map[string]any)["max_results"] != float64(5) {
		t.Errorf("no max_results: %s", r.Raw)
	}
	bad := s.Call(t, "POST", "/v1/admin/tools/execute", admin, map[string]any{"tool": "web_search", "args": map[string]any{"query": "x", "max_results": 11}})
	stack.WantProblem(t, bad, 422, "invalid-input")
}
