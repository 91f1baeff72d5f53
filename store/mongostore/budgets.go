package mongostore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// tokenUseDoc is one model call's cost as stored.
type tokenUseDoc struct {
	ID     string    `bson:"_id"`
	Tenant string    `bson:"tenant"`
	CaseID string    `bson:"case_id"`
	Day    string    `bson:"day"`
	Tokens int64     `bson:"tokens"`
	At     time.Time `bson:"at"`
	// Pending are the counters the use is still to be added to.
	Pending []string `bson:"pending,omitempty"`
}

// budgetDoc is a tenant's budget as stored, under the tenant's key.
type budgetDoc struct {
	Tenant           string    `bson:"_id"`
	TokensPerDay     int64     `bson:"tokens_per_day"`
	CaseTokensPerDay int64     `bson:"case_tokens_per_day"`
	SetBy            string    `bson:"set_by"`
	UpdatedAt        time.Time `bson:"updated_at"`
}

// RecordTokens inserts u unless a use with its ID exists, and adds its tokens to the
// day's counters of its tenant, of its case (if it has one) and of the deployment,
// which TokensUsed and DeploymentTokens read by _id (FerretDB narrows no other query). The use lists the counters still to add it to, and drops
// each once added: recording it again finishes what an earlier attempt left, so a use
// is counted at least once, and twice in a counter only when an attempt stopped
// between adding to that counter and dropping it.
func (s *Store) RecordTokens(ctx context.Context, u store.TokenUse) error {
	counters := []string{tokenCounter(u.Tenant, "", u.Day), deploymentCounter(u.Day)}
	if u.CaseID != "" {
		counters = append(counters, tokenCounter(u.Tenant, u.CaseID, u.Day))
	}
	d := tokenUseDoc{ID: u.ID, Tenant: u.Tenant, CaseID: u.CaseID, Day: u.Day, Tokens: u.Tokens, At: u.At.UTC(), Pending: counters}
	defer s.lock("tokens:" + u.Tenant)() // the pending counters are read and dropped under it
	_, err := s.tokenUse.InsertOne(ctx, d)
	if mongo.IsDuplicateKeyError(err) {
		err = s.tokenUse.FindOne(ctx, bson.M{"_id": u.ID}).Decode(&d)
	}
	if err != nil {
		return fmt.Errorf("record token use: %w", err)
	}
	for _, key := range d.Pending {
		_, err := s.tokenUse.UpdateOne(ctx, bson.M{"_id": key}, bson.M{"$inc": bson.M{"tokens": d.Tokens}}, options.UpdateOne().SetUpsert(true))
		if err == nil {
			_, err = s.tokenUse.UpdateOne(ctx, bson.M{"_id": u.ID}, bson.M{"$pull": bson.M{"pending": key}})
		}
		if err != nil {
			return fmt.Errorf("count token use: %w", err)
		}
	}
	return nil
}

// tokenCounter is the _id of the day's token counter of a tenant's case, or of the
// tenant for no case, kept beside the uses ("#" starts no use's ID).
func tokenCounter(tenant, caseID, day string) string { return "#" + day + "/" + tenant + "/" + caseID }

// deploymentCounter is the _id of the day's token counter of every tenant together:
// "#" and the day, with none of the slashes of a tenant's counter. Uses recorded before
// it was kept are not in it.
func deploymentCounter(day string) string { return "#" + day }

// DeploymentTokens reads the day's counter of every tenant together.
func (s *Store) DeploymentTokens(ctx context.Context, day string) (int64, error) {
	return s.tokenCount(ctx, deploymentCounter(day))
}

// tokenCount reads a token counter by its _id: 0 when no use has made it yet.
func (s *Store) tokenCount(ctx context.Context, id string) (int64, error) {
	d, err := findOne[struct {
		Tokens int64 `bson:"tokens"`
	}](ctx, s.tokenUse, bson.M{"_id": id}, "token use")
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, err
	}
	return d.Tokens, nil
}

// TokensUsed reads the day's counters of the case and its tenant.
func (s *Store) TokensUsed(ctx context.Context, tenant, caseID, day string) (store.TokensUsed, error) {
	var used store.TokensUsed
	for _, c := range []struct {
		key string
		to  *int64
	}{{tokenCounter(tenant, "", day), &used.Tenant}, {tokenCounter(tenant, caseID, day), &used.Case}} {
		n, err := s.tokenCount(ctx, c.key)
		if err != nil {
			return store.TokensUsed{}, err
		}
		*c.to = n
	}
	return used, nil
}

// GetBudget returns a tenant's budget, or store.ErrNotFound.
func (s *Store) GetBudget(ctx context.Context, tenant string) (store.Budget, error) {
	d, err := findOne[budgetDoc](ctx, s.budgets, bson.M{"_id": tenant}, "budget of "+tenant)
	if err != nil {
		return store.Budget{}, err
	}
	return store.Budget{Tenant: d.Tenant, TokensPerDay: d.TokensPerDay, CaseTokensPerDay: d.CaseTokensPerDay,
		SetBy: d.SetBy, UpdatedAt: d.UpdatedAt}, nil
}

// PutBudget replaces a tenant's budget.
func (s *Store) PutBudget(ctx context.Context, b store.Budget) error {
	d := budgetDoc{Tenant: b.Tenant, TokensPerDay: b.TokensPerDay, CaseTokensPerDay: b.CaseTokensPerDay,
		SetBy: b.SetBy, UpdatedAt: b.UpdatedAt.UTC()}
	_, err := s.budgets.ReplaceOne(ctx, bson.M{"_id": b.Tenant}, d, options.Replace().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("put budget: %w", err)
	}
	return nil
}
