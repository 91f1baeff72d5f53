package devenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/lexflow/lexflow/internal/childproc"
)

// TemporalUIVersion is the Temporal UI server that `make dev` installs into ./bin as
// temporal-ui: the one the Temporal CLI embeds.
const TemporalUIVersion = "v2.42.1"

// FindTemporalUI resolves the Temporal UI server (see childproc.FindBinary).
func FindTemporalUI(path string) (string, error) {
	p, err := childproc.FindBinary(path, "temporal-ui")
	if err != nil {
		return "", fmt.Errorf("%w; install it with `make bin/temporal-ui` (go install github.com/temporalio/ui-server/v2/cmd/server@%s, renamed temporal-ui)",
			err, TemporalUIVersion)
	}
	return p, nil
}

// UIOptions says how to start the Temporal UI server.
type UIOptions struct {
	// Server is the path of the UI server binary.
	Server string
	// Frontend is the Temporal frontend's host:port.
	Frontend string
	// Port is the Web UI's port on 127.0.0.1.
	Port int
	// CodecEndpoint is the codec server the Web UI decodes payloads with, sending it
	// the browser's cookies (the web app's codec session); empty means none.
	CodecEndpoint string
	// Dir is where the server's configuration is written.
	Dir string
	// Output receives the server's log; nil discards it.
	Output io.Writer
}

// uiConfig is the UI server's configuration: the dev server's own UI settings, plus
// the codec server and its credentials, which the dev server cannot set.
const uiConfig = `temporalGrpcAddress: %q
host: 127.0.0.1
port: %d
enableUi: true
defaultNamespace: default
hideLogs: true
cors:
  cookieInsecure: true
codec:
  endpoint: %q
  includeCredentials: true
`

// TemporalUI is a running Temporal UI server.
type TemporalUI struct {
	// URL is the Web UI's base URL.
	URL string
	p   *childproc.Process
}

// StartTemporalUI starts the UI server and waits until it reaches the frontend.
func StartTemporalUI(ctx context.Context, o UIOptions) (*TemporalUI, error) {
	if err := os.MkdirAll(filepath.Join(o.Dir, "config"), 0o755); err != nil {
		return nil, err
	}
	config := fmt.Sprintf(uiConfig, o.Frontend, o.Port, o.CodecEndpoint)
	if err := os.WriteFile(filepath.Join(o.Dir, "config", "development.yaml"), []byte(config), 0o644); err != nil {
		return nil, err
	}
	p, tail, err := childproc.Start(o.Server, []string{"--root", o.Dir, "--config", "config", "--env", "development", "start"}, o.Output)
	if err != nil {
		return nil, fmt.Errorf("start the Temporal UI server (%s): %w", o.Server, err)
	}
	u := &TemporalUI{URL: fmt.Sprintf("http://127.0.0.1:%d", o.Port), p: p}
	for {
		err := uiHealthy(ctx, u.URL)
		if err == nil {
			return u, nil
		}
		select {
		case <-u.p.Done():
			return nil, fmt.Errorf("the Temporal UI server exited before it was ready (%v); its last output:\n%s", err, tail.String())
		case <-ctx.Done():
			u.Stop()
			return nil, errors.Join(fmt.Errorf("the Temporal UI server is not ready: %w", ctx.Err()), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Stop stops the UI server.
func (u *TemporalUI) Stop() { u.p.Stop() }
