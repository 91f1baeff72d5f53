package devenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/internal/childproc"
)

// TemporalCLIVersion is the Temporal CLI that `make dev` installs into ./bin. Newer tags
// do not install from the module proxy.
const TemporalCLIVersion = "v1.5.1"

// TemporalOptions says how to start the Temporal dev server.
type TemporalOptions struct {
	// CLI is the path of the temporal binary.
	CLI string
	// DBFile is the SQLite file the server persists to; it survives restarts.
	DBFile string
	// Port is the frontend's gRPC port on 127.0.0.1; 0 picks a free one, and picks
	// again if another process takes it while the server starts.
	Port int
	// UIPort is the Web UI's port; 0 starts the server without its UI.
	UIPort int
	// UICodecEndpoint is the codec server the Web UI decodes payloads with; empty
	// means none.
	UICodecEndpoint string
	// UIServer, when set, is the Temporal UI server binary (see FindTemporalUI) that
	// serves the Web UI instead of the dev server's own, configured to send the
	// browser's cookies to UICodecEndpoint, which the CLI's dev server cannot be.
	UIServer string
	// DynamicConfig holds KEY=VALUE dynamic configuration values, e.g.
	// limit.historyCount.suggestContinueAsNew=100.
	DynamicConfig []string
	// Output receives the server's own log; nil discards it.
	Output io.Writer
}

// TemporalServer is a running Temporal dev server.
type TemporalServer struct {
	// Address is the frontend's host:port.
	Address string
	// UIURL is the Web UI's URL, empty when it runs without one.
	UIURL string
	p     *childproc.Process
	tail  *childproc.Tail
	// ui is the UI server, when UIServer serves the Web UI.
	ui *TemporalUI
}

// Pid is the server process's ID.
func (t *TemporalServer) Pid() int { return t.p.Pid() }

// errExited means the server process ended before it was ready.
var errExited = errors.New("temporal dev server exited before it was ready")

// StartTemporal starts the dev server and waits until its frontend answers.
func StartTemporal(ctx context.Context, o TemporalOptions) (*TemporalServer, error) {
	if err := os.MkdirAll(filepath.Dir(o.DBFile), 0o755); err != nil {
		return nil, err
	}
	if o.Port != 0 {
		return startTemporal(ctx, o)
	}
	var err error
	for range 3 {
		if o.Port, err = freeTemporalPort(); err != nil {
			return nil, err
		}
		var s *TemporalServer
		if s, err = startTemporal(ctx, o); !errors.Is(err, errExited) {
			return s, err
		}
	}
	return nil, err
}

// freeTemporalPort finds a frontend port whose next three ports, which the dev server
// also binds for its internal services, are free too.
func freeTemporalPort() (int, error) {
	for range 20 {
		p, err := childproc.FreePort()
		if err != nil {
			return 0, err
		}
		free := true
		for q := p + 1; q <= p+3 && free; q++ {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", q))
			if err != nil {
				free = false
				continue
			}
			l.Close()
		}
		if free {
			return p, nil
		}
	}
	return 0, errors.New("no free run of four ports on 127.0.0.1")
}

// devServerConfig is the dynamic configuration every dev server starts with:
//   - the single history shard's transfer queue is read at most 20 times a second by
//     default: past a short burst, every workflow and activity task then waits ~50 ms
//     to be dispatched, ~100 ms per activity; the limit is lifted;
//   - a task queue has one partition instead of four: with four, a task now and then
//     waits out matching's sync match and the forwarding between partitions, a tail of
//     up to 2 s on a turn (six no-op activities: p99 2.1 s with four, 103 ms with one),
//     and one server process gains nothing from more.
var devServerConfig = []string{
	"history.transferProcessorMaxPollRPS=10000",
	"matching.numTaskqueueReadPartitions=1",
	"matching.numTaskqueueWritePartitions=1",
}

func startTemporal(ctx context.Context, o TemporalOptions) (*TemporalServer, error) {
	// The HTTP API is unused; a free port keeps it from colliding with other servers.
	httpPort, err := childproc.FreePort()
	if err != nil {
		return nil, err
	}
	args := []string{"server", "start-dev",
		"--ip", "127.0.0.1", "--port", strconv.Itoa(o.Port), "--http-port", strconv.Itoa(httpPort),
		"--db-filename", o.DBFile, "--log-level", "warn",
		// A write-ahead log synced at checkpoints: every write survives the process
		// being killed, and a turn no longer waits for a dozen fsyncs.
		"--sqlite-pragma", "journal_mode=wal", "--sqlite-pragma", "synchronous=normal"}
	for _, kv := range append(slices.Clone(devServerConfig), o.DynamicConfig...) {
		args = append(args, "--dynamic-config-value", kv)
	}
	if o.UIPort > 0 && o.UIServer == "" {
		args = append(args, "--ui-port", strconv.Itoa(o.UIPort))
		if o.UICodecEndpoint != "" {
			args = append(args, "--ui-codec-endpoint", o.UICodecEndpoint)
		}
	} else {
		args = append(args, "--headless")
	}
	p, tail, err := childproc.Start(o.CLI, args, o.Output)
	if err != nil {
		return nil, fmt.Errorf("start Temporal dev server (%s): %w", o.CLI, err)
	}
	s := &TemporalServer{Address: fmt.Sprintf("127.0.0.1:%d", o.Port), p: p, tail: tail}
	if o.UIPort > 0 && o.UIServer == "" {
		s.UIURL = fmt.Sprintf("http://127.0.0.1:%d", o.UIPort)
	}
	if err := s.waitHealthy(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	if o.UIPort > 0 && o.UIServer != "" {
		s.ui, err = StartTemporalUI(ctx, UIOptions{Server: o.UIServer, Frontend: s.Address, Port: o.UIPort,
			CodecEndpoint: o.UICodecEndpoint, Dir: filepath.Join(filepath.Dir(o.DBFile), "temporal-ui"), Output: o.Output})
		if err != nil {
			s.Stop()
			return nil, err
		}
		s.UIURL = s.ui.URL
	}
	return s, nil
}

// waitHealthy polls until the frontend answers and, with a Web UI, the UI reaches the
// frontend too; or until the process exits or ctx ends.
func (s *TemporalServer) waitHealthy(ctx context.Context) error {
	for {
		err := s.frontendHealthy(ctx)
		if err == nil && s.UIURL != "" {
			err = uiHealthy(ctx, s.UIURL)
		}
		if err == nil {
			return nil
		}
		select {
		case <-s.p.Done():
			return fmt.Errorf("%w (%v); its last output:\n%s", errExited, err, s.tail.String())
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("temporal dev server not ready: %w", ctx.Err()), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (s *TemporalServer) frontendHealthy(ctx context.Context) error {
	c, err := client.Dial(client.Options{HostPort: s.Address, Logger: discardLogger{}})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
	return err
}

// uiHealthy asks the Web UI's server at url for the default namespace, which it
// fetches from the frontend: right after start it may still be waiting to reconnect.
func uiHealthy(ctx context.Context, url string) error {
	return answersOK(ctx, url+"/api/v1/namespaces/default")
}

// answersOK checks that a GET of url answers 200.
func answersOK(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("web UI answered %s", resp.Status)
	}
	return nil
}

// Stop asks the server, and its UI server, to shut down and kills each that has not
// within 15 seconds.
func (s *TemporalServer) Stop() {
	if s.ui != nil {
		s.ui.Stop()
	}
	s.p.Stop()
}

// FindTemporalCLI resolves the Temporal CLI (see childproc.FindBinary).
func FindTemporalCLI(path string) (string, error) {
	p, err := childproc.FindBinary(path, "temporal")
	if err != nil {
		return "", fmt.Errorf("%w; install it with `make bin/temporal` (go install github.com/temporalio/cli/cmd/temporal@%s)",
			err, TemporalCLIVersion)
	}
	return p, nil
}

// discardLogger silences the SDK while polling a server that is still starting.
type discardLogger struct{}

func (discardLogger) Debug(string, ...any) {}
func (discardLogger) Info(string, ...any)  {}
func (discardLogger) Warn(string, ...any)  {}
func (discardLogger) Error(string, ...any) {}
