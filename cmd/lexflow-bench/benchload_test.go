package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
)

// TestBenchLoad runs `lexflow-bench load` small, for its audit: 20 cases × 2 turns
// with the API and the worker as processes of a lexflow binary built for the tests,
// the worker killed three times and the API restarted once meanwhile.
func TestBenchLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Temporal, FerretDB, a worker and an API process")
	}
	t.Setenv("LEXFLOW_TEMPORAL_CLI", "bin/temporal")
	t.Setenv("LEXFLOW_CORPUS_DB", corpusDB)
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = benchLoad(t.Context(), cfg, []string{"--cases", "20", "--turns", "2", "--orgs", "4", "--profile", "../../deploy/bench.env",
		"--chaos", "--kills", "3", "--api-restarts", "1", "--kill-every", "1s", "--timeout", "5m", "--wrk", "0", "--lexflow", lexflowBin(t)}, &out, slog.New(slog.DiscardHandler))
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"chaos: the worker killed (SIGKILL) and started again 3 times, the API 1 times",
		"audit: 20 cases, 40 turns stored once each", "20 drafts recorded, 20 PDFs; 0 tickets", ": PASS"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestParseWrk(t *testing.T) {
	const report = `Running 10s test @ http://127.0.0.1:8080/v1/cases/x
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.10ms    2.01ms  40.12ms   80.00%
    Req/Sec     6.30k   400.00     7.00k    70.00%
  Latency Distribution
     50%    4.80ms
     75%    6.00ms
     90%    7.50ms
     99%   12.30ms
  125000 requests in 10.00s, 80.00MB read
  Non-2xx or 3xx responses: 3
Requests/sec:  12500.42
Transfer/sec:      8.00MB
`
	got, err := parseWrk(report)
	if err != nil {
		t.Fatal(err)
	}
	if want := (wrkResult{rps: 12500.42, p50: "4.80ms", p99: "12.30ms", errors: 3}); got != want {
		t.Errorf("parsed %+v, want %+v", got, want)
	}
	if _, err := parseWrk("unable to connect to 127.0.0.1:8080 Connection refused"); err == nil {
		t.Error("a report without figures parsed")
	}
}

func TestBenchLoadRejectsBadOptions(t *testing.T) {
	for _, args := range [][]string{{"--cases", "0"}, {"--turns", "0"}, {"--orgs", "3", "--cases", "2"}, {"--kills", "-1"},
		{"--kills", "1", "--api-restarts", "2"}, {"--kill-every", "0s"}, {"--wrk", "-1s"}} {
		if _, err := parseLoadOptions(args); err == nil {
			t.Errorf("load %v was accepted", args)
		}
	}
}

// TestLoadAuditFindsProblems gives the audit a case whose store lacks what its client
// was answered: a message never stored, a turn answered twice, no draft, a ticket.
func TestLoadAuditFindsProblems(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	ferret, err := devenv.StartFerretDB(ctx, "127.0.0.1:0", filepath.Join(dir, "ferretdb"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ferret.Stop()
	st, err := mongostore.Open(ctx, ferret.URI, "audit")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	caseID := "audit-case"
	if _, err := st.CreateCase(ctx, store.Case{ID: caseID, UserID: "u", Phase: schemas.PhaseActive, Status: schemas.StatusOpen, Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	turn := func(n int) string { return schemas.TurnWorkflowID(caseID, n) }
	if err := st.AppendRecords(ctx,
		store.Record{ID: schemas.UserRecordID(turn(1)), CaseID: caseID, TurnID: turn(1), TurnNo: 1, Role: schemas.RecordUser, Content: "one"},
		store.Record{ID: schemas.AssistantRecordID(turn(1)), CaseID: caseID, TurnID: turn(1), TurnNo: 1, Seq: 1, Role: schemas.RecordAssistant, Content: "a"},
		store.Record{ID: turn(1) + ":again", CaseID: caseID, TurnID: turn(1), TurnNo: 1, Seq: 2, Role: schemas.RecordAssistant, Content: "a"},
	); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateTicket(ctx, store.Ticket{ID: "ticket-1", CaseID: caseID, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var a loadAudit
	a.auditCase(ctx, st, caseRun{caseID: caseID, messages: []string{"one", "two"}}, dir, 2)
	got := strings.Join(a.problems, "\n")
	for _, want := range []string{`the transcript's messages are ["one"], the client's ["one" "two"]`, "turn 1 has 2 answers stored",
		"turn 2 has 0 answers stored", "0 drafts recorded and 0 PDFs stored, for 1 asked", "1 support tickets opened: [ticket-1]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit did not find %q; it found:\n%s", want, got)
		}
	}

	// The same case, as its client saw it (one turn answered, no draft asked for), is
	// all right but for the doubled answer and the ticket.
	a = loadAudit{}
	a.auditCase(ctx, st, caseRun{caseID: caseID, messages: []string{"one"}}, dir, 2)
	if len(a.problems) != 2 {
		t.Errorf("the audit found %d problems, want 2:\n%s", len(a.problems), strings.Join(a.problems, "\n"))
	}
}

// TestProcNotesACrash starts a process that exits by itself (this test binary, acting
// as lexflow-bench, given an unknown command): its crash is noted with the end of its
// log.
func TestProcNotesACrash(t *testing.T) {
	logFile, err := os.Create(filepath.Join(t.TempDir(), "crash.log"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := startProc(os.Args[0], "no-such-command", append(os.Environ(), asCommand+"=1"), logFile)
	if err != nil {
		t.Fatal(err)
	}
	<-p.exited
	crashed := p.crashes()
	if len(crashed) != 1 || !strings.Contains(crashed[0], "lexflow no-such-command exited by itself: exit status 2") ||
		!strings.Contains(crashed[0], `lexflow-bench: unknown command "no-such-command"`) {
		t.Errorf("crashes: %q", crashed)
	}
	logFile.Close()
}
