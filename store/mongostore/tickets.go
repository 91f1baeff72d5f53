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

// ticketDoc is a support ticket as stored.
type ticketDoc struct {
	ID          string      `bson:"_id"`
	CaseID      string      `bson:"case_id"`
	UserID      string      `bson:"user_id"`
	Description string      `bson:"issue_description"`
	Snapshot    bson.M      `bson:"agent_state_snapshot,omitempty"`
	Status      string      `bson:"status"`
	CreatedAt   time.Time   `bson:"created_at"`
	Resolution  *resolution `bson:"resolution,omitempty"`
}

type resolution struct {
	Action string    `bson:"action"`
	Note   string    `bson:"note"`
	By     string    `bson:"by"`
	At     time.Time `bson:"at"`
}

func (d ticketDoc) toTicket() store.Ticket {
	t := store.Ticket{ID: d.ID, CaseID: d.CaseID, UserID: d.UserID, Description: d.Description,
		Status: d.Status, CreatedAt: d.CreatedAt, Resolution: (*store.Resolution)(d.Resolution)}
	if d.Snapshot != nil {
		t.Snapshot = plain(d.Snapshot).(map[string]any)
	}
	return t
}

// CreateTicket inserts t unless its ID exists, and returns the stored ticket.
func (s *Store) CreateTicket(ctx context.Context, t store.Ticket) (store.Ticket, error) {
	d := ticketDoc{ID: t.ID, CaseID: t.CaseID, UserID: t.UserID, Description: t.Description,
		Snapshot: t.Snapshot, Status: store.TicketOpen, CreatedAt: time.Now().UTC()}
	if _, err := s.tickets.InsertOne(ctx, d); err != nil && !mongo.IsDuplicateKeyError(err) {
		return store.Ticket{}, fmt.Errorf("insert ticket: %w", err)
	}
	got, err := findOne[ticketDoc](ctx, s.tickets, bson.M{"_id": t.ID}, "ticket "+t.ID)
	return got.toTicket(), err
}

// ListTickets returns a case's tickets, oldest first.
func (s *Store) ListTickets(ctx context.Context, caseID string) ([]store.Ticket, error) {
	docs, err := findAll[ticketDoc](ctx, s.tickets, bson.M{"case_id": caseID}, "tickets",
		options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, err
	}
	out := make([]store.Ticket, len(docs))
	for i, d := range docs {
		out[i] = d.toTicket()
	}
	return out, nil
}

// ResolveTickets resolves a case's open tickets.
func (s *Store) ResolveTickets(ctx context.Context, caseID string, r store.Resolution) (int, error) {
	defer s.lock("tickets:" + caseID)()
	res, err := s.tickets.UpdateMany(ctx, bson.M{"case_id": caseID, "status": store.TicketOpen},
		bson.M{"$set": bson.M{"status": store.TicketResolved, "resolution": resolution(r)}})
	if err != nil {
		return 0, fmt.Errorf("resolve tickets: %w", err)
	}
	return int(res.ModifiedCount), nil
}
