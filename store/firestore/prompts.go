package firestore

import (
	"context"
	"fmt"

	fs "cloud.google.com/go/firestore"
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
		if v, err = readVersion(tx.Get(ref)); err != nil {
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
	v, err := readVersion(s.doc(SettingsCollection, promptsDocID).Get(ctx))
	if err != nil {
		return 0, fmt.Errorf("read prompts version: %w", err)
	}
	return v.Version, nil
}

// readVersion decodes a read of a version document: zero when it does not exist.
func readVersion(snap *fs.DocumentSnapshot, err error) (versionData, error) {
	var v versionData
	if notFound(err) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	return v, snap.DataTo(&v)
}
