package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/wiring"
	"github.com/lexflow/lexflow/worker"
)

// Mode is where the model's answers come from.
type Mode string

const (
	// Live asks the configured endpoints (the offline model when none is).
	Live Mode = "live"
	// Record asks them too, and keeps every exchange under the recordings
	// directory, one folder per scenario (replacing what was there).
	Record Mode = "record"
	// Replay answers from those recordings; no endpoint is asked.
	Replay Mode = "replay"
)

// Turn is what one client message came to.
type Turn struct {
	Message string             `json:"message"`
	Result  schemas.TurnResult `json:"result"`
	Latency time.Duration      `json:"latency_ns"`
}

// Outcome is what happened in a scenario's case: its turns, its case file at the
// end, and the model exchanges its worker made.
type Outcome struct {
	CaseID      string          `json:"case_id"`
	Turns       []Turn          `json:"turns"`
	CaseDetails json.RawMessage `json:"case_details"`
	Exchanges   []Exchange      `json:"-"`
}

// turnWait bounds one client message's answer, a real model's slow turns included.
const turnWait = 5 * time.Minute

// Run runs sc on s in mode, with recordings the folder of the scenarios'
// recordings (each scenario's in a folder named after it). The scenario gets a worker
// and an API of its own, on its own task queue, whose model exchanges are all
// recorded: into its recordings folder in Record mode, else into a folder Run
// removes after reading it.
func (s *Stack) Run(ctx context.Context, sc Scenario, mode Mode, recordings string) (Outcome, error) {
	cfg := s.cfg
	cfg.TaskQueue = "eval-" + sc.Name
	switch mode {
	case Record:
		cfg.ModelRecord = filepath.Join(recordings, sc.Name)
		if err := os.RemoveAll(cfg.ModelRecord); err != nil {
			return Outcome{}, err
		}
	case Replay, Live:
		dir, err := os.MkdirTemp(cfg.DataDir, "exchanges-")
		if err != nil {
			return Outcome{}, err
		}
		defer os.RemoveAll(dir)
		cfg.ModelRecord = dir
		if mode == Replay {
			cfg.ModelReplay = filepath.Join(recordings, sc.Name)
		}
	default:
		return Outcome{}, fmt.Errorf("mode %q: want live, record or replay", mode)
	}
	if sc.SourcesDown {
		cfg.LexeToolsURL = s.stubs.lexeDown
	}
	deps, stopDeps, err := wiring.WorkerDeps(cfg, s.b, s.corpus)
	if err != nil {
		return Outcome{}, err
	}
	defer stopDeps()
	w := worker.New(s.b.Temporal, cfg.TaskQueue, deps, worker.Version{})
	if err := w.Start(); err != nil {
		return Outcome{}, fmt.Errorf("start worker: %w", err)
	}
	defer w.Stop()
	server, err := wiring.NewAPI(ctx, cfg, s.b, true, s.log)
	if err != nil {
		return Outcome{}, err
	}
	url, stop, err := serve(server)
	if err != nil {
		return Outcome{}, err
	}
	defer stop()
	defer server.EndStreams()
	tok, err := s.signer.Mint(auth.Identity{Subject: "eval-" + sc.Name, Org: Org, Roles: []string{schemas.RoleUser}}, time.Hour)
	if err != nil {
		return Outcome{}, err
	}
	c := apiClient{url: url, tok: tok}
	out, err := c.play(ctx, sc)
	if exchanges, rerr := readExchanges(cfg.ModelRecord); rerr == nil {
		out.Exchanges = exchanges
	} else if err == nil {
		err = rerr
	}
	return out, err
}

// apiClient calls a scenario's API as its client.
type apiClient struct{ url, tok string }

// play opens the scenario's case (its ID fixed by the scenario's name, so that the
// tools' bound case_id replays), waits until it is active, adds the parties and sends
// the messages.
func (c apiClient) play(ctx context.Context, sc Scenario) (Outcome, error) {
	var created struct {
		CaseID string `json:"case_id"`
	}
	if err := c.call(ctx, "POST", "/v1/cases", map[string]any{"description": sc.Description, "language": sc.Language},
		http.StatusCreated, &created, "Idempotency-Key", "eval-"+sc.Name); err != nil {
		return Outcome{}, fmt.Errorf("open the case: %w", err)
	}
	out := Outcome{CaseID: created.CaseID}
	if err := c.waitActive(ctx, out.CaseID); err != nil {
		return out, err
	}
	for _, p := range sc.Parties {
		if err := c.call(ctx, "POST", "/v1/cases/"+out.CaseID+"/parties", p, http.StatusCreated, nil); err != nil {
			return out, fmt.Errorf("add a party: %w", err)
		}
	}
	for _, d := range sc.Documents {
		if err := c.upload(ctx, out.CaseID, d); err != nil {
			return out, fmt.Errorf("upload %s: %w", d.Name, err)
		}
	}
	for _, m := range sc.Messages {
		body := map[string]any{"message": m.Text}
		if m.WebSearch {
			body[schemas.ToggleWebSearch] = true
		}
		start := time.Now()
		var res schemas.TurnResult
		if err := c.call(ctx, "POST", "/v1/cases/"+out.CaseID+"/messages", body, http.StatusOK, &res); err != nil {
			return out, fmt.Errorf("send %q: %w", m.Text, err)
		}
		out.Turns = append(out.Turns, Turn{Message: m.Text, Result: res, Latency: time.Since(start)})
	}
	var cs struct {
		CaseDetails json.RawMessage `json:"case_details"`
	}
	if err := c.call(ctx, "GET", "/v1/cases/"+out.CaseID, nil, http.StatusOK, &cs); err != nil {
		return out, fmt.Errorf("read the case: %w", err)
	}
	out.CaseDetails = cs.CaseDetails
	return out, nil
}

// waitActive polls the case, for at most two minutes, until tiering and the quota
// have let it into its active phase.
func (c apiClient) waitActive(ctx context.Context, caseID string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var cs struct {
		State struct {
			Status string `json:"status"`
			Phase  string `json:"phase"`
		} `json:"state"`
	}
	for {
		if err := c.call(ctx, "GET", "/v1/cases/"+caseID, nil, http.StatusOK, &cs); err != nil {
			return err
		}
		if cs.State.Status == schemas.StatusOpen && cs.State.Phase == schemas.PhaseActive {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the case is %s in phase %s, not open and active, after two minutes", cs.State.Status, cs.State.Phase)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// call sends a request and decodes its answer into out (when not nil), failing
// unless the answer has status want; headers are name, value pairs.
func (c apiClient) call(ctx context.Context, method, path string, body any, want int, out any, headers ...string) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	ctx, cancel := context.WithTimeout(ctx, turnWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s answered %d: %s", method, path, resp.StatusCode, raw)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// upload sends a document as the web app does (multipart/form-data, the file in a part
// named file) and polls, for at most two minutes, until it is read; one that fails to
// be read fails the scenario.
func (c apiClient) upload(ctx context.Context, caseID string, d Document) error {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("file", d.Name)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, d.Text); err != nil {
		return err
	}
	if err := mw.Close(); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.url+"/v1/cases/"+caseID+"/documents", &body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	var up struct {
		ID string `json:"id"`
	}
	if resp.StatusCode != http.StatusAccepted || json.Unmarshal(raw, &up) != nil {
		return fmt.Errorf("answered %d: %s", resp.StatusCode, raw)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		var list struct {
			Documents []schemas.Document `json:"documents"`
		}
		if err := c.call(ctx, "GET", "/v1/cases/"+caseID+"/documents", nil, http.StatusOK, &list); err != nil {
			return err
		}
		for _, doc := range list.Documents {
			switch {
			case doc.ID != up.ID:
			case doc.Status == schemas.DocRead:
				return nil
			case doc.Status == schemas.DocFailed:
				return fmt.Errorf("it could not be read: %s", doc.Reason)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not read within two minutes")
		case <-time.After(100 * time.Millisecond):
		}
	}
}
