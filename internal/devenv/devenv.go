// Package devenv starts what `lexflow dev` runs beside Lexflow on one machine: the
// Temporal dev server (a child process of the pinned Temporal CLI) with the Temporal UI
// server, an embedded FerretDB that serves the MongoDB wire protocol over SQLite, and,
// with LEXFLOW_STORE=firestore, the Firestore emulator. The tests and benches start
// these too; what only they start (an OpenID Provider, stripe-mock, PostgreSQL, a
// Temporal cluster) is in package testenv.
package devenv

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// FerretDB is a running embedded FerretDB.
type FerretDB struct {
	// URI is the mongodb:// URI clients connect to.
	URI     string
	stop    context.CancelFunc
	done    chan struct{}
	indexed chan struct{}
}

// StartFerretDB serves the MongoDB wire protocol on addr (use "127.0.0.1:0" for any free
// port), keeping its data as SQLite files in dir, whose tables get an index for
// lookups by _id within idIndexEvery of their first write (see idIndexer).
func StartFerretDB(ctx context.Context, addr, dir string, log *slog.Logger) (*FerretDB, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// FerretDB logs every connection at info level; keep only its errors.
	quiet := slog.New(log.Handler().WithGroup("ferretdb"))
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: addr},
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
		Logger:    slog.New(levelFilter{quiet.Handler(), slog.LevelError}),
	})
	if err != nil {
		return nil, fmt.Errorf("start FerretDB: %w", err)
	}
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	indexed := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(runCtx)
	}()
	go func() {
		defer close(indexed)
		t := time.NewTicker(idIndexEvery)
		defer t.Stop()
		x := &idIndexer{dir: abs, indexed: map[string]bool{}}
		for {
			x.run(runCtx, log)
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
			}
		}
	}()
	// MongoDBURI waits until the listener is bound.
	return &FerretDB{URI: f.MongoDBURI(), stop: stop, done: done, indexed: indexed}, nil
}

// Stop closes the listener and the SQLite files and waits until they are closed.
func (f *FerretDB) Stop() {
	f.stop()
	<-f.done
	<-f.indexed
}
