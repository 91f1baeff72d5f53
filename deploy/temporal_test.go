package deploy_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"sigs.k8s.io/yaml"
)

// temporalServer is the part of deploy/temporal/temporal.yaml, rendered, that locks
// the server.
type temporalServer struct {
	Global struct {
		TLS struct {
			Internode, Frontend struct {
				Server struct {
					CertFile, KeyFile string
					RequireClientAuth bool
					ClientCaFiles     []string
				}
				Client struct {
					ServerName  string
					RootCaFiles []string
				}
			}
		}
		Authorization struct {
			JWTKeyProvider struct {
				KeySourceURIs []string
			}
			PermissionsClaimName, Audience, ClaimMapper, Authorizer string
		}
	}
	Services map[string]any
}

// renderTemporal renders deploy/temporal/temporal.yaml as the server does (a Go
// template with sprig's env and default) in the environment env, and returns it with
// every file path it names under TEMPORAL_CERTS.
func renderTemporal(t *testing.T, env map[string]string) (temporalServer, []string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("temporal", "temporal.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(raw), "# enable-template\n") {
		t.Fatal("temporal.yaml does not start with # enable-template: the server would not render it")
	}
	funcs := template.FuncMap{
		"env": func(name string) string { return env[name] },
		"default": func(d, v string) string {
			if v == "" {
				return d
			}
			return v
		},
	}
	var b strings.Builder
	if err := template.Must(template.New("temporal").Funcs(funcs).Parse(string(raw))).Execute(&b, nil); err != nil {
		t.Fatal(err)
	}
	var cfg temporalServer
	if err := yaml.Unmarshal([]byte(b.String()), &cfg); err != nil {
		t.Fatalf("rendered temporal.yaml is not YAML: %v\n%s", err, b.String())
	}
	var files []string
	for _, f := range strings.Fields(strings.NewReplacer(`"`, " ", "[", " ", "]", " ").Replace(b.String())) {
		if rest, ok := strings.CutPrefix(f, env["TEMPORAL_CERTS"]+"/"); ok && !slices.Contains(files, rest) {
			files = append(files, rest)
		}
	}
	return cfg, files
}

// TestTemporalServerLocked (issue 36, finding 1): the server's configuration, which
// docker-compose.yml and make cluster-test run, asks for a client certificate on
// every port, keeps the frontend's clients (their own CA) off the internal services,
// serves the system worker through the internal frontend, and has the frontend's
// default JWT claim mapper and authorizer check the provider's tokens for
// Temporal's audience.
func TestTemporalServerLocked(t *testing.T) {
	cfg, files := renderTemporal(t, map[string]string{"TEMPORAL_CERTS": "/certs", "TEMPORAL_JWKS_URL": "https://idp.example/jwks",
		"TEMPORAL_JWT_AUDIENCE": "temporal"})
	tls := cfg.Global.TLS
	for name, s := range map[string]bool{"internode": tls.Internode.Server.RequireClientAuth, "frontend": tls.Frontend.Server.RequireClientAuth} {
		if !s {
			t.Errorf("%s TLS does not require client certificates", name)
		}
	}
	if !slices.Equal(tls.Internode.Server.ClientCaFiles, []string{"/certs/server-ca.pem"}) ||
		!slices.Equal(tls.Frontend.Server.ClientCaFiles, []string{"/certs/clients-ca.pem"}) {
		t.Errorf("client CAs: internode %v, frontend %v; want the server CA for the services and the clients' CA for the frontend apart",
			tls.Internode.Server.ClientCaFiles, tls.Frontend.Server.ClientCaFiles)
	}
	if tls.Frontend.Server.CertFile == "" || tls.Internode.Server.CertFile == "" || tls.Internode.Client.ServerName == "" {
		t.Errorf("server certificates: %+v", tls)
	}
	a := cfg.Global.Authorization
	if a.Authorizer != "default" || a.ClaimMapper != "default" || a.PermissionsClaimName != "permissions" ||
		!slices.Equal(a.JWTKeyProvider.KeySourceURIs, []string{"https://idp.example/jwks"}) || a.Audience != "temporal" {
		t.Errorf("authorization = %+v; want the default claim mapper and authorizer on the provider's JWKS and Temporal's audience", a)
	}
	for _, s := range []string{"frontend", "internal-frontend", "history", "matching", "worker"} {
		if cfg.Services[s] == nil {
			t.Errorf("no service %s", s)
		}
	}
	want := []string{"internode.pem", "internode.key", "server-ca.pem", "frontend.pem", "frontend.key", "clients-ca.pem"}
	if slices.Sort(files); !slices.Equal(files, slices.Sorted(slices.Values(want))) {
		t.Errorf("certificate files %v, want %v", files, want)
	}
}
