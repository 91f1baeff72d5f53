package firestore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lexflow/lexflow/store"
)

// memoryData is a user's memory as stored, under the user's store.OwnerID.
type memoryData struct {
	Text      string    `firestore:"text"`
	UpdatedAt time.Time `firestore:"updated_at"`
}

// GetMemory returns a user's memory, empty when there is none.
func (s *Store) GetMemory(ctx context.Context, owner string) (store.Memory, error) {
	d, err := read[memoryData](ctx, nil, s.doc(MemoryCollection, owner), "memory of "+owner)
	if errors.Is(err, store.ErrNotFound) {
		return store.Memory{UserID: owner}, nil
	}
	if err != nil {
		return store.Memory{}, err
	}
	return store.Memory{UserID: owner, Text: d.Text, UpdatedAt: d.UpdatedAt}, nil
}

// PutMemory replaces a user's memory.
func (s *Store) PutMemory(ctx context.Context, owner, text string) (store.Memory, error) {
	d := memoryData{Text: text, UpdatedAt: time.Now().UTC()}
	if _, err := s.doc(MemoryCollection, owner).Set(ctx, d); err != nil {
		return store.Memory{}, fmt.Errorf("store memory: %w", err)
	}
	return store.Memory{UserID: owner, Text: text, UpdatedAt: d.UpdatedAt}, nil
}
