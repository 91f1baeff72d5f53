// Package cluster_test runs Lexflow as it is deployed: `lexflow worker` and `lexflow
// api` processes, two of each, on a Temporal server that is not the dev server (every
// service in one process, on PostgreSQL, schema set up by temporal-sql-tool), sharing
// one database. The server is locked as a deployment's is: mutual TLS on every port,
// and its JWT claim mapper and authorizer reading tokens from an OpenID Provider
// (panva's oidc-provider), from which Lexflow's processes get theirs by the
// client-credentials grant. TestClusterSmoke runs one turn through it in `make test`,
// and TestClusterRefuses… show callers without a certificate or a permission
// refused; TestClusterFailover, `make cluster-test`, kills a worker and an API process
// in the middle of a case's turns.
package cluster_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/testcorpus"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/worker"
)

// cluster is the package's cluster: the servers and the lexflow binary.
var cluster struct {
	temporal *testenv.TemporalCluster
	oidc     *testenv.OIDCProvider
	mongoURI string
	corpusDB string
	blobDir  string
	lexflow  string
}

// namespace is the cluster's namespace: not "default", as a deployment's would not be.
const namespace = "lexflow"

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		code = 1
	}
	os.Exit(code)
}

// registerSearchAttributes adds Lexflow's search attributes to the namespace as the
// deployment's administrator: the workers' tokens may write workflows, not change
// the namespace.
func registerSearchAttributes(ctx context.Context) error {
	admin, err := cluster.temporal.Admin(namespace)
	if err != nil {
		return err
	}
	defer admin.Close()
	return worker.RegisterSearchAttributes(ctx, admin, namespace)
}

// run builds lexflow, starts the cluster and the database, and runs the tests.
func run(m *testing.M) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "lexflow-cluster-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	cluster.lexflow = filepath.Join(dir, "lexflow")
	build := exec.CommandContext(ctx, "go", "build", "-o", cluster.lexflow, "github.com/lexflow/lexflow/cmd/lexflow")
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("go build lexflow: %w\n%s", err, out)
	}
	port, err := childproc.FreePort()
	if err != nil {
		return 0, err
	}
	if cluster.oidc, err = testenv.StartOIDCProviderWith(ctx, port, "cluster-key", nil, oidcClients); err != nil {
		return 0, err
	}
	defer cluster.oidc.Stop()
	if cluster.temporal, err = testenv.StartTemporalCluster(ctx, testenv.ClusterOptions{Namespace: namespace,
		JWKS: cluster.oidc.JWKS(), Audience: testenv.OIDCTemporalAudience}); err != nil {
		return 0, err
	}
	defer cluster.temporal.Stop()
	if err := registerSearchAttributes(ctx); err != nil {
		return 0, err
	}
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), slog.New(slog.DiscardHandler))
	if err != nil {
		return 0, err
	}
	defer ferret.Stop()
	cluster.mongoURI = ferret.URI
	if cluster.corpusDB, err = testcorpus.Path(ctx, dir); err != nil {
		return 0, err
	}
	cluster.blobDir = filepath.Join(dir, "blobs")
	return m.Run(), nil
}
