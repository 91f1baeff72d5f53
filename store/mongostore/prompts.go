package mongostore

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// promptsDocID is the settings document that holds the prompts version.
const promptsDocID = "prompts"

// versionDoc is a settings document with a version counter.
type versionDoc struct {
	Version int64 `bson:"version"`
}

// BumpPromptsVersion increments the prompts version in one atomic update, creating
// the document the first time, and returns the new version.
func (s *Store) BumpPromptsVersion(ctx context.Context) (int64, error) {
	defer s.lock("settings:" + promptsDocID)()
	var d versionDoc
	err := s.settings.FindOneAndUpdate(ctx, bson.M{"_id": promptsDocID}, bson.M{"$inc": bson.M{"version": int64(1)}},
		options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)).Decode(&d)
	if err != nil {
		return 0, fmt.Errorf("bump prompts version: %w", err)
	}
	return d.Version, nil
}

// PromptsVersion returns the prompts version, 0 before the first bump.
func (s *Store) PromptsVersion(ctx context.Context) (int64, error) {
	d, err := findOne[versionDoc](ctx, s.settings, bson.M{"_id": promptsDocID}, "prompts version")
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	return d.Version, err
}
