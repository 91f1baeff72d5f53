package testenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/temporalauth"
)

// TemporalServerVersion is the Temporal server that `make cluster-test` installs into
// ./bin as temporal-server, with temporal-sql-tool and the server's PostgreSQL schema
// (./bin/temporal-schema).
const TemporalServerVersion = "v1.29.1"

// quietSDK silences the SDK while polling a server that is still starting.
var quietSDK = tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))

// ClusterOptions says how to start a Temporal cluster.
type ClusterOptions struct {
	// Server, SQLTool and Schema are the temporal-server binary, temporal-sql-tool and
	// the PostgreSQL schema directory; empty means those `make cluster-test` installs
	// into ./bin.
	Server, SQLTool, Schema string
	// Namespace is the namespace to register: the server's authorizer leaves that to
	// its administrators, whom the internal frontend serves (see Admin).
	Namespace string
	// JWKS is the OpenID Provider's key set, whose keys sign the access tokens the
	// frontend accepts; Audience the aud those tokens must carry.
	JWKS, Audience string
	// Output receives PostgreSQL's and the server's logs; nil discards them.
	Output io.Writer
}

// TemporalCluster is a Temporal server that is not the dev server: the server binary
// with every service in one process, persisting to a PostgreSQL of its own whose
// schema temporal-sql-tool set up, with SQL visibility. It is locked as a deployment
// is: every gRPC port asks for mutual TLS, and the frontend's authorizer for an
// access token whose permissions claim grants the call (cluster.yaml.tmpl).
type TemporalCluster struct {
	// Address is the frontend's host:port; its certificate names FrontendName and
	// was signed by the CA in ServerCA. ClientCA signs the certificates the frontend
	// takes from its clients.
	Address      string
	FrontendName string
	ServerCA     string
	ClientCA     *CA
	// InternalAddress is the internal frontend's host:port, which serves the
	// server's own worker with administrator's rights to whoever shows an internode
	// certificate.
	InternalAddress string
	internode       CertFiles
	pg              *Postgres
	dir             string
	p               *childproc.Process
	tail            *childproc.Tail
}

// StartTemporalCluster starts PostgreSQL, sets up Temporal's two databases with the
// server's SQL tool, starts the server and registers the namespace, and returns once
// the namespace takes requests, or fails when ctx ends first.
func StartTemporalCluster(ctx context.Context, o ClusterOptions) (tc *TemporalCluster, err error) {
	bins := map[string]*string{"bin/temporal-server": &o.Server, "bin/temporal-sql-tool": &o.SQLTool, "bin/temporal-schema": &o.Schema}
	for path, to := range bins {
		if *to != "" {
			continue
		}
		if *to, err = childproc.FindBinary(path, filepath.Base(path)); err != nil {
			return nil, fmt.Errorf("%w; `make cluster-test` installs it (Temporal server %s)", err, TemporalServerVersion)
		}
	}
	tc = &TemporalCluster{}
	defer func() {
		if err != nil {
			tc.Stop()
		}
	}()
	if tc.pg, err = StartPostgres(ctx, o.Output); err != nil {
		return nil, err
	}
	for db, schema := range map[string]string{"temporal": "temporal", "temporal_visibility": "visibility"} {
		if err := tc.setUpSchema(ctx, o.SQLTool, db, filepath.Join(o.Schema, schema, "versioned")); err != nil {
			return nil, err
		}
	}
	if tc.dir, err = os.MkdirTemp("", "lexflow-temporal-"); err != nil {
		return nil, err
	}
	if o.JWKS == "" || o.Audience == "" {
		return nil, errors.New("the Temporal cluster needs the JWKS and the audience of its access tokens")
	}
	ports, err := freeSmallPorts("FRONTEND_GRPC_PORT", "FRONTEND_MEMBERSHIP_PORT", "FRONTEND_HTTP_PORT",
		"INTERNAL_FRONTEND_GRPC_PORT", "INTERNAL_FRONTEND_MEMBERSHIP_PORT", "INTERNAL_FRONTEND_HTTP_PORT",
		"MATCHING_GRPC_PORT", "MATCHING_MEMBERSHIP_PORT", "HISTORY_GRPC_PORT", "HISTORY_MEMBERSHIP_PORT",
		"WORKER_GRPC_PORT", "WORKER_MEMBERSHIP_PORT")
	if err != nil {
		return nil, err
	}
	if err := tc.makeCerts(); err != nil {
		return nil, err
	}
	if err := tc.writeConfig(); err != nil {
		return nil, err
	}
	tc.Address = "127.0.0.1:" + strconv.Itoa(ports["FRONTEND_GRPC_PORT"])
	tc.InternalAddress = "127.0.0.1:" + strconv.Itoa(ports["INTERNAL_FRONTEND_GRPC_PORT"])
	args := []string{"--root", tc.dir, "--config", "config", "--env", "temporal", "start"}
	for _, s := range clusterServices {
		args = append(args, "--service", s)
	}
	cmd := childproc.Command(o.Server, args...)
	cmd.Env = append(os.Environ(), "TEMPORAL_CERTS="+tc.dir, "TEMPORAL_JWKS_URL="+o.JWKS, "TEMPORAL_JWT_AUDIENCE="+o.Audience,
		"POSTGRES_SEEDS=127.0.0.1", "DB_PORT="+strconv.Itoa(tc.pg.Port), "POSTGRES_USER=postgres", "POSTGRES_PWD=",
		"BIND_ON_IP=127.0.0.1", "TEMPORAL_BROADCAST_ADDRESS=127.0.0.1",
		"DYNAMIC_CONFIG_FILE_PATH="+filepath.Join(tc.dir, "dynamicconfig.yaml"))
	for name, port := range ports {
		cmd.Env = append(cmd.Env, name+"="+strconv.Itoa(port))
	}
	if tc.p, tc.tail, err = childproc.StartCmd(cmd, o.Output); err != nil {
		return nil, fmt.Errorf("start the Temporal server: %w", err)
	}
	if err = tc.registerNamespace(ctx, o.Namespace); err != nil {
		return nil, err
	}
	return tc, nil
}

// clusterServices are the services the server runs: the default four and the
// internal frontend, which serves the system worker behind the internode TLS.
var clusterServices = []string{"frontend", "internal-frontend", "history", "matching", "worker"}

// Names the server certificates carry, as deploy/temporal/temporal.yaml expects them.
const (
	frontendName  = "temporal"
	internodeName = "temporal-internode"
)

// makeCerts makes, in the cluster's directory under the names
// deploy/temporal/temporal.yaml reads, the cluster's two certificate authorities,
// one for the server's own certificates and one for its clients', and the servers'
// certificates.
func (tc *TemporalCluster) makeCerts() error {
	server, err := NewCA(tc.dir, "server")
	if err != nil {
		return err
	}
	if tc.ClientCA, err = NewCA(tc.dir, "clients"); err != nil {
		return err
	}
	if tc.internode, err = server.Issue("internode", true, internodeName); err != nil {
		return err
	}
	if _, err := server.Issue("frontend", true, frontendName); err != nil {
		return err
	}
	tc.ServerCA, tc.FrontendName = server.CertFile, frontendName
	return nil
}

// freeSmallPorts returns a free loopback port for each name, no two the same, held
// until all are chosen. They come from below the kernel's ephemeral range (see
// childproc.FreePort), as the server needs: it stores its services' membership ports in a
// PostgreSQL smallint, which holds no port above 32767.
func freeSmallPorts(names ...string) (map[string]int, error) {
	ports := map[string]int{}
	for _, name := range names {
		l, err := childproc.ListenLowPort()
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports[name] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}

// setUpSchema creates database db and brings it to the newest version under schema.
func (tc *TemporalCluster) setUpSchema(ctx context.Context, tool, db, schema string) error {
	base := []string{"--plugin", "postgres12", "--endpoint", "127.0.0.1", "--port", strconv.Itoa(tc.pg.Port),
		"--user", "postgres", "--database", db}
	for _, step := range [][]string{{"create-database"}, {"setup-schema", "-v", "0.0"}, {"update-schema", "-d", schema}} {
		out, err := exec.CommandContext(ctx, tool, append(base, step...)...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("temporal-sql-tool %s on %s: %w\n%s", step[0], db, err, out)
		}
	}
	return nil
}

// writeConfig copies the deployment's server configuration,
// deploy/temporal/temporal.yaml, which the server renders from the environment it
// is started with, and its dynamic configuration into the cluster's directory.
func (tc *TemporalCluster) writeConfig() error {
	root, err := childproc.ModuleRoot()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(tc.dir, "config"), 0o755); err != nil {
		return err
	}
	for from, to := range map[string]string{"temporal.yaml": "config/temporal.yaml", "dynamicconfig.yaml": "dynamicconfig.yaml"} {
		raw, err := os.ReadFile(filepath.Join(root, "deploy", "temporal", from))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tc.dir, to), raw, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Admin returns a client of the internal frontend in namespace ns, with the
// administrator's rights that its internode certificate gives, as the deployment's
// own jobs (registering the namespace) have them.
func (tc *TemporalCluster) Admin(ns string) (client.Client, error) {
	tlsConfig, err := temporalauth.TLSConfig(config.TemporalAuth{CA: tc.ServerCA, ServerName: internodeName,
		Cert: tc.internode.Cert, Key: tc.internode.Key})
	if err != nil {
		return nil, err
	}
	return client.Dial(client.Options{HostPort: tc.InternalAddress, Namespace: ns, Logger: quietSDK,
		ConnectionOptions: client.ConnectionOptions{TLS: tlsConfig}})
}

// registerNamespace registers the namespace once the internal frontend answers, and
// waits until requests in it are taken: the server's services learn of a new
// namespace when they next refresh their namespace caches.
func (tc *TemporalCluster) registerNamespace(ctx context.Context, ns string) error {
	var c client.Client
	for {
		var err error
		if c == nil {
			c, err = tc.Admin(ns)
		}
		if err == nil {
			_, err = c.WorkflowService().RegisterNamespace(ctx, &workflowservice.RegisterNamespaceRequest{
				Namespace: ns, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)})
			var exists *serviceerror.NamespaceAlreadyExists
			if errors.As(err, &exists) {
				err = nil
			}
		}
		if err == nil {
			_, err = c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Namespace: ns})
		}
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-tc.p.Done():
			if c != nil {
				c.Close()
			}
			return fmt.Errorf("the Temporal server exited (%v); its last output:\n%s", err, tc.tail.String())
		case <-ctx.Done():
			if c != nil {
				c.Close()
			}
			return errors.Join(fmt.Errorf("the Temporal cluster is not ready: %w", ctx.Err()), err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// Stop stops the server and PostgreSQL and removes their files.
func (tc *TemporalCluster) Stop() {
	if tc.p != nil {
		tc.p.Stop()
	}
	if tc.pg != nil {
		tc.pg.Stop()
	}
	if tc.dir != "" {
		os.RemoveAll(tc.dir)
	}
}
