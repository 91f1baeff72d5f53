package wiring

import (
	"context"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/blob/gcsblob"
)

// Blobs opens the blob store that cfg.Blob names, unsealed: the folder cfg.BlobDir, or
// the Cloud Storage bucket cfg.BlobBucket (at cfg.GCSEndpoint when set), which it
// checks it can list. The caller seals it (blob.Sealed) and calls close when done.
func Blobs(ctx context.Context, cfg config.Config) (s blob.Store, close func() error, err error) {
	if cfg.Blob == config.BlobGCS {
		g, err := gcsblob.New(ctx, gcsblob.Options{Bucket: cfg.BlobBucket, Endpoint: cfg.GCSEndpoint})
		if err != nil {
			return nil, nil, err
		}
		return g, g.Close, nil
	}
	d, err := blob.NewDir(cfg.BlobDir)
	if err != nil {
		return nil, nil, err
	}
	return d, func() error { return nil }, nil
}
