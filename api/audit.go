package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// Audit actions; those that carry authority over a case are schemas.Action*.
const (
	auditState         = "case.state.read"
	auditTickets       = "case.tickets.read"
	auditTranscript    = "case.transcript.read"
	auditEvents        = "case.events.read"
	auditSubscription  = "subscription.put"
	auditPromptsReload = "prompts.reload"
	auditHoldSet       = "case.hold.set"
	auditHoldLift      = "case.hold.lift"
	auditToolRun       = "tool.execute"
	auditTenantTexts   = "tenant.queries.erase"
	auditContext       = "case.context.read"
	// auditToolContext flags a chat that carried an admin's decrypted context, for
	// compliance review (seed 004); the entry holds its size, never its text.
	auditToolContext = "chat.tool_context"
	// auditDisclosure records an organization's AI disclosure on drafts being set.
	auditDisclosure = "disclosure.put"
)

// audit records a staff action on organization org's case caseID (either may be
// empty) before the action is done: an action that cannot be audited is not done.
func (h *handlers) audit(c echo.Context, action, org, caseID string, detail map[string]any) error {
	_, err := h.auditID(c, action, org, caseID, detail)
	return err
}

// auditID is audit, returning the entry's ID.
func (h *handlers) auditID(c echo.Context, action, org, caseID string, detail map[string]any) (string, error) {
	who := identity(c)
	e := store.AuditEntry{ID: uuid.NewString(), At: time.Now().UTC(), Actor: who.Subject, ActorOrg: who.Org, Roles: who.Roles,
		Action: action, OrgID: org, CaseID: caseID, Detail: detail}
	if err := h.Store.RecordAudit(c.Request().Context(), e); err != nil {
		// The store's reason goes to the log only: it may quote the entry.
		return "", fmt.Errorf("%w: %w", problemf(errAuditFailed, action+" was not done: the audit log did not take its entry (the API's log says why)"), err)
	}
	return e.ID, nil
}

// Audit list bounds.
const (
	defaultAuditLimit = 100
	maxAuditLimit     = 1000
)

// AuditList answers GET /v1/admin/audit.
type AuditList struct {
	Entries []store.AuditEntry `json:"entries"`
}

// listAudit answers GET /v1/admin/audit: the audit log, newest first, filtered by
// ?org=, ?case= and ?before= (RFC 3339), at most ?limit= entries (100 unless said,
// 1000 at most). An admin of an organization reads only their organization's entries.
func (h *handlers) listAudit(c echo.Context) error {
	f := store.AuditFilter{OrgID: c.QueryParam("org"), CaseID: c.QueryParam("case")}
	if who := identity(c); who.Org != "" {
		if f.OrgID != "" && f.OrgID != who.Org {
			return problemf(errForbidden, "an organization's admin reads only the organization's audit log")
		}
		f.OrgID = who.Org
	}
	if s := c.QueryParam("before"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return problemf(errInvalidInput, "before is an RFC 3339 time, such as 2026-11-22T10:00:00Z")
		}
		f.Before = t
	}
	var err error
	if f.Limit, err = pageLimit(c, defaultAuditLimit, maxAuditLimit); err != nil {
		return err
	}
	entries, err := h.Store.ListAudit(c.Request().Context(), f)
	if err != nil {
		return fmt.Errorf("%w: read the audit log: %w", errUnavailable, err)
	}
	if entries == nil {
		entries = []store.AuditEntry{}
	}
	return c.JSON(http.StatusOK, AuditList{Entries: entries})
}
