package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// partyData is a party as stored, in its case's parties subcollection under its
// party ID, so two writers cannot take the same number.
type partyData struct {
	Seq         int       `firestore:"seq"`
	PartyID     string    `firestore:"party_id"`
	FirstName   string    `firestore:"first_name,omitempty"`
	LastName    string    `firestore:"last_name,omitempty"`
	CompanyName string    `firestore:"company_name,omitempty"`
	Aliases     []string  `firestore:"aliases,omitempty"`
	CNP         string    `firestore:"cnp,omitempty"`
	CUI         string    `firestore:"cui,omitempty"`
	Address     string    `firestore:"address,omitempty"`
	Email       string    `firestore:"email,omitempty"`
	CreatedAt   time.Time `firestore:"created_at"`
}

// partyAttempts bounds how many numbers AddParty tries when other writers take them.
const partyAttempts = 100

// AddParty creates the party under the case's next number, trying the next one when
// a concurrent writer took it.
func (s *Store) AddParty(ctx context.Context, p store.Party) (store.Party, error) {
	n, err := count(ctx, s.sub(p.CaseID, PartiesCollection).Query)
	if err != nil {
		return store.Party{}, fmt.Errorf("count parties: %w", err)
	}
	p.CreatedAt = time.Now().UTC()
	for seq := n; seq < n+partyAttempts; seq++ {
		p.ID = fmt.Sprintf("party%d", seq)
		d := partyData{Seq: seq, PartyID: p.ID, FirstName: p.FirstName, LastName: p.LastName, CompanyName: p.CompanyName,
			Aliases: p.Aliases, CNP: p.CNP, CUI: p.CUI, Address: p.Address, Email: p.Email, CreatedAt: p.CreatedAt}
		_, err := s.sub(p.CaseID, PartiesCollection).Doc(p.ID).Create(ctx, d)
		if err == nil {
			return p, nil
		}
		if !exists(err) {
			return store.Party{}, fmt.Errorf("store party: %w", err)
		}
	}
	return store.Party{}, fmt.Errorf("store party: no free party number in %d tries", partyAttempts)
}

// ListParties returns a case's parties in the order they were added.
func (s *Store) ListParties(ctx context.Context, caseID string) ([]store.Party, error) {
	docs, err := all[partyData](ctx, s.sub(caseID, PartiesCollection).OrderBy("seq", fs.Asc))
	if err != nil {
		return nil, fmt.Errorf("read parties: %w", err)
	}
	out := make([]store.Party, len(docs))
	for i, d := range docs {
		out[i] = store.Party{ID: d.PartyID, CaseID: caseID, FirstName: d.FirstName, LastName: d.LastName,
			CompanyName: d.CompanyName, Aliases: d.Aliases, CNP: d.CNP, CUI: d.CUI, Address: d.Address, Email: d.Email,
			CreatedAt: d.CreatedAt}
	}
	return out, nil
}
