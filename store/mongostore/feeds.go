package mongostore

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// feedDoc is a user's calendar feed, under the user's OwnerID.
type feedDoc struct {
	Owner string `bson:"_id"`
	Hash  string `bson:"hash"`
}

// PutFeed replaces owner's feed hash.
func (s *Store) PutFeed(ctx context.Context, owner, hash string) error {
	_, err := s.feeds.ReplaceOne(ctx, bson.M{"_id": owner}, feedDoc{Owner: owner, Hash: hash}, options.Replace().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("put feed: %w", err)
	}
	return nil
}

// FeedOwner finds the feed whose hash is hash.
func (s *Store) FeedOwner(ctx context.Context, hash string) (string, error) {
	d, err := findOne[feedDoc](ctx, s.feeds, bson.M{"hash": hash}, "feed")
	return d.Owner, err
}

// DeleteFeed deletes owner's feed.
func (s *Store) DeleteFeed(ctx context.Context, owner string) error {
	if _, err := s.feeds.DeleteOne(ctx, bson.M{"_id": owner}); err != nil {
		return fmt.Errorf("delete feed: %w", err)
	}
	return nil
}
