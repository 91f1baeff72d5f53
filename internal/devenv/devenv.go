// Package devenv starts the services Lexflow runs against on one machine: the Temporal
// dev server (a child process of the pinned Temporal CLI) and an embedded FerretDB that
// serves the MongoDB wire protocol over SQLite. `lexflow dev` and the tests use it.
package devenv

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
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

// Free ports are chosen from lowPort to highPort, below the kernel's ephemeral range
// (32768 and up on Linux): the kernel hands those out to outgoing connections, so a
// port it chose for a listener that then closed may be taken by a connection before
// the process meant to listen on it does (seen: FerretDB under `lexflow dev` failing
// with "address already in use" while other test packages ran).
const (
	lowPort  = 20000
	highPort = 32000
)

// listenLowPort listens on a free loopback port between lowPort and highPort.
func listenLowPort() (net.Listener, error) {
	for range 100 {
		port := lowPort + rand.IntN(highPort-lowPort)
		if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no free port between %d and %d in 100 tries", lowPort, highPort)
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listened on a moment ago, from
// below the kernel's ephemeral range.
func FreePort() (int, error) {
	l, err := listenLowPort()
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
