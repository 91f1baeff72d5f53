package store

import "context"

// Feeds keeps each user's calendar feed: the hash of the secret in its URL, under the
// user's OwnerID. The secret itself is never stored.
type Feeds interface {
	// PutFeed sets owner's feed to the secret that hashes to hash, replacing the one
	// it had: the old URL stops working.
	PutFeed(ctx context.Context, owner, hash string) error
	// FeedOwner returns the owner whose feed secret hashes to hash, or ErrNotFound.
	FeedOwner(ctx context.Context, hash string) (string, error)
	// DeleteFeed turns owner's feed off; a user without one is no error.
	DeleteFeed(ctx context.Context, owner string) error
}
