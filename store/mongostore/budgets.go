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
}

// budgetDoc is a tenant's budget as stored, under the tenant's key.
type budgetDoc struct {
	Tenant           string    `bson:"_id"`
	TokensPerDay     int64     `bson:"tokens_per_day"`
	CaseTokensPerDay int64     `bson:"case_tokens_per_day"`
	SetBy            string    `bson:"set_by"`
	UpdatedAt        time.Time `bson:"updated_at"`
}

// RecordTokens inserts u unless a use with its ID exists.
func (s *Store) RecordTokens(ctx context.Context, u store.TokenUse) error {
	d := tokenUseDoc{ID: u.ID, Tenant: u.Tenant, CaseID: u.CaseID, Day: u.Day, Tokens: u.Tokens, At: u.At.UTC()}
	if _, err := s.tokenUse.InsertOne(ctx, d); err != nil && !mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("record token use: %w", err)
	}
	return nil
}

// TokensUsed sums the tenant's uses of the day by case, in one read of the
// (tenant, day) index, and picks out the case's.
func (s *Store) TokensUsed(ctx context.Context, tenant, caseID, day string) (store.TokensUsed, error) {
	cur, err := s.tokenUse.Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: bson.M{"tenant": tenant, "day": day}}},
		{{Key: "$group", Value: bson.M{"_id": "$case_id", "tokens": bson.M{"$sum": "$tokens"}}}},
	})
	if err != nil {
		return store.TokensUsed{}, fmt.Errorf("sum token use: %w", err)
	}
	var sums []struct {
		CaseID string `bson:"_id"`
		Tokens int64  `bson:"tokens"`
	}
	if err := cur.All(ctx, &sums); err != nil {
		return store.TokensUsed{}, fmt.Errorf("read token use: %w", err)
	}
	var used store.TokensUsed
	for _, c := range sums {
		used.Tenant += c.Tokens
		if c.CaseID == caseID {
			used.Case = c.Tokens
		}
	}
	return used, nil
}

// GetBudget returns a tenant's budget, or store.ErrNotFound.
func (s *Store) GetBudget(ctx context.Context, tenant string) (store.Budget, error) {
	var d budgetDoc
	err := s.budgets.FindOne(ctx, bson.M{"_id": tenant}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.Budget{}, store.ErrNotFound
	}
	if err != nil {
		return store.Budget{}, fmt.Errorf("get budget: %w", err)
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
