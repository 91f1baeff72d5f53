package cluster_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/testenv"
)

// TestClusterWebUISignIn (issue 36, finding 1): the Temporal Web UI, served by the
// UI server with its own client certificate, is behind sign-in at the OpenID
// Provider: its API answers 401 without the user's token and sends browsers to the
// provider, and forwards a signed-in user's token to the frontend, whose authorizer
// lets operator staff read and write (a signal reaching the server, which answers
// that the workflow does not exist) and refuses a firm's staff everything.
func TestClusterWebUISignIn(t *testing.T) {
	server, err := devenv.FindTemporalUI("bin/temporal-ui")
	if err != nil {
		t.Fatal(err)
	}
	port, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := cluster.temporal.ClientCA.Issue("temporal-ui", false)
	if err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	ui, err := devenv.StartTemporalUI(t.Context(), devenv.UIOptions{Server: server, Frontend: cluster.temporal.Address,
		Port: port, Dir: t.TempDir(), Namespace: namespace, CodecEndpoint: "http://127.0.0.1:1/codec",
		TLS: &devenv.UITLS{CA: cluster.temporal.ServerCA, Cert: cert.Cert, Key: cert.Key, ServerName: cluster.temporal.FrontendName},
		SignIn: &devenv.UISignIn{Issuer: cluster.oidc.Issuer, ClientID: "temporal-ui", ClientSecret: "temporal-ui-secret",
			CallbackURL: base + "/auth/sso/callback"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ui.Stop)

	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(base + "/auth/sso")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, cluster.oidc.Issuer+"/auth?") {
		t.Errorf("sign-in: %s to %q, want a redirect to the provider %s", resp.Status, loc, cluster.oidc.Issuer)
	}

	list := "/api/v1/namespaces/" + namespace + "/workflows"
	signal := "/api/v1/namespaces/" + namespace + "/workflows/case:forged/signal/payment-confirmed"
	temporalToken := url.Values{"resource": {testenv.OIDCTemporalResource}}
	for _, tc := range []struct {
		name         string
		client       *testenv.OIDCServiceClient
		list, signal int
	}{
		// A write without a token meets the UI server's CSRF check first.
		{name: "signed out", list: http.StatusUnauthorized, signal: http.StatusBadRequest},
		{name: "firm staff", client: &firmStaffClient, list: http.StatusForbidden, signal: http.StatusForbidden},
		{name: "operator staff", client: &operatorClient, list: http.StatusOK, signal: http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			auth := ""
			if tc.client != nil {
				tok, err := cluster.oidc.ClientToken(t.Context(), tc.client.ID, tc.client.Secret, temporalToken)
				if err != nil {
					t.Fatal(err)
				}
				auth = "Bearer " + tok
			}
			for _, r := range []struct {
				method, path string
				want         int
			}{{"GET", list, tc.list}, {"POST", signal, tc.signal}} {
				req, err := http.NewRequestWithContext(t.Context(), r.method, base+r.path, strings.NewReader(`{}`))
				if err != nil {
					t.Fatal(err)
				}
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != r.want {
					t.Errorf("%s %s: %s, want %d", r.method, r.path, resp.Status, r.want)
				}
			}
		})
	}
}
