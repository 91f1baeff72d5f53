package devenv

import (
	"cmp"
	"context"
	"encoding/json"
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
	// Namespace is the namespace the Web UI opens; empty means default.
	Namespace string
	// TLS, when set, is how the UI server reaches a frontend that asks for mutual TLS.
	TLS *UITLS
	// SignIn, when set, puts the Web UI behind sign-in at an OpenID Provider: its API
	// answers 401 to a request without the signed-in user's access token, and
	// forwards the token to the frontend, whose authorizer decides what the user
	// may read and do.
	SignIn *UISignIn
}

// UITLS is the UI server's client certificate and key, and the CA and name of the
// frontend's certificate (PEM files).
type UITLS struct {
	CA, Cert, Key, ServerName string
}

// UISignIn is the UI server's confidential client at an OpenID Provider (Issuer),
// to which the provider sends browsers back at CallbackURL (…/auth/sso/callback).
type UISignIn struct {
	Issuer, ClientID, ClientSecret, CallbackURL string
}

// uiConfig is the UI server's configuration, as JSON (which its YAML loader reads):
// the dev server's own UI settings, plus the codec server and its credentials,
// which the dev server cannot set, and o's TLS and sign-in.
func uiConfig(o UIOptions) ([]byte, error) {
	cfg := map[string]any{
		"temporalGrpcAddress": o.Frontend, "host": "127.0.0.1", "port": o.Port, "enableUi": true,
		"defaultNamespace": cmp.Or(o.Namespace, "default"), "hideLogs": true,
		"cors":  map[string]any{"cookieInsecure": true},
		"codec": map[string]any{"endpoint": o.CodecEndpoint, "includeCredentials": true},
	}
	if o.TLS != nil {
		cfg["tls"] = map[string]any{"caFile": o.TLS.CA, "certFile": o.TLS.Cert, "keyFile": o.TLS.Key,
			"serverName": o.TLS.ServerName, "enableHostVerification": true}
	}
	if o.SignIn != nil {
		cfg["auth"] = map[string]any{"enabled": true, "providers": []map[string]any{{
			"label": "Sign in", "type": "oidc", "providerUrl": o.SignIn.Issuer, "issuerUrl": o.SignIn.Issuer,
			"clientId": o.SignIn.ClientID, "clientSecret": o.SignIn.ClientSecret, "callbackUrl": o.SignIn.CallbackURL,
			"scopes": []string{"openid", "profile", "email"},
		}}}
	}
	return json.MarshalIndent(cfg, "", "  ")
}

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
	config, err := uiConfig(o)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.Dir, "config", "development.yaml"), config, 0o600); err != nil {
		return nil, err
	}
	p, tail, err := childproc.Start(o.Server, []string{"--root", o.Dir, "--config", "config", "--env", "development", "start"}, o.Output)
	if err != nil {
		return nil, fmt.Errorf("start the Temporal UI server (%s): %w", o.Server, err)
	}
	u := &TemporalUI{URL: fmt.Sprintf("http://127.0.0.1:%d", o.Port), p: p}
	for {
		// Behind sign-in the API answers no anonymous request: the UI server's own
		// health route says it serves.
		probe := uiHealthy
		if o.SignIn != nil {
			probe = uiServes
		}
		err := probe(ctx, u.URL)
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

// uiServes checks that the UI server at url answers its health route.
func uiServes(ctx context.Context, url string) error {
	return answersOK(ctx, url+"/healthz")
}

// Stop stops the UI server.
func (u *TemporalUI) Stop() { u.p.Stop() }
