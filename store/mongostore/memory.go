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

// memoryDoc is a user's memory as stored; its ID is the user's.
type memoryDoc struct {
	UserID    string    `bson:"_id"`
	Text      string    `bson:"text"`
	UpdatedAt time.Time `bson:"updated_at"`
}

// GetMemory returns a user's memory, empty when there is none.
func (s *Store) GetMemory(ctx context.Context, userID string) (store.Memory, error) {
	var d memoryDoc
	err := s.memory.FindOne(ctx, bson.M{"_id": userID}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return store.Memory{UserID: userID}, nil
	}
	if err != nil {
		return store.Memory{}, fmt.Errorf("find memory: %w", err)
	}
	return store.Memory{UserID: d.UserID, Text: d.Text, UpdatedAt: d.UpdatedAt}, nil
}

// PutMemory replaces a user's memory.
func (s *Store) PutMemory(ctx context.Context, userID, text string) (store.Memory, error) {
	d := memoryDoc{UserID: userID, Text: text, UpdatedAt: time.Now().UTC()}
	_, err := s.memory.ReplaceOne(ctx, bson.M{"_id": userID}, d, options.Replace().SetUpsert(true))
	if err != nil {
		return store.Memory{}, fmt.Errorf("store memory: %w", err)
	}
	return store.Memory{UserID: userID, Text: text, UpdatedAt: d.UpdatedAt}, nil
}
