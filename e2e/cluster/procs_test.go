package cluster_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
)

// jwtSecret signs the tests' tokens; every process shares it, and the master key.
const (
	jwtSecret = "cluster-test-secret-cluster-test-secret"
	masterKey = "cluster-test-master-key-cluster-test-master-key"
)

// proc is one lexflow process of the cluster.
type proc struct {
	name string
	// url is an API's base URL, or a worker's LEXFLOW_WORKER_HTTP_ADDR.
	url string
	cmd *exec.Cmd
	out *logBuffer
}

// start runs `lexflow <role>` (api or worker) against the cluster, with env added,
// and waits until its /readyz answers 200. The test kills it when it ends.
func start(t *testing.T, name, role string, env ...string) *proc {
	t.Helper()
	port, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p := &proc{name: name, url: "http://" + addr, cmd: exec.Command(cluster.lexflow, role), out: &logBuffer{}}
	p.cmd.Env = append(append(baseEnv(t), temporalEnv(t, name, role)...), env...)
	if role == "api" {
		p.cmd.Env = append(p.cmd.Env, "LEXFLOW_HTTP_ADDR="+addr)
	} else {
		p.cmd.Env = append(p.cmd.Env, "LEXFLOW_WORKER_HTTP_ADDR="+addr)
	}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("%s's output:\n%s", name, p.out.String())
		}
	})
	deadline := time.Now().Add(time.Minute)
	probe := &http.Client{Timeout: 5 * time.Second}
	for {
		resp, err := probe.Get(p.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready within a minute: %v\n%s", name, err, p.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// baseEnv is what every process of the cluster shares.
func baseEnv(t *testing.T) []string {
	return []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LEXFLOW_DATA_DIR=" + t.TempDir(),
		"TEMPORAL_ADDRESS=" + cluster.temporal.Address, "TEMPORAL_NAMESPACE=" + namespace,
		"MONGODB_URI=" + cluster.mongoURI, "LEXFLOW_CORPUS_DB=" + cluster.corpusDB, "LEXFLOW_BLOB_DIR=" + cluster.blobDir,
		"LEXFLOW_JWT_SECRET=" + jwtSecret, "LEXFLOW_MASTER_KEY=" + masterKey}
}

// temporalEnv is what process name of role needs to reach the locked Temporal
// cluster: a client certificate of its own from the clients' CA, and its role's
// client at the OpenID Provider, whose tokens carry the permission to write in the
// namespace.
func temporalEnv(t *testing.T, name, role string) []string {
	t.Helper()
	cert, err := cluster.temporal.ClientCA.Issue(name, false)
	if err != nil {
		t.Fatal(err)
	}
	oc := apiClient
	if role == "worker" {
		oc = workerClient
	}
	return []string{"TEMPORAL_TLS_SERVER_CA_CERT_PATH=" + cluster.temporal.ServerCA,
		"TEMPORAL_TLS_SERVER_NAME=" + cluster.temporal.FrontendName,
		"TEMPORAL_TLS_CLIENT_CERT_PATH=" + cert.Cert, "TEMPORAL_TLS_CLIENT_KEY_PATH=" + cert.Key,
		"LEXFLOW_TEMPORAL_TOKEN_URL=" + cluster.oidc.TokenURL(), "LEXFLOW_TEMPORAL_CLIENT_ID=" + oc.ID,
		"LEXFLOW_TEMPORAL_CLIENT_SECRET=" + oc.Secret, "LEXFLOW_TEMPORAL_TOKEN_RESOURCE=" + testenv.OIDCTemporalResource}
}

// kill kills the process at once, as a crash or an OOM kill would, and waits for it.
func (p *proc) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// logBuffer collects a process's output.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// token mints a token for sub in org with roles; staff in no org are the operator's.
func token(t *testing.T, sub, org string, roles ...string) string {
	t.Helper()
	id := auth.Identity{Subject: sub, Org: org, Roles: roles}
	id.Operator = org == "" && id.Staff()
	tok, err := auth.HS256{Secret: []byte(jwtSecret), Issuer: "lexflow-dev", Audience: "lexflow"}.Mint(id, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// answer is an API's answer: status and JSON body.
type answer struct {
	status int
	body   map[string]any
	raw    string
}

// httpClient bounds every request: a turn that never ends fails its test.
var httpClient = &http.Client{Timeout: 3 * time.Minute}

// call sends a JSON request to an API; headers are name, value pairs. An error is a
// request that got no answer (the process died).
func call(base, method, path, tok string, body any, headers ...string) (answer, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return answer{}, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	a := answer{status: resp.StatusCode, raw: string(raw)}
	_ = json.Unmarshal(raw, &a.body)
	return a, nil
}

// must is call, failing t unless the answer's status is want.
func must(t *testing.T, want int, base, method, path, tok string, body any, headers ...string) answer {
	t.Helper()
	a, err := call(base, method, path, tok, body, headers...)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if a.status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, a.status, a.raw, want)
	}
	return a
}

// openCase gives org's subscription credits through admin's API and opens a case for
// user, returning its ID.
func openCase(t *testing.T, base, user, org string) string {
	t.Helper()
	admin := token(t, "root", "", schemas.RoleAdmin)
	must(t, http.StatusOK, base, "PUT", "/v1/admin/subscriptions/org:"+org, admin,
		map[string]any{"plan": "firm", "credits": map[string]int{"1": 5, "2": 5, "3": 5}})
	a := must(t, http.StatusCreated, base, "POST", "/v1/cases", user, map[string]any{"description": "My landlord keeps my deposit", "language": "en"})
	return a.body["case_id"].(string)
}

// userRecords counts, per turn number, the user's records in the case's transcript.
func userRecords(t *testing.T, base, tok, caseID string) map[int]int {
	t.Helper()
	a := must(t, http.StatusOK, base, "GET", "/v1/cases/"+caseID+"/messages", tok, nil)
	out := map[int]int{}
	msgs, _ := a.body["messages"].([]any)
	for _, m := range msgs {
		rec := m.(map[string]any)
		if rec["role"] == string(schemas.RecordUser) {
			n, _ := rec["turn_no"].(float64)
			out[int(n)]++
		}
	}
	return out
}

// turnID is the ID of a case's turn n.
func turnID(caseID string, n int) string { return fmt.Sprintf("case:%s:turn:%d", caseID, n) }
