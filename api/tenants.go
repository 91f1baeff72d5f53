package api

import (
	"context"
	"errors"
	"fmt"
	"strings"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// tenantClause is the visibility condition of a tenant's cases: its Tenant key, or,
// for runs from before cases set Tenant, the bare TenantID, which an organization
// shares with a user of the same name (see ownsListed).
func tenantClause(org, subject string) string {
	raw := org
	if raw == "" {
		raw = subject
	}
	return fmt.Sprintf("(Tenant = '%s' OR (Tenant IS NULL AND TenantID = '%s'))",
		quoteVisibility(schemas.TenantKey(org, subject)), quoteVisibility(raw))
}

// quoteVisibility escapes a value for a single-quoted string of a visibility query,
// whose parser takes a backslash as an escape and a doubled quote as a quote.
func quoteVisibility(s string) string {
	return strings.NewReplacer(`\`, `\\`, "'", "''").Replace(s)
}

// ownsListed reports whether a case that tenantClause listed is the tenant's: by its
// Tenant key, or, for a run without one, by its owner in the store.
func (h *handlers) ownsListed(ctx context.Context, sa *commonpb.SearchAttributes, caseID, org, subject string) (bool, error) {
	if key := keyword(sa, schemas.SATenant.GetName()); key != "" {
		return key == schemas.TenantKey(org, subject), nil
	}
	owner, sub, err := h.Store.CaseOwner(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return owner == org && (org != "" || sub == subject), nil
}
