package firestore

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/store"
)

// feedData is a user's calendar feed, under the user's OwnerID.
type feedData struct {
	Owner string `firestore:"owner"`
	Hash  string `firestore:"hash"`
}

// PutFeed sets owner's feed document.
func (s *Store) PutFeed(ctx context.Context, owner, hash string) error {
	if _, err := s.doc(FeedsCollection, owner).Set(ctx, feedData{Owner: owner, Hash: hash}); err != nil {
		return fmt.Errorf("put feed: %w", err)
	}
	return nil
}

// FeedOwner finds the feed whose hash is hash (one equality filter: no composite
// index).
func (s *Store) FeedOwner(ctx context.Context, hash string) (string, error) {
	docs, err := all[feedData](ctx, s.client.Collection(FeedsCollection).Where("hash", "==", hash).Limit(1))
	if err != nil {
		return "", fmt.Errorf("read feed: %w", err)
	}
	if len(docs) == 0 {
		return "", fmt.Errorf("feed: %w", store.ErrNotFound)
	}
	return docs[0].Owner, nil
}

// DeleteFeed deletes owner's feed document.
func (s *Store) DeleteFeed(ctx context.Context, owner string) error {
	if _, err := s.doc(FeedsCollection, owner).Delete(ctx); err != nil && !notFound(err) {
		return fmt.Errorf("delete feed: %w", err)
	}
	return nil
}
