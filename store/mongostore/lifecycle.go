package mongostore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// payment is a case's payment as stored.
type payment struct {
	Reference string    `bson:"reference"`
	By        string    `bson:"by"`
	At        time.Time `bson:"at"`
}

// SetPayment records the payment unless the case has one, and returns the recorded one.
func (s *Store) SetPayment(ctx context.Context, id string, p store.Payment) (store.Payment, error) {
	unlock := s.lockCase(id)
	_, err := s.cases.UpdateOne(ctx, bson.M{"_id": id, "payment": bson.M{"$exists": false}},
		bson.M{"$set": bson.M{"payment": payment(p), "updated_at": time.Now().UTC()}})
	unlock()
	if err != nil {
		return store.Payment{}, fmt.Errorf("record payment: %w", err)
	}
	c, err := s.GetCase(ctx, id)
	if err != nil {
		return store.Payment{}, err
	}
	if c.Payment == nil {
		return store.Payment{}, fmt.Errorf("record payment of case %s: not stored", id)
	}
	return *c.Payment, nil
}

// subscriptionDoc is a subscription as stored.
type subscriptionDoc struct {
	ID        string         `bson:"_id"`
	Plan      string         `bson:"plan"`
	Credits   map[string]int `bson:"credits"`
	Cases     []string       `bson:"cases"`
	UpdatedAt time.Time      `bson:"updated_at"`
}

// PutSubscription creates or replaces a subscription's plan and credits.
func (s *Store) PutSubscription(ctx context.Context, sub store.Subscription) (store.Subscription, error) {
	_, err := s.subs.UpdateOne(ctx, bson.M{"_id": sub.ID}, bson.M{
		"$set":         bson.M{"plan": sub.Plan, "credits": sub.Credits, "updated_at": time.Now().UTC()},
		"$setOnInsert": bson.M{"cases": []string{}},
	}, options.UpdateOne().SetUpsert(true))
	if err != nil {
		return store.Subscription{}, fmt.Errorf("put subscription: %w", err)
	}
	return s.GetSubscription(ctx, sub.ID)
}

// GetSubscription returns a subscription, or store.ErrNotFound.
func (s *Store) GetSubscription(ctx context.Context, id string) (store.Subscription, error) {
	var d subscriptionDoc
	err := s.subs.FindOne(ctx, bson.M{"_id": id}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.Subscription{}, fmt.Errorf("subscription %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Subscription{}, fmt.Errorf("read subscription: %w", err)
	}
	if d.Cases == nil {
		d.Cases = []string{}
	}
	return store.Subscription{ID: d.ID, Plan: d.Plan, Credits: d.Credits, Cases: d.Cases, UpdatedAt: d.UpdatedAt}, nil
}

// UseCredit takes one credit of the tier and records the case in one atomic update,
// which matches only while a credit is left and the case has not used one.
func (s *Store) UseCredit(ctx context.Context, id string, tier int, caseID string) (bool, error) {
	field := "credits." + strconv.Itoa(tier)
	res, err := s.subs.UpdateOne(ctx, bson.M{"_id": id, field: bson.M{"$gt": 0}, "cases": bson.M{"$ne": caseID}},
		bson.M{"$inc": bson.M{field: -1}, "$push": bson.M{"cases": caseID}, "$set": bson.M{"updated_at": time.Now().UTC()}})
	if err != nil {
		return false, fmt.Errorf("use credit: %w", err)
	}
	if res.ModifiedCount == 1 {
		return true, nil
	}
	sub, err := s.GetSubscription(ctx, id)
	if err != nil {
		return false, err
	}
	for _, c := range sub.Cases {
		if c == caseID {
			return true, nil
		}
	}
	return false, nil
}

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
	var got ticketDoc
	if err := s.tickets.FindOne(ctx, bson.M{"_id": t.ID}).Decode(&got); err != nil {
		return store.Ticket{}, fmt.Errorf("read ticket: %w", err)
	}
	return got.toTicket(), nil
}

// ListTickets returns a case's tickets, oldest first.
func (s *Store) ListTickets(ctx context.Context, caseID string) ([]store.Ticket, error) {
	cur, err := s.tickets.Find(ctx, bson.M{"case_id": caseID}, options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("find tickets: %w", err)
	}
	var docs []ticketDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read tickets: %w", err)
	}
	out := make([]store.Ticket, len(docs))
	for i, d := range docs {
		out[i] = d.toTicket()
	}
	return out, nil
}

// ResolveTickets resolves a case's open tickets.
func (s *Store) ResolveTickets(ctx context.Context, caseID string, r store.Resolution) (int, error) {
	res, err := s.tickets.UpdateMany(ctx, bson.M{"case_id": caseID, "status": store.TicketOpen},
		bson.M{"$set": bson.M{"status": store.TicketResolved, "resolution": resolution(r)}})
	if err != nil {
		return 0, fmt.Errorf("resolve tickets: %w", err)
	}
	return int(res.ModifiedCount), nil
}
