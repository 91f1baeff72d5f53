package firestore

import (
	"context"
	"errors"
	"fmt"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// promptsDocID is the settings document that holds the prompts version.
const promptsDocID = "prompts"

// versionData is a settings document with a version counter.
type versionData struct {
	Version int64 `firestore:"version"`
}

// BumpPromptsVersion increments the prompts version in a transaction, creating the
// document the first time, and returns the new version.
func (s *Store) BumpPromptsVersion(ctx context.Context) (int64, error) {
	ref := s.doc(SettingsCollection, promptsDocID)
	var v versionData
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		var err error
		if v, err = s.readVersion(ctx, tx); err != nil {
			return err
		}
		v.Version++
		return tx.Set(ref, v)
	})
	if err != nil {
		return 0, fmt.Errorf("bump prompts version: %w", err)
	}
	return v.Version, nil
}

// PromptsVersion returns the prompts version, 0 before the first bump.
func (s *Store) PromptsVersion(ctx context.Context) (int64, error) {
	v, err := s.readVersion(ctx, nil)
	return v.Version, err
}

// readVersion reads the prompts version, in tx when it is not nil: zero before the
// first bump.
func (s *Store) readVersion(ctx context.Context, tx *fs.Transaction) (versionData, error) {
	v, err := read[versionData](ctx, tx, s.doc(SettingsCollection, promptsDocID), "prompts version")
	if errors.Is(err, store.ErrNotFound) {
		return versionData{}, nil
	}
	return v, err
}
