package cluster_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net/url"
	"testing"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/temporalauth"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
)

// TestClusterRefusesCallerWithoutCertificate (issue 36, finding 1): the frontend
// takes no connection without a client certificate from the clients' CA, in clear
// or over TLS, and the internal frontend, which serves the server's own worker as an
// administrator, takes none with a client's certificate either.
func TestClusterRefusesCallerWithoutCertificate(t *testing.T) {
	plain, err := client.Dial(client.Options{HostPort: cluster.temporal.Address, Namespace: namespace})
	if err == nil {
		plain.Close()
		t.Error("a plaintext client connected to the frontend")
	}
	noCert := clientTLS(t, "", "")
	if c, err := client.Dial(client.Options{HostPort: cluster.temporal.Address, Namespace: namespace,
		ConnectionOptions: client.ConnectionOptions{TLS: noCert}}); err == nil {
		c.Close()
		t.Error("a TLS client without a certificate connected to the frontend")
	}
	stranger, err := testenv.NewCA(t.TempDir(), "stranger")
	if err != nil {
		t.Fatal(err)
	}
	strangerCert, err := stranger.Issue("stranger", false)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := client.Dial(client.Options{HostPort: cluster.temporal.Address, Namespace: namespace,
		ConnectionOptions: client.ConnectionOptions{TLS: clientTLS(t, strangerCert.Cert, strangerCert.Key)}}); err == nil {
		c.Close()
		t.Error("a client with a certificate from another CA connected to the frontend")
	}
	mine, err := cluster.temporal.ClientCA.Issue("internal-caller", false)
	if err != nil {
		t.Fatal(err)
	}
	internal := clientTLS(t, mine.Cert, mine.Key)
	internal.ServerName = "" // the internal frontend's certificate names another host
	internal.InsecureSkipVerify = true
	if c, err := client.Dial(client.Options{HostPort: cluster.temporal.InternalAddress, Namespace: namespace,
		ConnectionOptions: client.ConnectionOptions{TLS: internal}}); err == nil {
		c.Close()
		t.Error("a client's certificate reached the internal frontend")
	}
}

// TestClusterRefusesUnauthorizedCaller (issue 36, finding 1): with a valid client
// certificate, a caller is refused every read and write in the namespace, the forged
// payment signal of the finding included, unless its access token, signed by the
// OpenID Provider for Temporal's audience, grants it: no token, a token without
// permissions, a firm's staff token and a token for Lexflow's API (another audience)
// are all refused; the operator's staff are let in.
func TestClusterRefusesUnauthorizedCaller(t *testing.T) {
	ctx := t.Context()
	temporalToken := url.Values{"resource": {testenv.OIDCTemporalResource}}
	for _, tc := range []struct {
		name   string
		client testenv.OIDCServiceClient
		params url.Values
		allow  bool
	}{
		{name: "no token"},
		{name: "no permissions", client: bareClient, params: temporalToken},
		{name: "firm staff", client: firmStaffClient, params: temporalToken},
		{name: "token for the API", client: operatorClient, params: url.Values{"scope": {"api"}}},
		{name: "operator staff", client: operatorClient, params: temporalToken, allow: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := dialWithToken(ctx, t, tc.client, tc.params)
			var denied *serviceerror.PermissionDenied
			if !tc.allow && errors.As(err, &denied) {
				return // a token the claim mapper cannot read is refused at once
			}
			if err != nil {
				t.Fatal(err)
			}
			_, readErr := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Namespace: namespace})
			writeErr := c.SignalWorkflow(ctx, schemas.CaseWorkflowID("forged"), "", "payment-confirmed",
				map[string]any{"reference": "forged", "amount": 1})
			if tc.allow {
				var notFound *serviceerror.NotFound
				if readErr != nil || !errors.As(writeErr, &notFound) {
					t.Errorf("operator staff: count %v, signal to a missing case %v; want allowed (the signal answering not found)", readErr, writeErr)
				}
				return
			}
			for what, err := range map[string]error{"count workflows": readErr, "signal payment-confirmed": writeErr} {
				if !errors.As(err, &denied) {
					t.Errorf("%s: %v, want permission denied", what, err)
				}
			}
		})
	}
}

// dialWithToken dials the frontend with a client certificate of the clients' CA and,
// unless oc is the zero client, a token oc got with params.
func dialWithToken(ctx context.Context, t *testing.T, oc testenv.OIDCServiceClient, params url.Values) (client.Client, error) {
	t.Helper()
	cert, err := cluster.temporal.ClientCA.Issue("caller", false)
	if err != nil {
		t.Fatal(err)
	}
	opts := client.Options{HostPort: cluster.temporal.Address, Namespace: namespace,
		ConnectionOptions: client.ConnectionOptions{TLS: clientTLS(t, cert.Cert, cert.Key)}}
	if oc.ID != "" {
		tok, err := cluster.oidc.ClientToken(ctx, oc.ID, oc.Secret, params)
		if err != nil {
			t.Fatal(err)
		}
		opts.Credentials = client.NewAPIKeyStaticCredentials(tok)
	}
	c, err := client.Dial(opts)
	if err != nil {
		return nil, err
	}
	t.Cleanup(c.Close)
	return c, nil
}

// clientTLS is the TLS configuration of a frontend client with the given
// certificate files (none when empty).
func clientTLS(t *testing.T, cert, key string) *tls.Config {
	t.Helper()
	cfg, err := temporalauth.TLSConfig(config.TemporalAuth{CA: cluster.temporal.ServerCA,
		ServerName: cluster.temporal.FrontendName, Cert: cert, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
