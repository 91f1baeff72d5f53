package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// AddParty seals every detail of the party.
func (s *Store) AddParty(ctx context.Context, p store.Party) (store.Party, error) {
	k, err := s.caseKey(ctx, p.CaseID)
	if err != nil {
		return store.Party{}, err
	}
	sealed, _ := mapParty(p, func(v string) (string, error) { return sealString(k, v), nil }) // sealing does not fail
	stored, err := s.Store.AddParty(ctx, sealed)
	if err != nil {
		return store.Party{}, err
	}
	return openParty(openerOf(k), stored)
}

// ListParties opens the parties.
func (s *Store) ListParties(ctx context.Context, caseID string) ([]store.Party, error) {
	ps, err := s.Store.ListParties(ctx, caseID)
	if err != nil || len(ps) == 0 {
		return ps, err
	}
	o := s.opener(ctx, keys.CaseKeyID(caseID))
	for i := range ps {
		if ps[i], err = openParty(o, ps[i]); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

func openParty(o *opener, p store.Party) (store.Party, error) {
	out, err := mapParty(p, func(v string) (string, error) { return openString(o, v) })
	if err != nil {
		return store.Party{}, fmt.Errorf("party %s of case %s: %w", p.ID, p.CaseID, err)
	}
	return out, nil
}

// mapParty returns p with f applied to each of its details.
func mapParty(p store.Party, f func(string) (string, error)) (store.Party, error) {
	var err error
	for _, v := range []*string{&p.FirstName, &p.LastName, &p.CompanyName, &p.CNP, &p.CUI, &p.Address, &p.Email} {
		if *v, err = f(*v); err != nil {
			return store.Party{}, err
		}
	}
	aliases := make([]string, len(p.Aliases))
	for i, a := range p.Aliases {
		if aliases[i], err = f(a); err != nil {
			return store.Party{}, err
		}
	}
	if p.Aliases != nil {
		p.Aliases = aliases
	}
	return p, nil
}
