package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// AuditEntry is one staff action: who did what to which tenant's case, and when.
type AuditEntry struct {
	// ID makes recording idempotent: the same ID is stored once.
	ID string    `json:"id"`
	At time.Time `json:"at"`
	// Actor is the staff member's subject, ActorOrg their organization ("" for the
	// operator's own staff), Roles the roles their token held.
	Actor    string   `json:"actor"`
	ActorOrg string   `json:"actor_org,omitempty"`
	Roles    []string `json:"roles"`
	// Action names what was done, such as "case.resume" or "payment.offline".
	Action string `json:"action"`
	// OrgID is the tenant acted on, CaseID the case, if any.
	OrgID  string `json:"org_id,omitempty"`
	CaseID string `json:"case_id,omitempty"`
	// Detail is what the action was done with, such as a tool run's masked
	// arguments. Its keys are anyone's (a dotted field path, a "$"), so the stores
	// keep it as one JSON text (DetailJSON), never as a document of their own whose
	// keys they would have to accept.
	Detail map[string]any `json:"detail,omitempty"`
}

// DetailJSON is e's Detail as the stores keep it: a JSON text, "" for none.
func (e AuditEntry) DetailJSON() (string, error) {
	if e.Detail == nil {
		return "", nil
	}
	raw, err := json.Marshal(e.Detail)
	if err != nil {
		return "", fmt.Errorf("audit entry %s: detail: %w", e.ID, err)
	}
	return string(raw), nil
}

// DetailFromJSON reads a Detail that DetailJSON wrote; "" is none.
func DetailFromJSON(s string) (map[string]any, error) {
	if s == "" {
		return nil, nil
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		return nil, fmt.Errorf("audit entry detail: %w", err)
	}
	return d, nil
}

// AuditFilter selects audit entries: those of an organization or a case (empty means
// any) recorded before a time (zero means now), at most Limit of them.
type AuditFilter struct {
	OrgID  string
	CaseID string
	Before time.Time
	Limit  int
}

// Audit is the audit log of staff actions. Entries are never changed or removed.
type Audit interface {
	// RecordAudit stores e unless an entry with its ID exists.
	RecordAudit(ctx context.Context, e AuditEntry) error
	// GetAudit returns the entry with the ID id, or ErrNotFound.
	GetAudit(ctx context.Context, id string) (AuditEntry, error)
	// ListAudit returns the entries f selects, newest first.
	ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
}
