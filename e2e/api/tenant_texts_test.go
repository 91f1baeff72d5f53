package api_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/schemas"
)

// TestAttackTenantTexts (issue 36, finding 13): a citation check's text is sealed
// under its tenant's key, not the system key: the firm's own support desk opens it,
// another firm's desk does not; the firm's admin erases the tenant's checks (its other
// users may not), and their histories are gone.
func TestAttackTenantTexts(t *testing.T) {
	t.Parallel()
	const canary = "Octavian Canaru-Query"
	org := "texts-" + uuid.NewString()[:8]
	tenant := schemas.TenantKey(org, "")
	// Staff with no organization are the operator's.
	mint := func(sub, org, role string) string {
		return s.Mint(t, auth.Identity{Subject: sub, Org: org, Roles: []string{role}, Operator: org == "" && role != schemas.RoleUser})
	}
	asker := mint("asker", org, schemas.RoleUser)
	if r := s.Call(t, "POST", "/v1/citations/check", asker, map[string]any{"text": canary + " invokes art. 2043 c.c.", "language": "it"}); r.Status != http.StatusOK {
		t.Fatalf("check: %d %s", r.Status, r.Raw)
	}
	id := tenantRun(t, tenant, true)
	if !strings.HasPrefix(id, schemas.CitationCheckWorkflowID(tenant, "")) {
		t.Errorf("the check runs as %s", id)
	}
	iter := s.TC.GetWorkflowHistory(t.Context(), id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	ev, err := iter.Next()
	if err != nil {
		t.Fatal(err)
	}
	in := ev.GetWorkflowExecutionStartedEventAttributes().GetInput()
	if len(in.GetPayloads()) == 0 || codec.KeyOf(in.Payloads[0]) != keys.TenantKeyID(tenant) {
		t.Fatalf("the check's input is sealed under %q, want the tenant's key", codec.KeyOf(in.GetPayloads()[0]))
	}
	raw, err := protojson.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for who, want := range map[string]bool{"the firm's desk": true, "the operator's desk": true, "another firm's desk": false} {
		desk := map[string]string{"the firm's desk": org, "the operator's desk": "", "another firm's desk": "globex"}[who]
		open, holds := decoded(t, s.Call(t, "POST", "/codec/decode", mint("desk", desk, schemas.RoleSupport), string(raw)), canary)
		if open[0] != want || holds != want {
			t.Errorf("%s: opened %v, holds the text %v; want %v", who, open[0], holds, want)
		}
	}

	stack.WantProblem(t, s.Call(t, "DELETE", "/v1/me/queries", asker, nil), http.StatusForbidden, "forbidden")
	r := s.Call(t, "DELETE", "/v1/me/queries", mint("boss", org, schemas.RoleAdmin), nil)
	if r.Status != http.StatusOK || r.Body["erased"] != float64(1) || r.Body["tenant"] != tenant {
		t.Fatalf("erase: %d %s; want one check erased", r.Status, r.Raw)
	}
	deadline := time.Now().Add(150 * time.Second)
	for {
		_, err := s.TC.DescribeWorkflowExecution(t.Context(), id, "")
		var notFound *serviceerror.NotFound
		if errors.As(err, &notFound) {
			break
		}
		if time.Now().After(deadline) {
			d, _ := s.TC.DescribeWorkflowExecution(t.Context(), id, "")
			t.Fatalf("the erased check's workflow is still there: %v %v", err, d)
		}
		time.Sleep(100 * time.Millisecond) // Temporal deletes a history in the background
	}
}

// tenantRun is the workflow ID of tenant's only query or citation check, once
// Temporal's visibility lists it (closed, when closed is true).
func tenantRun(t *testing.T, tenant string, closed bool) string {
	t.Helper()
	query := fmt.Sprintf("Tenant = '%s' AND WorkflowType = '%s'", tenant, schemas.CitationCheckWorkflow)
	if closed {
		query += " AND ExecutionStatus != 'Running'"
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := s.TC.ListWorkflow(t.Context(), &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(resp.GetExecutions()); n == 1 {
			return resp.Executions[0].GetExecution().GetWorkflowId()
		} else if n > 1 {
			t.Fatalf("%d runs of tenant %s", n, tenant)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no run of tenant %s is listed", tenant)
		}
		time.Sleep(100 * time.Millisecond) // visibility lists a run a moment after it changes
	}
}
