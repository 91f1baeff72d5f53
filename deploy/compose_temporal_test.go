package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/schemas"
)

// certMounts maps each file a service mounts read-only from ./deploy/compose/certs to
// where it mounts it.
func certMounts(s types.ServiceConfig) map[string]string {
	out := map[string]string{}
	for _, v := range s.Volumes {
		if v.Type == types.VolumeTypeBind && strings.Contains(filepath.ToSlash(v.Source), "deploy/compose/certs/") {
			if !v.ReadOnly {
				continue
			}
			out[filepath.Base(v.Source)] = v.Target
		}
	}
	return out
}

// TestComposeLocksTemporal (issue 36, finding 1): docker-compose.yml runs the
// Temporal server with deploy/temporal/temporal.yaml and every certificate it names;
// Lexflow's processes reach it with a client certificate and a client-credentials
// token; the Web UI reaches it with its own certificate and is behind sign-in; and
// the namespace job registers the namespace and Lexflow's search attributes as an
// administrator through the internal frontend. Nothing is published but the APIs and
// the Web UI.
func TestComposeLocksTemporal(t *testing.T) {
	p := loadCompose(t)
	server := p.Services["temporal"]
	command := strings.Join(server.Command, " ")
	for _, want := range []string{"--config lexflow", "--env temporal", "--service frontend", "--service internal-frontend",
		"--service history", "--service matching", "--service worker"} {
		if !strings.Contains(command, want) {
			t.Errorf("the temporal service runs %q, which lacks %q", command, want)
		}
	}
	if !slices.ContainsFunc(server.Volumes, func(v types.ServiceVolumeConfig) bool {
		return strings.HasSuffix(filepath.ToSlash(v.Source), "deploy/temporal/temporal.yaml") && v.Target == "/etc/temporal/lexflow/temporal.yaml"
	}) {
		t.Error("the temporal service does not mount deploy/temporal/temporal.yaml as its configuration")
	}
	certs := value(server.Environment["TEMPORAL_CERTS"])
	_, files := renderTemporal(t, map[string]string{"TEMPORAL_CERTS": certs})
	mounted := certMounts(server)
	for _, f := range files {
		if mounted[f] != certs+"/"+f {
			t.Errorf("the temporal service mounts %s at %q, want %s/%s, read-only", f, mounted[f], certs, f)
		}
	}
	temporalEnv := readEnvFile(t, filepath.Join(root, "deploy", "compose", "temporal.env.example"))
	for _, key := range []string{"TEMPORAL_JWKS_URL", "TEMPORAL_JWT_AUDIENCE"} {
		if _, ok := temporalEnv[key]; !ok {
			t.Errorf("temporal.env.example lacks %s, which the server's authorizer needs", key)
		}
	}
	for name, s := range p.Services {
		if len(s.Ports) > 0 && name != "temporal-ui" && !strings.HasPrefix(name, "api-") {
			t.Errorf("%s publishes %v: only the APIs and the Web UI face the outside", name, s.Ports)
		}
	}

	// Lexflow's processes: a client certificate from the clients' CA, and a token.
	lexflowEnv := readEnvFile(t, filepath.Join(root, "deploy", "compose", "lexflow.env.example"))
	for name := range lexflowServices {
		s := p.Services[name]
		t.Run(name, func(t *testing.T) {
			for key, v := range lexflowEnv {
				t.Setenv(key, v)
			}
			t.Setenv("LEXFLOW_JWT_SECRET", strings.Repeat("s", 64))
			t.Setenv("LEXFLOW_MASTER_KEY", strings.Repeat("m", 64))
			for key, v := range s.Environment {
				t.Setenv(key, value(v))
			}
			t.Setenv("LEXFLOW_TEMPORAL_TOKEN_URL", "https://idp.example/oauth/token")
			t.Setenv("LEXFLOW_TEMPORAL_CLIENT_ID", "lexflow")
			t.Setenv("LEXFLOW_TEMPORAL_CLIENT_SECRET", "secret")
			cfg, err := config.FromEnv()
			if err != nil {
				t.Fatal(err)
			}
			a := cfg.TemporalAuth
			mounted := certMounts(s)
			if a.CA != mounted["server-ca.pem"] || a.Cert != mounted["lexflow.pem"] || a.Key != mounted["lexflow.key"] || a.CA == "" || a.Cert == "" {
				t.Errorf("TLS settings %+v, certificates mounted %v; want the server CA and lexflow's certificate", a, mounted)
			}
			if a.Audience != temporalEnv["TEMPORAL_JWT_AUDIENCE"] {
				t.Errorf("Lexflow asks for tokens for %q, the server takes %q", a.Audience, temporalEnv["TEMPORAL_JWT_AUDIENCE"])
			}
			for _, key := range []string{"LEXFLOW_TEMPORAL_TOKEN_URL", "LEXFLOW_TEMPORAL_CLIENT_ID", "LEXFLOW_TEMPORAL_CLIENT_SECRET"} {
				if _, ok := lexflowEnv[key]; !ok {
					t.Errorf("lexflow.env.example lacks %s", key)
				}
			}
			if value(s.Environment["TEMPORAL_NAMESPACE"]) != "lexflow" {
				t.Errorf("namespace %q, want lexflow, which the namespace job makes", value(s.Environment["TEMPORAL_NAMESPACE"]))
			}
		})
	}

	// The Web UI: its own certificate, sign-in at the provider.
	ui := p.Services["temporal-ui"]
	uiMounts := certMounts(ui)
	for key, want := range map[string]string{"TEMPORAL_TLS_CA": uiMounts["server-ca.pem"], "TEMPORAL_TLS_CERT": uiMounts["temporal-ui.pem"],
		"TEMPORAL_TLS_KEY": uiMounts["temporal-ui.key"], "TEMPORAL_TLS_ENABLE_HOST_VERIFICATION": "true", "TEMPORAL_AUTH_ENABLED": "true"} {
		if got := value(ui.Environment[key]); got != want || got == "" {
			t.Errorf("the Web UI's %s = %q, want %q", key, got, want)
		}
	}
	uiEnv := readEnvFile(t, filepath.Join(root, "deploy", "compose", "temporal-ui.env.example"))
	for _, key := range []string{"TEMPORAL_AUTH_PROVIDER_URL", "TEMPORAL_AUTH_CLIENT_ID", "TEMPORAL_AUTH_CLIENT_SECRET"} {
		if _, ok := uiEnv[key]; !ok {
			t.Errorf("temporal-ui.env.example lacks %s", key)
		}
	}

	// The namespace job: the internal frontend, the internode certificate, every
	// search attribute Lexflow's workflows set.
	job := p.Services["temporal-namespace"]
	script := strings.Join(job.Command, "\n")
	jobMounts := certMounts(job)
	for _, want := range []string{"temporal:7236", "--tls-cert-path " + jobMounts["internode.pem"], "--tls-key-path " + jobMounts["internode.key"],
		"namespace create -n lexflow"} {
		if !strings.Contains(script, want) {
			t.Errorf("the namespace job's script lacks %q:\n%s", want, script)
		}
	}
	for name, typ := range schemas.SearchAttributes {
		if !strings.Contains(script, " "+name+":"+typ.String()+" ") && !strings.Contains(script, " "+name+":"+typ.String()+";") {
			t.Errorf("the namespace job does not create the search attribute %s (%s)", name, typ)
		}
	}
}

// TestComposeCertificates runs deploy/compose/make-certs.sh (with openssl, when the
// machine has it) and checks that it makes every certificate docker-compose.yml
// mounts, each chaining to its CA for the names and uses it serves.
func TestComposeCertificates(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "compose"), 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("compose", "make-certs.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose", "make-certs.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", filepath.Join(dir, "compose", "make-certs.sh")).CombinedOutput(); err != nil {
		t.Fatalf("make-certs.sh: %v\n%s", err, out)
	}
	certs := filepath.Join(dir, "compose", "certs")
	for name, s := range loadCompose(t).Services {
		for f := range certMounts(s) {
			if _, err := os.Stat(filepath.Join(certs, f)); err != nil {
				t.Errorf("%s mounts %s, which make-certs.sh does not make", name, f)
			}
		}
	}
	for _, c := range []struct{ ca, name, dns, use string }{
		{"server", "internode", "temporal-internode", "server"}, {"server", "internode", "temporal-internode", "client"},
		{"server", "frontend", "temporal", "server"}, {"clients", "lexflow", "", "client"}, {"clients", "temporal-ui", "", "client"},
	} {
		if err := verifyCert(filepath.Join(certs, c.ca+"-ca.pem"), filepath.Join(certs, c.name+".pem"), c.dns, c.use); err != nil {
			t.Errorf("%s (%s, from the %s CA): %v", c.name, c.use, c.ca, err)
		}
	}
	if err := verifyCert(filepath.Join(certs, "server-ca.pem"), filepath.Join(certs, "lexflow.pem"), "", "client"); err == nil {
		t.Error("Lexflow's certificate chains to the server CA, which the internal services trust")
	}
}
