package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// partyDoc is a party as stored; its _id is "<caseID>/<partyN>", so two writers cannot
// take the same number.
type partyDoc struct {
	ID          string    `bson:"_id"`
	CaseID      string    `bson:"case_id"`
	Seq         int       `bson:"seq"`
	PartyID     string    `bson:"party_id"`
	FirstName   string    `bson:"first_name,omitempty"`
	LastName    string    `bson:"last_name,omitempty"`
	CompanyName string    `bson:"company_name,omitempty"`
	Aliases     []string  `bson:"aliases,omitempty"`
	CNP         string    `bson:"cnp,omitempty"`
	CUI         string    `bson:"cui,omitempty"`
	Address     string    `bson:"address,omitempty"`
	Email       string    `bson:"email,omitempty"`
	CreatedAt   time.Time `bson:"created_at"`
}

// AddParty stores a party under the case's next number, trying the next one when a
// concurrent writer took it.
func (s *Store) AddParty(ctx context.Context, p store.Party) (store.Party, error) {
	n, err := s.parties.CountDocuments(ctx, bson.M{"case_id": p.CaseID})
	if err != nil {
		return store.Party{}, fmt.Errorf("count parties: %w", err)
	}
	p.CreatedAt = time.Now().UTC()
	for seq := int(n); seq < int(n)+100; seq++ {
		p.ID = fmt.Sprintf("party%d", seq)
		d := partyDoc{ID: p.CaseID + "/" + p.ID, CaseID: p.CaseID, Seq: seq, PartyID: p.ID, FirstName: p.FirstName,
			LastName: p.LastName, CompanyName: p.CompanyName, Aliases: p.Aliases, CNP: p.CNP, CUI: p.CUI,
			Address: p.Address, Email: p.Email, CreatedAt: p.CreatedAt}
		_, err := s.parties.InsertOne(ctx, d)
		if err == nil {
			return p, nil
		}
		if !mongo.IsDuplicateKeyError(err) {
			return store.Party{}, fmt.Errorf("insert party: %w", err)
		}
	}
	return store.Party{}, fmt.Errorf("insert party: no free party number")
}

// ListParties returns a case's parties in the order they were added.
func (s *Store) ListParties(ctx context.Context, caseID string) ([]store.Party, error) {
	docs, err := findAll[partyDoc](ctx, s.parties, bson.M{"case_id": caseID}, "parties", options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}))
	if err != nil {
		return nil, err
	}
	out := make([]store.Party, len(docs))
	for i, d := range docs {
		out[i] = store.Party{ID: d.PartyID, CaseID: d.CaseID, FirstName: d.FirstName, LastName: d.LastName,
			CompanyName: d.CompanyName, Aliases: d.Aliases, CNP: d.CNP, CUI: d.CUI, Address: d.Address, Email: d.Email,
			CreatedAt: d.CreatedAt}
	}
	return out, nil
}
