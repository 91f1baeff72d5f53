package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// tokenUseData is one model call's cost as stored, under its ID.
type tokenUseData struct {
	Tenant string    `firestore:"tenant"`
	CaseID string    `firestore:"case_id"`
	Day    string    `firestore:"day"`
	Tokens int64     `firestore:"tokens"`
	At     time.Time `firestore:"at"`
}

// counterData is the day's token counter of a tenant, or of a tenant's case.
type counterData struct {
	Tokens int64 `firestore:"tokens"`
}

// budgetData is a tenant's budget as stored, under the tenant's key.
type budgetData struct {
	TokensPerDay     int64     `firestore:"tokens_per_day"`
	CaseTokensPerDay int64     `firestore:"case_tokens_per_day"`
	SetBy            string    `firestore:"set_by"`
	UpdatedAt        time.Time `firestore:"updated_at"`
}

// tokenCounter is the ID of the day's token counter of a tenant's case, or of the
// tenant for no case, kept beside the uses ("#" starts no use's ID).
func tokenCounter(tenant, caseID, day string) string { return "#" + day + "/" + tenant + "/" + caseID }

// RecordTokens stores u and adds its tokens to the day's counters of its tenant and of
// its case (if it has one), in one transaction: a use stored is counted, and a use found stored is
// not counted again.
func (s *Store) RecordTokens(ctx context.Context, u store.TokenUse) error {
	use := s.doc(TokenUseCollection, u.ID)
	counters := []*fs.DocumentRef{s.doc(TokenUseCollection, tokenCounter(u.Tenant, "", u.Day))}
	if u.CaseID != "" {
		counters = append(counters, s.doc(TokenUseCollection, tokenCounter(u.Tenant, u.CaseID, u.Day)))
	}
	defer s.lock(counters[0])() // the tenant's counter: every use of the tenant writes it
	err := s.client.RunTransaction(ctx, func(ctx context.Context, tx *fs.Transaction) error {
		snaps, err := tx.GetAll(append([]*fs.DocumentRef{use}, counters...))
		if err != nil {
			return err
		}
		if snaps[0].Exists() {
			return nil
		}
		for i, ref := range counters {
			var c counterData
			if snaps[i+1].Exists() {
				if err := snaps[i+1].DataTo(&c); err != nil {
					return err
				}
			}
			c.Tokens += u.Tokens
			if err := tx.Set(ref, c); err != nil {
				return err
			}
		}
		return tx.Create(use, tokenUseData{Tenant: u.Tenant, CaseID: u.CaseID, Day: u.Day, Tokens: u.Tokens, At: u.At.UTC()})
	})
	if err != nil {
		return fmt.Errorf("record token use: %w", err)
	}
	return nil
}

// TokensUsed reads the day's counters of the case and its tenant: for no case, the
// tenant's alone (Firestore refuses to read one document twice in a call).
func (s *Store) TokensUsed(ctx context.Context, tenant, caseID, day string) (store.TokensUsed, error) {
	refs := []*fs.DocumentRef{s.doc(TokenUseCollection, tokenCounter(tenant, "", day))}
	if caseID != "" {
		refs = append(refs, s.doc(TokenUseCollection, tokenCounter(tenant, caseID, day)))
	}
	snaps, err := s.client.GetAll(ctx, refs)
	if err != nil {
		return store.TokensUsed{}, fmt.Errorf("read token use: %w", err)
	}
	counts := make([]int64, len(snaps))
	for i, snap := range snaps {
		var c counterData
		if snap.Exists() {
			if err := snap.DataTo(&c); err != nil {
				return store.TokensUsed{}, fmt.Errorf("decode token use: %w", err)
			}
		}
		counts[i] = c.Tokens
	}
	return store.TokensUsed{Tenant: counts[0], Case: counts[len(counts)-1]}, nil
}

// DeploymentTokens sums the day's uses of every tenant (an aggregation query; the
// counters carry no day). A counter of the deployment, which every model call would
// write, would bound the deployment to the writes a second one document takes.
func (s *Store) DeploymentTokens(ctx context.Context, day string) (int64, error) {
	q := s.client.Collection(TokenUseCollection).Where("day", "==", day)
	res, err := q.NewAggregationQuery().WithSum("tokens", "tokens").Get(ctx)
	if err != nil {
		return 0, fmt.Errorf("sum token use: %w", err)
	}
	return aggregateInt(res["tokens"])
}

// GetBudget returns a tenant's budget, or store.ErrNotFound.
func (s *Store) GetBudget(ctx context.Context, tenant string) (store.Budget, error) {
	d, err := read[budgetData](ctx, nil, s.doc(BudgetsCollection, tenant), "budget of "+tenant)
	if err != nil {
		return store.Budget{}, err
	}
	return store.Budget{Tenant: tenant, TokensPerDay: d.TokensPerDay, CaseTokensPerDay: d.CaseTokensPerDay,
		SetBy: d.SetBy, UpdatedAt: d.UpdatedAt}, nil
}

// PutBudget replaces a tenant's budget.
func (s *Store) PutBudget(ctx context.Context, b store.Budget) error {
	d := budgetData{TokensPerDay: b.TokensPerDay, CaseTokensPerDay: b.CaseTokensPerDay, SetBy: b.SetBy, UpdatedAt: b.UpdatedAt.UTC()}
	if _, err := s.doc(BudgetsCollection, b.Tenant).Set(ctx, d); err != nil {
		return fmt.Errorf("put budget: %w", err)
	}
	return nil
}
