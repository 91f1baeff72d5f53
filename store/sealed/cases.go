package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// CreateCase seals the description and case_details.
func (s *Store) CreateCase(ctx context.Context, c store.Case) (store.Case, error) {
	k, err := s.caseKey(ctx, c.ID)
	if err != nil {
		return store.Case{}, err
	}
	c.Description = sealString(k, c.Description)
	c.Details = sealMap(k, c.Details)
	stored, err := s.Store.CreateCase(ctx, c)
	if err != nil {
		return store.Case{}, err
	}
	return openCase(openerOf(k), stored)
}

// GetCase opens the description and case_details.
func (s *Store) GetCase(ctx context.Context, id string) (store.Case, error) {
	c, err := s.Store.GetCase(ctx, id)
	if err != nil {
		return store.Case{}, err
	}
	return openCase(s.opener(ctx, keys.CaseKeyID(id)), c)
}

// UpdateDetails seals every value the updates write.
func (s *Store) UpdateDetails(ctx context.Context, id string, expected int64, op string, updates map[string]any) (int64, error) {
	if _, err := store.ParseUpdates(updates); err != nil {
		return 0, err
	}
	k, err := s.caseKey(ctx, id)
	if err != nil {
		return 0, err
	}
	sealed := make(map[string]any, len(updates))
	for path, v := range updates {
		sealed[path] = sealTree(k, v)
	}
	return s.Store.UpdateDetails(ctx, id, expected, op, sealed)
}

// ListCases opens each case's description.
func (s *Store) ListCases(ctx context.Context, org, subject, after string, limit int) ([]store.Case, error) {
	cases, err := s.Store.ListCases(ctx, org, subject, after, limit)
	if err != nil {
		return nil, err
	}
	for i, c := range cases {
		if cases[i], err = openCase(s.opener(ctx, keys.CaseKeyID(c.ID)), c); err != nil {
			return nil, err
		}
	}
	return cases, nil
}

// SetHold seals the hold's reason: the admin's words may tell of the case.
func (s *Store) SetHold(ctx context.Context, caseID, org string, h *store.Hold) error {
	if h != nil {
		k, err := s.caseKey(ctx, caseID)
		if err != nil {
			return err
		}
		sealedHold := *h
		sealedHold.Reason = sealString(k, h.Reason)
		h = &sealedHold
	}
	return s.Store.SetHold(ctx, caseID, org, h)
}

// openCase opens a case's description, case_details, hold reason and status.
func openCase(o *opener, c store.Case) (store.Case, error) {
	var err error
	if c.Description, err = openString(o, c.Description); err != nil {
		return store.Case{}, fmt.Errorf("case %s: %w", c.ID, err)
	}
	if c.Hold != nil {
		h := *c.Hold
		if h.Reason, err = openString(o, h.Reason); err != nil {
			return store.Case{}, fmt.Errorf("case %s: %w", c.ID, err)
		}
		c.Hold = &h
	}
	if c.Details, err = openMap(o, c.Details); err != nil {
		return store.Case{}, fmt.Errorf("case %s: %w", c.ID, err)
	}
	if c.State != nil {
		st := *c.State
		if err := openStatus(o, &st); err != nil {
			return store.Case{}, fmt.Errorf("case %s: %w", c.ID, err)
		}
		c.State = &st
	}
	return c, nil
}
