package mongostore

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// OpenWith is Open with the client options a test chooses, such as a command monitor.
func OpenWith(ctx context.Context, opts *options.ClientOptions, db string) (*Store, error) {
	return open(ctx, opts, db)
}

// WithoutTurns makes s store and read transcripts as it does on MongoDB, without the
// turn documents, as an earlier version did on FerretDB too.
func WithoutTurns(s *Store) *Store {
	s.turns = nil
	return s
}
