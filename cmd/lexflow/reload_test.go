package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/llm/offline"
	promptfiles "github.com/lexflow/lexflow/prompts"
)

// separate is `lexflow api` and `lexflow worker` running as two processes on a
// Temporal dev server and a FerretDB of their own, with a recording model.
type separate struct {
	devEnv
	// opsURL is the worker's LEXFLOW_WORKER_HTTP_ADDR, metricsURL the API's
	// LEXFLOW_METRICS_ADDR, each as http://host:port.
	opsURL, metricsURL string
	promptsDir         string
	model              *stack.ModelRecorder
}

// startSeparate starts the two processes, with env added to their environment, and
// waits until the API answers.
func startSeparate(t *testing.T, env ...string) separate {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Temporal, FerretDB and two Lexflow processes")
	}
	d := newDevEnv(t).withCorpus()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ts, err := devenv.StartTemporal(ctx, devenv.TemporalOptions{CLI: cli, DBFile: filepath.Join(dir, "temporal.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Stop)
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ferret.Stop)

	promptsDir := filepath.Join(dir, "prompts")
	if err := os.CopyFS(promptsDir, promptfiles.Files); err != nil {
		t.Fatal(err)
	}
	model := stack.StartModelRecorder(t)
	opsPort, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	metricsPort, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	d.vars = append(d.vars, fmt.Sprintf("LEXFLOW_WORKER_HTTP_ADDR=127.0.0.1:%d", opsPort), fmt.Sprintf("LEXFLOW_METRICS_ADDR=127.0.0.1:%d", metricsPort),
		"TEMPORAL_ADDRESS="+ts.Address, "MONGODB_URI="+ferret.URI, "LEXFLOW_PROMPTS_DIR="+promptsDir,
		"LEXFLOW_ASSISTANT_BASE_URL="+model.URL+"/v1", "LEXFLOW_ASSISTANT_MODEL="+offline.ModelName,
		"LEXFLOW_JWT_SECRET=reload-test-secret-reload-test-secret", "LEXFLOW_MASTER_KEY=reload-test-master-key-reload-test-master-key")
	d.vars = append(d.vars, env...)
	for _, role := range []string{"worker", "api"} {
		cmd := d.command(role)
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if t.Failed() {
				t.Logf("lexflow %s:\n%s", role, out.String())
			}
		})
	}
	d.waitHealthy(t)
	return separate{devEnv: d, opsURL: fmt.Sprintf("http://127.0.0.1:%d", opsPort), metricsURL: fmt.Sprintf("http://127.0.0.1:%d", metricsPort),
		promptsDir: promptsDir, model: model}
}

// TestReloadReachesSeparateWorker runs `lexflow api` and `lexflow worker` as separate
// processes on one prompts directory, edits a prompt file so that its size and
// modification time stay the same (as a ConfigMap swap or `cp -p` leaves them, which the
// worker's own change check cannot see), and checks that the worker's model calls use
// the new text after POST /v1/admin/prompts/reload on the API, and not before.
func TestReloadReachesSeparateWorker(t *testing.T) {
	p := startSeparate(t)
	d, model, promptsDir, workerHealth := p.devEnv, p.model, p.promptsDir, p.opsURL
	user, admin := d.token(t, "--sub", "rita", "--org", "reload"), d.token(t, "--sub", "root", "--role", "admin", "--operator")
	d.call(t, "PUT", "/v1/admin/subscriptions/org:reload", admin, map[string]any{"plan": "firm", "credits": map[string]int{"1": 5, "2": 5, "3": 5}})
	id := d.call(t, "POST", "/v1/cases", user, map[string]any{"description": "Neighbour's tree damaged my roof", "language": "en"})["case_id"].(string)
	// turn sends a message and returns the latest request to the assistant role.
	turn := func(msg string) string {
		t.Helper()
		d.call(t, "POST", "/v1/cases/"+id+"/messages", user, map[string]any{"message": msg})
		seen := model.Seen()
		for i := len(seen) - 1; i >= 0; i-- {
			if strings.Contains(seen[i], "Role: assistant") {
				return seen[i]
			}
		}
		return ""
	}
	if got := turn("hello"); !strings.Contains(got, "# Lexflow assistant") {
		t.Fatalf("the first turn's system prompt lacks the shipped heading: %.200s", got)
	}
	// The worker, which has answered a turn, is healthy by `lexflow probe`, the
	// containers' health check; a refusal or no URL fails the probe.
	if out, err := d.command("probe", workerHealth+"/readyz").CombinedOutput(); err != nil || !strings.Contains(string(out), `"corpus":"ok"`) {
		t.Errorf("probe %s/readyz: %v\n%s", workerHealth, err, out)
	}
	if out, err := d.command("probe", workerHealth+"/healthz").CombinedOutput(); err != nil || !strings.Contains(string(out), `"status":"ok"`) {
		t.Errorf("probe %s/healthz: %v\n%s", workerHealth, err, out)
	}
	for _, args := range [][]string{{"probe", d.httpURL + "/v1/cases"}, {"probe"}} {
		if out, err := d.command(args...).CombinedOutput(); err == nil {
			t.Errorf("lexflow %v succeeded: %s", args, out)
		}
	}

	// The same number of bytes, the same modification time: only a reload can tell.
	path := filepath.Join(promptsDir, "assistant.en.md")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)
	edited := bytes.Replace(old, []byte("# Lexflow assistant"), []byte("# Reloaded counsel!"), 1)
	if len(edited) != len(old) || bytes.Equal(edited, old) {
		t.Fatal("the edit must change the text and keep its size")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := turn("hello again"); strings.Contains(got, "# Reloaded counsel!") {
		t.Fatalf("the worker used the edited prompt before any reload; the test cannot tell a reload apart")
	}
	reload := d.call(t, "POST", "/v1/admin/prompts/reload", admin, nil)
	if v, _ := reload["version"].(float64); v < 1 || reload["docs_count"] == nil {
		t.Errorf("reload answered %v; want the report and a version", reload)
	}
	if got := turn("and now?"); !strings.Contains(got, "# Reloaded counsel!") {
		t.Errorf("after the reload the worker's system prompt is still the old one: %.200s", got)
	}
}

// waitHealthy waits until the API answers /readyz with 200.
func (d devEnv) waitHealthy(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(d.httpURL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the API is not healthy after two minutes: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// token mints a token with `lexflow token` and the given flags.
func (d devEnv) token(t *testing.T, flags ...string) string {
	t.Helper()
	out, err := d.command(append([]string{"token"}, flags...)...).Output()
	if err != nil {
		t.Fatalf("lexflow token %v: %v", flags, err)
	}
	return strings.TrimSpace(string(out))
}
