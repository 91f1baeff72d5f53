package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/testcorpus"
)

// asCommand makes the test binary act as the lexflow command when this is set, so the
// tests run the real program without building it separately.
const asCommand = "LEXFLOW_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) != "" {
		main()
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "lexflow-cmd-")
	if err != nil {
		panic(err)
	}
	if corpusDB, err = testcorpus.Path(context.Background(), dir); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// corpusDB is the legal corpus the tests that start the product share, so that none
// of them builds one on first start.
var corpusDB string

// withCorpus points the environment at the shared corpus.
func (d devEnv) withCorpus() devEnv {
	d.vars = append(d.vars, "LEXFLOW_CORPUS_DB="+corpusDB)
	return d
}

// devEnv is the environment of one `lexflow dev` on free ports and its own data directory.
type devEnv struct {
	vars    []string
	httpURL string
	uiURL   string
	ports   []string
}

func newDevEnv(t *testing.T) devEnv {
	t.Helper()
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		t.Fatal(err)
	}
	ui, err := devenv.FindTemporalUI("bin/temporal-ui")
	if err != nil {
		t.Fatal(err)
	}
	port := func() int {
		p, err := childproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	temporalPort, uiPort, httpPort, mongoPort, firestorePort := port(), port(), port(), port(), port()
	d := devEnv{
		vars: []string{
			asCommand + "=1",
			"LEXFLOW_DATA_DIR=" + t.TempDir(),
			"LEXFLOW_TEMPORAL_CLI=" + cli,
			"LEXFLOW_TEMPORAL_UI_SERVER=" + ui,
			fmt.Sprintf("TEMPORAL_ADDRESS=127.0.0.1:%d", temporalPort),
			fmt.Sprintf("LEXFLOW_TEMPORAL_UI_PORT=%d", uiPort),
			fmt.Sprintf("LEXFLOW_HTTP_ADDR=127.0.0.1:%d", httpPort),
			fmt.Sprintf("LEXFLOW_DEV_MONGO_ADDR=127.0.0.1:%d", mongoPort),
			"MONGODB_URI=",
			fmt.Sprintf("LEXFLOW_DEV_FIRESTORE_ADDR=127.0.0.1:%d", firestorePort),
			"FIRESTORE_EMULATOR_HOST=",
		},
		httpURL: fmt.Sprintf("http://127.0.0.1:%d", httpPort),
		uiURL:   fmt.Sprintf("http://127.0.0.1:%d", uiPort),
	}
	for _, p := range []int{temporalPort, uiPort, httpPort, mongoPort, firestorePort} {
		d.ports = append(d.ports, fmt.Sprintf("127.0.0.1:%d", p))
	}
	return d
}

func (d devEnv) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), d.vars...)
	return cmd
}

// devProc is a running `lexflow dev`; exited yields its Wait's error once it exits.
type devProc struct {
	cmd    *exec.Cmd
	exited chan error
}

// start runs `lexflow dev` and waits until its API answers /readyz, failing at once
// if it exits first.
func (d devEnv) start(t *testing.T) *devProc {
	t.Helper()
	cmd := d.command("dev")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &devProc{cmd: cmd, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.After(3 * time.Minute)
	for {
		resp, err := http.Get(d.httpURL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case werr := <-p.exited:
			t.Fatalf("lexflow dev exited (%v) before it was ready:\n%s", werr, out.String())
		case <-deadline:
			t.Fatalf("lexflow dev not ready within 3 minutes: %v\n%s", err, out.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	// The banner comes before the API serves, but through the pipe os/exec copies
	// from: it may reach out just after /readyz answers.
	for until := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), loopbackNotice) && time.Now().Before(until); {
		time.Sleep(50 * time.Millisecond) // polling the output, as /readyz above
	}
	for _, want := range []string{"Lexflow is running", "Temporal UI  " + d.uiURL, "lexflow token --sub alice", loopbackNotice} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, out.String())
		}
	}
	d.onlyOnLoopback(t, d.ports[0], d.ports[1])
	return p
}

// onlyOnLoopback checks that nothing answers on the loopback addresses' ports at the
// machine's other addresses: the dev server and its Web UI are open, as the banner
// says, so they must not be reachable from elsewhere.
func (d devEnv) onlyOnLoopback(t *testing.T, addrs ...string) {
	t.Helper()
	ifaddrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range ifaddrs {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.IsLoopback() || ip.IP.To4() == nil {
			continue
		}
		for _, addr := range addrs {
			_, port, _ := net.SplitHostPort(addr)
			if c, err := net.DialTimeout("tcp", net.JoinHostPort(ip.IP.String(), port), time.Second); err == nil {
				c.Close()
				t.Errorf("%s answers at %s too", addr, ip.IP)
			}
		}
	}
}

// stop interrupts `lexflow dev` as Ctrl-C does and checks that everything it started is
// gone: every port it listened on is free again.
func (d devEnv) stop(t *testing.T, p *devProc) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.exited:
		if err != nil {
			t.Fatalf("lexflow dev exited with %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("lexflow dev did not stop within a minute of Ctrl-C")
	}
	for _, addr := range d.ports {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after lexflow dev stopped", addr)
		}
	}
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (d devEnv) call(t *testing.T, method, path, tok string, body any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, d.httpURL+path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// status sends a request without a body and returns its status code.
func (d devEnv) status(t *testing.T, method, path, tok string) int {
	t.Helper()
	req, _ := http.NewRequest(method, d.httpURL+path, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestDevRoundTrip is the README's story: start lexflow dev, mint a token, open a case,
// ask for its details, stop with Ctrl-C, start again and carry on with the same case.
func TestDevRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the whole product twice")
	}
	d := newDevEnv(t).withCorpus()
	tok := d.token(t, "--sub", "alice", "--org", "acme", "--role", "user")
	admin := d.token(t, "--sub", "root", "--role", "admin", "--operator")

	cmd := d.start(t)
	d.call(t, "PUT", "/v1/admin/subscriptions/org:acme", admin, map[string]any{"plan": "firm", "credits": map[string]int{"1": 5, "2": 5, "3": 5}})
	created := d.call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Neighbour's tree damaged my roof"})
	id := created["case_id"].(string)
	turn := d.call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"})
	if tools := turn["tools_used"].([]any); len(tools) != 1 || tools[0].(map[string]any)["tool"] != "get_case_details" {
		t.Fatalf("first turn: %v", turn)
	}
	resp, err := http.Get(d.uiURL + "/api/v1/namespaces/default/workflows/case:" + id)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("Web UI does not show the case: %v %v", err, resp)
	}
	resp.Body.Close()
	// The Web UI decodes payloads with the API's codec server.
	resp, err = http.Get(d.uiURL + "/api/v1/settings")
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Codec struct {
			Endpoint           string
			IncludeCredentials bool
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&settings); err != nil || settings.Codec.Endpoint != d.httpURL+"/codec" || !settings.Codec.IncludeCredentials {
		t.Errorf("Web UI settings: codec %+v, %v; want the API's /codec, with credentials", settings.Codec, err)
	}
	resp.Body.Close()
	d.stop(t, cmd)

	cmd = d.start(t)
	turn = d.call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "fact: the storm was on 2 May"})
	if turn["turn_id"] != "case:"+id+":turn:2" {
		t.Fatalf("second turn after restart: %v", turn)
	}
	got := d.call(t, "GET", "/v1/cases/"+id, tok, nil)
	if facts := got["case_details"].(map[string]any)["facts"].([]any); len(facts) != 1 {
		t.Errorf("facts after restart = %v", facts)
	}
	msgs := d.call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil)["messages"].([]any)
	if len(msgs) != 8 { // the welcome and tiering notices, then three records per turn
		t.Errorf("transcript after restart has %d records, want 8", len(msgs))
	}
	d.stop(t, cmd)
}

// TestDevOnFirestore runs `LEXFLOW_STORE=firestore lexflow dev`: the whole product on
// the Firestore emulator it starts, for two turns of a case; run again, it starts
// afresh, as the emulator keeps nothing.
func TestDevOnFirestore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the whole product twice")
	}
	d := newDevEnv(t).withCorpus()
	d.vars = append(d.vars, "LEXFLOW_STORE=firestore")
	tok := d.token(t, "--sub", "alice", "--role", "user")
	admin := d.token(t, "--sub", "root", "--role", "admin", "--operator")

	cmd := d.start(t)
	d.call(t, "PUT", "/v1/admin/subscriptions/user:alice", admin, map[string]any{"plan": "solo", "credits": map[string]int{"1": 5, "2": 5, "3": 5}})
	id := d.call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Neighbour's tree damaged my roof"})["case_id"].(string)
	d.call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "show me the case details"})
	turn := d.call(t, "POST", "/v1/cases/"+id+"/messages", tok, map[string]any{"message": "fact: the storm was on 2 May"})
	if turn["turn_id"] != "case:"+id+":turn:2" {
		t.Fatalf("second turn: %v", turn)
	}
	got := d.call(t, "GET", "/v1/cases/"+id, tok, nil)
	if facts := got["case_details"].(map[string]any)["facts"].([]any); len(facts) != 1 {
		t.Errorf("facts = %v, want the one the second turn recorded", facts)
	}
	if msgs := d.call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil)["messages"].([]any); len(msgs) != 8 {
		t.Errorf("transcript has %d records, want 8: the welcome and tiering notices, then three per turn", len(msgs))
	}
	d.stop(t, cmd)

	cmd = d.start(t)
	if code := d.status(t, "GET", "/v1/cases/"+id, tok); code != http.StatusNotFound {
		t.Errorf("GET the case after a restart on the emulator = %d, want 404: it starts afresh", code)
	}
	d.stop(t, cmd)
}

func TestTokenNeedsSubject(t *testing.T) {
	d := newDevEnv(t)
	if out, err := d.command("token", "--org", "acme").CombinedOutput(); err == nil {
		t.Fatalf("lexflow token without --sub succeeded: %s", out)
	}
	if out, err := d.command("token", "--sub", "a", "--role", "root").CombinedOutput(); err == nil {
		t.Fatalf("lexflow token with an unknown role succeeded: %s", out)
	}
}

func TestUnknownCommand(t *testing.T) {
	out, err := newDevEnv(t).command("frobnicate").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "unknown command") {
		t.Fatalf("lexflow frobnicate: %v %s", err, out)
	}
}

// TestCorpusLoad builds the shipped corpus with `lexflow corpus load`, as built
// without the race detector: make test's first step builds that binary already (so
// here it links from the cache), and under the race detector the corpus's analysis and
// its learned model took over three minutes of the suite. The race detector still
// sees the loaders in package corpus's tests (a synthetic corpus) and the training in
// package learned's.
func TestCorpusLoad(t *testing.T) {
	d := newDevEnv(t)
	bin := filepath.Join(t.TempDir(), "lexflow")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "github.com/lexflow/lexflow/cmd/lexflow").CombinedOutput(); err != nil {
		t.Fatalf("go build lexflow: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	load := exec.CommandContext(ctx, bin, "corpus", "load")
	load.Env = append(os.Environ(), d.vars...)
	out, err := load.CombinedOutput()
	if err != nil {
		t.Fatalf("lexflow corpus load: %v\n%s", err, out)
	}
	for _, want := range []string{"eu-gdpr-xml                      297          0", "ro-jurisprudenta-rejust            0        241", "built "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if out, err := d.command("corpus", "unload").CombinedOutput(); err == nil {
		t.Errorf("lexflow corpus unload succeeded: %s", out)
	}
}

// TestAttackProcessesNeedSecrets (issue 36, item 4 / finding 8): `lexflow api`,
// `worker` and `keys rotate` without their secrets stop at once, naming what is
// missing, and write nothing into the data directory; they generated a master key and
// a JWT secret there before.
func TestAttackProcessesNeedSecrets(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  []string
		want []string
	}{
		{[]string{"api"}, nil, []string{"LEXFLOW_MASTER_KEY", "LEXFLOW_JWT_SECRET"}},
		{[]string{"api"}, []string{"LEXFLOW_MASTER_KEY=" + strings.Repeat("m", 40)}, []string{"LEXFLOW_JWT_SECRET"}},
		{[]string{"api"}, []string{"LEXFLOW_JWT_SECRET=" + strings.Repeat("s", 40)}, []string{"LEXFLOW_MASTER_KEY"}},
		{[]string{"worker"}, nil, []string{"LEXFLOW_MASTER_KEY"}},
		{[]string{"keys", "rotate"}, nil, []string{"LEXFLOW_MASTER_KEY"}},
	} {
		d := newDevEnv(t)
		dir := t.TempDir()
		cmd := d.command(c.args...)
		cmd.Env = append(cmd.Env, append([]string{"LEXFLOW_DATA_DIR=" + dir, "LEXFLOW_MASTER_KEY=", "LEXFLOW_JWT_SECRET="}, c.env...)...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("lexflow %v without secrets ran: %s", c.args, out)
			continue
		}
		for _, want := range c.want {
			if !strings.Contains(string(out), want) {
				t.Errorf("lexflow %v: the message does not name %s: %s", c.args, want, out)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("lexflow %v wrote %d files into the data directory (%s, ...)", c.args, len(entries), entries[0].Name())
		}
	}
}

// TestWorkerRefusesModelRecordings: `lexflow worker` stops at once, naming the
// setting, when told to record model exchanges (which hold clients' texts in clear)
// or to replay them; only `lexflow dev` takes them.
func TestWorkerRefusesModelRecordings(t *testing.T) {
	for _, name := range []string{"LEXFLOW_MODEL_RECORD", "LEXFLOW_MODEL_REPLAY"} {
		d := newDevEnv(t)
		dir := filepath.Join(t.TempDir(), "recordings")
		cmd := d.command("worker")
		cmd.Env = append(cmd.Env, "LEXFLOW_DATA_DIR="+t.TempDir(), "LEXFLOW_MASTER_KEY="+strings.Repeat("m", 40), name+"="+dir)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), name) || !strings.Contains(string(out), "lexflow dev") {
			t.Errorf("lexflow worker with %s: %v %s", name, err, out)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("lexflow worker with %s made %s", name, dir)
		}
	}
}

// TestTokenNamesStaffScope: `lexflow token` mints a staff token only for an
// organization or, with --operator, for the operator's staff.
func TestTokenNamesStaffScope(t *testing.T) {
	d := newDevEnv(t)
	d.vars = append(d.vars, "LEXFLOW_JWT_SECRET="+strings.Repeat("s", 40))
	if out, err := d.command("token", "--sub", "sam", "--role", "support").CombinedOutput(); err == nil || !strings.Contains(string(out), "scope") {
		t.Errorf("a staff token with no scope: %v %s", err, out)
	}
	for _, flags := range [][]string{{"--org", "acme"}, {"--operator"}} {
		if out, err := d.command(append([]string{"token", "--sub", "sam", "--role", "support"}, flags...)...).CombinedOutput(); err != nil {
			t.Errorf("lexflow token %v: %v %s", flags, err, out)
		}
	}
	if out, err := d.command("token", "--sub", "sam", "--role", "support", "--org", "acme", "--operator").CombinedOutput(); err == nil {
		t.Errorf("a token of an organization and of the operator: %s", out)
	}
}
