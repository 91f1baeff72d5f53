package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/store"
)

// refusingAudit is a store whose audit log refuses every entry, as FerretDB refused
// dotted keys.
type refusingAudit struct{ store.Store }

func (refusingAudit) RecordAudit(context.Context, store.AuditEntry) error {
	return errors.New(`write exception: invalid key: "summary.current"`)
}

// TestAttackAuditFailureIsItsOwnProblem (issue 36, finding 19): an action whose audit
// entry the store refuses is answered 500 audit-failed, naming the action, and not a
// 503 that says a service is down; the store's reason, which may quote the entry,
// stays in the log.
func TestAttackAuditFailureIsItsOwnProblem(t *testing.T) {
	h := &handlers{Store: refusingAudit{}}
	c := echo.New().NewContext(httptest.NewRequest(http.MethodPost, "/v1/admin/tools/execute", nil), httptest.NewRecorder())
	c.Set(identityKey, auth.Identity{Subject: "root", Roles: []string{"admin"}, Operator: true})
	err := h.audit(c, auditToolRun, "acme", "", map[string]any{"args": map[string]any{"summary.current": "[masked]"}})
	p := toProblem(err)
	if p.Status != http.StatusInternalServerError || p.Type != ProblemTypeBase+"audit-failed" || !strings.Contains(p.Detail, auditToolRun) {
		t.Errorf("problem = %+v, want 500 audit-failed naming %s", p, auditToolRun)
	}
	if strings.Contains(p.Detail, "summary.current") {
		t.Errorf("the detail quotes the store's reason: %q", p.Detail)
	}
}
