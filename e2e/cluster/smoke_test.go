package cluster_test

import (
	"net/http"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestClusterSmoke runs one turn on the cluster with two workers and two APIs: the
// case opened through one API, the turn sent through the other.
func TestClusterSmoke(t *testing.T) {
	start(t, "worker-1", "worker")
	start(t, "worker-2", "worker")
	a1, a2 := start(t, "api-1", "api"), start(t, "api-2", "api")
	user := token(t, "sam", "smoke", schemas.RoleUser)
	id := openCase(t, a1.url, user, "smoke")
	turn := must(t, http.StatusOK, a2.url, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": "show me the case details"})
	if turn.body["turn_id"] != turnID(id, 1) {
		t.Fatalf("turn = %s", turn.raw)
	}
	if got := userRecords(t, a1.url, user, id); got[1] != 1 {
		t.Errorf("user records by turn = %v, want turn 1's once", got)
	}
}
