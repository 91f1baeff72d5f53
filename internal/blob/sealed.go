package blob

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/schemas"
)

// sealedMagic starts every sealed blob; a blob without it was stored before sealing
// and is read as it is.
const sealedMagic = "LXE1"

// Sealed is a Store whose blobs are encrypted: those under cases/<id>/ with the case's
// data key, the rest with the system key, each bound to its key so that a blob copied
// under another key does not open.
type Sealed struct {
	Store
	Keys *keys.Keyring
}

// keyOf is the data key that seals the blob under key.
func keyOf(key string) string {
	if id := schemas.CaseOfBlobKey(key); id != "" {
		return keys.CaseKeyID(id)
	}
	return keys.SystemKeyID
}

// Put seals data and stores it under key.
func (s Sealed) Put(ctx context.Context, key string, data []byte) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	k, err := s.Keys.Ensure(ctx, keyOf(key))
	if err != nil {
		return fmt.Errorf("put blob %q: %w", key, err)
	}
	return s.Store.Put(ctx, key, append([]byte(sealedMagic), k.Seal(data, []byte(key))...))
}

// Open reads the blob under key and returns it opened.
func (s Sealed) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	r, err := s.Store.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read blob %q: %w", key, err)
	}
	sealed, ok := bytes.CutPrefix(data, []byte(sealedMagic))
	if !ok {
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	k, err := s.Keys.Key(ctx, keyOf(key))
	if err != nil {
		return nil, fmt.Errorf("open blob %q: %w", key, err)
	}
	plain, err := k.Open(sealed, []byte(key))
	if err != nil {
		return nil, fmt.Errorf("open blob %q: %w", key, err)
	}
	return io.NopCloser(bytes.NewReader(plain)), nil
}
