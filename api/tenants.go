package api

import (
	"context"
	"errors"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// ownsListed reports whether a case that schemas.TenantClause listed is the tenant's: by its
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
