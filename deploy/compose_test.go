// Package deploy_test checks the deployment files that no engine can run here against
// Lexflow's configuration, route table and Makefile: the root docker-compose.yml,
// loaded by compose-go as `docker compose` loads it, the Dockerfile, and the Kubernetes
// overlays, rendered by kustomize's Go API and decoded into the Kubernetes API's types.
package deploy_test

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/wiring"
)

// root is the repository, where docker-compose.yml and the Dockerfile live.
const root = ".."

// loadCompose loads docker-compose.yml with every profile, in an empty environment,
// without reading the env files, which are not committed.
func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{filepath.Join(root, "docker-compose.yml")},
		cli.WithWorkingDirectory(root), cli.WithEnv(nil), cli.WithoutEnvironmentResolution, cli.WithProfiles([]string{"*"}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(t.Context())
	if err != nil {
		t.Fatalf("compose-go refuses docker-compose.yml: %v", err)
	}
	return p
}

// jobs run once and exit; every other service runs for good.
var jobs = []string{"temporal-schema", "temporal-namespace"}

// lexflowServices are the services that run the lexflow image, and their commands.
var lexflowServices = map[string]string{"api-a": "api", "api-b": "api", "worker": "worker"}

// secrets are variables that must come from an env file, never from the compose file.
var secrets = []string{"LEXFLOW_JWT_SECRET", "LEXFLOW_MASTER_KEY", "LEXFLOW_ASSISTANT_API_KEY", "LEXFLOW_REASONER_API_KEY",
	"LEXFLOW_STRIPE_KEY", "LEXFLOW_PAYMENTS_WEBHOOK_SECRET", "POSTGRES_PASSWORD", "POSTGRES_PWD", "SQL_PASSWORD",
	"LEXFLOW_TEMPORAL_CLIENT_SECRET", "TEMPORAL_AUTH_CLIENT_SECRET", "LEXFLOW_SMTP_PASSWORD"}

// TestComposeServices: the services deploy/README.md promises, each long-running one with a
// health check and a restart policy, started in order of health.
func TestComposeServices(t *testing.T) {
	p := loadCompose(t)
	want := []string{"api-a", "api-b", "mongo", "postgresql", "searxng", "temporal", "temporal-namespace", "temporal-schema",
		"temporal-ui", "worker"}
	if got := slices.Sorted(slices.Values(p.ServiceNames())); !slices.Equal(got, want) {
		t.Fatalf("services = %v, want %v", got, want)
	}
	for name, s := range p.Services {
		if slices.Contains(jobs, name) {
			// A job restarted after it succeeded would never be done for those waiting on it.
			if s.Restart != "no" && !strings.HasPrefix(s.Restart, "on-failure") {
				t.Errorf("job %s restarts %q; want on-failure or no", name, s.Restart)
			}
			continue
		}
		if s.Restart == "" || s.Restart == "no" {
			t.Errorf("%s has no restart policy", name)
		}
		if s.HealthCheck == nil || s.HealthCheck.Disable || len(s.HealthCheck.Test) == 0 {
			t.Errorf("%s has no health check", name)
		}
		for _, v := range s.Volumes {
			if v.Type == types.VolumeTypeVolume && p.Volumes[v.Source].Name == "" {
				t.Errorf("%s mounts %s, which is not a named volume of the project", name, v.Source)
			}
		}
		for key := range s.Environment {
			if slices.Contains(secrets, key) {
				t.Errorf("%s sets the secret %s in the compose file; it belongs in an env file", name, key)
			}
		}
	}
	for service, deps := range map[string]map[string]string{
		"temporal-schema":    {"postgresql": types.ServiceConditionHealthy},
		"temporal":           {"temporal-schema": types.ServiceConditionCompletedSuccessfully},
		"temporal-namespace": {"temporal": types.ServiceConditionHealthy},
		"temporal-ui":        {"temporal": types.ServiceConditionHealthy},
		"api-a":              {"temporal": types.ServiceConditionHealthy, "temporal-namespace": types.ServiceConditionCompletedSuccessfully, "mongo": types.ServiceConditionHealthy},
		"api-b":              {"temporal": types.ServiceConditionHealthy, "temporal-namespace": types.ServiceConditionCompletedSuccessfully, "mongo": types.ServiceConditionHealthy},
		"worker":             {"temporal": types.ServiceConditionHealthy, "temporal-namespace": types.ServiceConditionCompletedSuccessfully, "mongo": types.ServiceConditionHealthy},
	} {
		got := p.Services[service].DependsOn
		for dep, cond := range deps {
			if got[dep].Condition != cond {
				t.Errorf("%s waits for %s with %q, want %q", service, dep, got[dep].Condition, cond)
			}
		}
	}
	if w := p.Services["worker"].Deploy; w == nil || w.Replicas == nil || *w.Replicas != 2 {
		t.Errorf("the worker runs %v replicas, want 2", w)
	}
	if s := p.Services["searxng"]; !slices.Equal(s.Profiles, []string{"search"}) {
		t.Errorf("searxng's profiles = %v, want only search: it is optional", s.Profiles)
	}
}

// TestComposeLexflowConfiguration: each Lexflow service runs the image with its
// command, sets only variables config knows, takes its secrets from the env file whose
// committed example sets only variables config knows, and starts with that
// configuration; its health check probes the address it serves.
func TestComposeLexflowConfiguration(t *testing.T) {
	p := loadCompose(t)
	known := map[string]bool{}
	for _, v := range config.Vars {
		known[v.Name] = true
	}
	example := readEnvFile(t, filepath.Join(root, "deploy", "compose", "lexflow.env.example"))
	for key := range example {
		if !known[key] {
			t.Errorf("lexflow.env.example sets %s, which Lexflow does not read", key)
		}
	}
	for name, command := range lexflowServices {
		s := p.Services[name]
		if s.Build == nil || !slices.Equal(s.Command, []string{command}) {
			t.Errorf("%s: build %v, command %v; want the image built here running %q", name, s.Build, s.Command, command)
		}
		if len(s.EnvFiles) != 1 || !strings.HasSuffix(s.EnvFiles[0].Path, "deploy/compose/lexflow.env") || !bool(s.EnvFiles[0].Required) {
			t.Errorf("%s's env files = %+v, want deploy/compose/lexflow.env, required", name, s.EnvFiles)
		}
		if !slices.ContainsFunc(s.Volumes, func(v types.ServiceVolumeConfig) bool { return v.Source == "lexflow-data" && v.Target == "/data" }) {
			t.Errorf("%s does not share the lexflow-data volume at /data, where the draft PDFs are", name)
		}
		env := map[string]string{}
		for key, value := range s.Environment {
			if !known[key] {
				t.Errorf("%s sets %s, which Lexflow does not read", name, key)
			}
			if value != nil {
				env[key] = *value
			}
		}
		// The configuration the process would start with: the compose file's
		// variables and the env file's, filled in as its comments ask.
		t.Run(name, func(t *testing.T) {
			for key := range known {
				t.Setenv(key, "")
				os.Unsetenv(key)
			}
			// An empty KEY= in an env file is set, empty, as compose passes it.
			for key, value := range example {
				if value == "" && (key == "LEXFLOW_JWT_SECRET" || key == "LEXFLOW_MASTER_KEY") {
					value = strings.Repeat("s", 64)
				}
				t.Setenv(key, value)
			}
			for key, value := range env {
				t.Setenv(key, value)
			}
			cfg, err := config.FromEnv()
			if err != nil {
				t.Fatalf("lexflow would not start: %v", err)
			}
			if err := wiring.RequireSecrets(cfg, command == "api"); err != nil {
				t.Errorf("lexflow %s would stop: %v", command, err)
			}
			addr := cfg.HTTPAddr
			if command == "worker" {
				addr = cfg.WorkerHTTPAddr
			}
			// It serves on every interface of its container, and probes that port for
			// readiness, so that depends_on waits until it can work.
			host, port, err := net.SplitHostPort(addr)
			if err != nil || (host != "0.0.0.0" && host != "::" && host != "") {
				t.Errorf("it serves on %q (%v); want every interface of its container", addr, err)
			}
			probe := []string{"CMD", "/lexflow", "probe", "http://127.0.0.1:" + port + "/readyz"}
			if !slices.Equal(s.HealthCheck.Test, probe) {
				t.Errorf("health check %v, want %v: the address it serves (%q)", s.HealthCheck.Test, probe, addr)
			}
			if cfg.TemporalAddress != "temporal:7233" || !strings.Contains(cfg.MongoURI, "replicaSet=rs0") {
				t.Errorf("Temporal %s, MongoDB %s: want the compose services", cfg.TemporalAddress, cfg.MongoURI)
			}
		})
	}
	// The Web UI decrypts through the API that LEXFLOW_PUBLIC_URL names, sending the
	// codec session's cookie, and it is where LEXFLOW_TEMPORAL_UI_URL says.
	ui := p.Services["temporal-ui"].Environment
	api := p.Services["api-a"].Environment
	if got, want := value(ui["TEMPORAL_CODEC_ENDPOINT"]), value(api["LEXFLOW_PUBLIC_URL"])+"/codec"; got != want {
		t.Errorf("the Web UI's codec endpoint = %q, want %q", got, want)
	}
	if value(ui["TEMPORAL_CODEC_INCLUDE_CREDENTIALS"]) != "true" {
		t.Error("the Web UI does not send the codec session's cookie")
	}
	published := p.Services["temporal-ui"].Ports
	if len(published) != 1 || !strings.HasSuffix(value(api["LEXFLOW_TEMPORAL_UI_URL"]), ":"+published[0].Published) {
		t.Errorf("LEXFLOW_TEMPORAL_UI_URL = %q, but the Web UI is published on %+v", value(api["LEXFLOW_TEMPORAL_UI_URL"]), published)
	}
}

// TestEnvFilesStayLocal: the env files the compose file reads hold secrets, so git and
// the image's build context leave them out; their examples are committed.
func TestEnvFilesStayLocal(t *testing.T) {
	p := loadCompose(t)
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, s := range p.Services {
		for _, f := range s.EnvFiles {
			rel, err := filepath.Rel(abs, f.Path)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.ToSlash(rel)] = true
		}
	}
	if len(files) != 3 {
		t.Errorf("env files %v, want lexflow.env, temporal.env and temporal-ui.env", files)
	}
	gitignore, dockerignore := readLines(t, filepath.Join(root, ".gitignore")), readLines(t, filepath.Join(root, ".dockerignore"))
	for file := range files {
		if !matchesAny(gitignore, "/"+file) {
			t.Errorf(".gitignore does not ignore %s", file)
		}
		if !matchesAny(dockerignore, file) {
			t.Errorf(".dockerignore does not leave %s out of the image", file)
		}
		if _, err := os.Stat(filepath.Join(root, file+".example")); err != nil {
			t.Errorf("%s has no committed example: %v", file, err)
		}
	}
}

// TestDockerfileBuildsAsMakeDoes: the image's binary is built by the Makefile's own
// GO_BUILD command, and runs as a user other than root on Debian's slim image with the
// commands internal/doctext runs to read documents, and the make ocr target's
// languages.
func TestDockerfileBuildsAsMakeDoes(t *testing.T) {
	var goBuild string
	for _, line := range readLines(t, filepath.Join(root, "Makefile")) {
		if v, ok := strings.CutPrefix(line, "GO_BUILD := "); ok {
			goBuild = v
		}
	}
	if goBuild == "" {
		t.Fatal("the Makefile defines no GO_BUILD")
	}
	docker := readLines(t, filepath.Join(root, "Dockerfile"))
	if !slices.Contains(docker, "RUN "+goBuild+" -o /out/lexflow ./cmd/lexflow") {
		t.Errorf("the Dockerfile does not build with the Makefile's %q", goBuild)
	}
	var froms []string
	user := ""
	for _, line := range docker {
		if from, ok := strings.CutPrefix(line, "FROM "); ok {
			froms = append(froms, from)
		}
		if u, ok := strings.CutPrefix(line, "USER "); ok {
			user = u
		}
	}
	if len(froms) != 2 || froms[1] != "debian:bookworm-slim" {
		t.Errorf("stages %v, want a build stage and Debian's slim one", froms)
	}
	install := strings.Join(docker, "\n")
	for _, pkg := range []string{"poppler-utils", "tesseract-ocr", "tesseract-ocr-ron", "tesseract-ocr-ita"} {
		if !strings.Contains(install, " "+pkg+" ") {
			t.Errorf("the image does not install %s, which reading documents needs", pkg)
		}
	}
	if user == "" || user == "root" || strings.HasPrefix(user, "0") {
		t.Errorf("the image runs as %q, want a user other than root", user)
	}
	if !slices.Contains(docker, `ENTRYPOINT ["/lexflow"]`) {
		t.Error(`the image's entry point is not ["/lexflow"]`)
	}
}

func value(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}

// readEnvFile reads KEY=value lines, skipping comments and blank lines.
func readEnvFile(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range readLines(t, path) {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || !envKey.MatchString(key) {
			t.Errorf("%s: %q is not KEY=value", path, line)
			continue
		}
		out[key] = value
	}
	return out
}

var envKey = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// matchesAny reports whether an ignore file's patterns (globs, as git and Docker read
// the simple ones used here) match name.
func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if p = strings.TrimSpace(p); p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}
