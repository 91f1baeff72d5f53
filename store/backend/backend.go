// Package backend opens the database a Lexflow process's configuration names.
package backend

import (
	"context"
	"os"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/firestore"
	"github.com/lexflow/lexflow/store/mongostore"
)

// MongoURI is MONGODB_URI, or the embedded FerretDB's address that `lexflow dev`
// serves.
func MongoURI(cfg config.Config) string {
	if cfg.MongoURI != "" {
		return cfg.MongoURI
	}
	return "mongodb://" + cfg.DevMongoAddr + "/"
}

// Open opens the database LEXFLOW_STORE names, unsealed: MongoDB at MongoURI, or
// Firestore, the emulator at FIRESTORE_EMULATOR_HOST when that is set.
func Open(ctx context.Context, cfg config.Config) (store.Store, error) {
	if cfg.Store != config.StoreFirestore {
		return mongostore.Open(ctx, MongoURI(cfg), cfg.MongoDatabase)
	}
	if cfg.FirestoreEmulatorHost != "" {
		// The client library finds the emulator by this variable alone.
		if err := os.Setenv("FIRESTORE_EMULATOR_HOST", cfg.FirestoreEmulatorHost); err != nil {
			return nil, err
		}
	}
	return firestore.Open(ctx, cfg.FirestoreProject)
}
