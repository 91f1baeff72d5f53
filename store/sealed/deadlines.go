package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// CreateDeadline seals the deadline's title and its source's reference.
func (s *Store) CreateDeadline(ctx context.Context, d store.Deadline) (store.Deadline, error) {
	k, err := s.caseKey(ctx, d.CaseID)
	if err != nil {
		return store.Deadline{}, err
	}
	stored, err := s.Store.CreateDeadline(ctx, sealDeadline(k, d))
	if err != nil {
		return store.Deadline{}, err
	}
	return openDeadline(openerOf(k), stored)
}

// GetDeadline opens the deadline.
func (s *Store) GetDeadline(ctx context.Context, caseID, id string) (store.Deadline, error) {
	d, err := s.Store.GetDeadline(ctx, caseID, id)
	if err != nil {
		return store.Deadline{}, err
	}
	return openDeadline(s.opener(ctx, keys.CaseKeyID(caseID)), d)
}

// ListDeadlines opens the case's deadlines.
func (s *Store) ListDeadlines(ctx context.Context, caseID string) ([]store.Deadline, error) {
	ds, err := s.Store.ListDeadlines(ctx, caseID)
	if err != nil {
		return nil, err
	}
	o := s.opener(ctx, keys.CaseKeyID(caseID))
	for i := range ds {
		if ds[i], err = openDeadline(o, ds[i]); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// UserDeadlines opens each deadline under its own case's key.
func (s *Store) UserDeadlines(ctx context.Context, owner string, limit int) ([]store.Deadline, error) {
	ds, err := s.Store.UserDeadlines(ctx, owner, limit)
	if err != nil {
		return nil, err
	}
	openers := map[string]*opener{}
	for i := range ds {
		o, ok := openers[ds[i].CaseID]
		if !ok {
			o = s.opener(ctx, keys.CaseKeyID(ds[i].CaseID))
			openers[ds[i].CaseID] = o
		}
		if ds[i], err = openDeadline(o, ds[i]); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// UpdateDeadline seals the deadline's title and its source's reference.
func (s *Store) UpdateDeadline(ctx context.Context, d store.Deadline) (store.Deadline, error) {
	k, err := s.caseKey(ctx, d.CaseID)
	if err != nil {
		return store.Deadline{}, err
	}
	stored, err := s.Store.UpdateDeadline(ctx, sealDeadline(k, d))
	if err != nil {
		return store.Deadline{}, err
	}
	return openDeadline(openerOf(k), stored)
}

func sealDeadline(k *keys.Key, d store.Deadline) store.Deadline {
	d.Title = sealString(k, d.Title)
	d.Source.Reference = sealString(k, d.Source.Reference)
	return d
}

func openDeadline(o *opener, d store.Deadline) (store.Deadline, error) {
	var err error
	if d.Title, err = openString(o, d.Title); err == nil {
		d.Source.Reference, err = openString(o, d.Source.Reference)
	}
	if err != nil {
		return store.Deadline{}, fmt.Errorf("deadline %s: %w", d.ID, err)
	}
	return d, nil
}
