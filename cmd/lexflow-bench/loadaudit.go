package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
)

// loadAudit is what the audit after a load found: the counts it checked, and every
// problem.
type loadAudit struct {
	cases, turns, drafts, pdfs, tickets int
	// workflows counts the namespace's workflows by the statuses that must not occur.
	workflows map[string]int64
	problems  []string
}

func (a *loadAudit) problem(format string, args ...any) {
	a.problems = append(a.problems, fmt.Sprintf(format, args...))
}

// auditLoad checks, for every case a client opened: its transcript holds each message
// the client sent once, in order, and one answer per turn; the case is open and
// active; its turns' tool calls succeeded; it has one draft recorded, one PDF stored
// and no ticket. Then it checks that
// no workflow of the namespace failed, timed out or was terminated, and that every
// case's workflow is running.
func auditLoad(ctx context.Context, b *wiring.Backends, runs []caseRun, blobDir string, turns int) loadAudit {
	a := loadAudit{workflows: map[string]int64{}}
	for _, r := range runs {
		if r.caseID == "" {
			continue
		}
		a.cases++
		a.auditCase(ctx, b.Store, r, blobDir, turns)
	}
	for _, status := range []string{"Failed", "TimedOut", "Terminated"} {
		n, err := countWorkflows(ctx, b.Temporal, fmt.Sprintf("ExecutionStatus = '%s'", status))
		if err != nil {
			a.problem("count the %s workflows: %v", status, err)
			continue
		}
		a.workflows[status] = n
		if n > 0 {
			a.problem("%d workflows %s", n, status)
		}
	}
	running, err := countWorkflows(ctx, b.Temporal, fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", schemas.CaseWorkflow))
	if err != nil {
		a.problem("count the running cases: %v", err)
	} else if running != int64(a.cases) {
		a.problem("%d Case workflows run, for %d cases", running, a.cases)
	}
	return a
}

func countWorkflows(ctx context.Context, tc client.Client, query string) (int64, error) {
	res, err := tc.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
	if err != nil {
		return 0, err
	}
	return res.GetCount(), nil
}

// auditCase checks one case; a client that stopped early is checked for the turns it
// was answered.
func (a *loadAudit) auditCase(ctx context.Context, st store.Store, r caseRun, blobDir string, turns int) {
	recs, err := st.ListRecords(ctx, r.caseID, 0, 0)
	if err != nil {
		a.problem("case %s: read the transcript: %v", r.caseID, err)
		return
	}
	var users []string
	answers := map[int]int{}
	for _, rec := range recs {
		switch {
		case rec.Role == schemas.RecordUser:
			users = append(users, rec.Content)
		case rec.Role == schemas.RecordAssistant && rec.TurnID != "":
			answers[rec.TurnNo]++
		}
	}
	// A turn the client sent but saw no answer to may be stored (its answer lost
	// with a connection): the stored messages start with those answered.
	if len(users) < len(r.messages) || !slices.Equal(users[:len(r.messages)], r.messages) {
		a.problem("case %s: the transcript's messages are %q, the client's %q", r.caseID, users, r.messages)
	}
	if len(users) > len(r.messages) && r.err == nil {
		a.problem("case %s: %d messages stored for %d sent", r.caseID, len(users), len(r.messages))
	}
	for k := 1; k <= len(r.messages); k++ {
		if answers[k] != 1 {
			a.problem("case %s: turn %d has %d answers stored", r.caseID, k, answers[k])
		}
	}
	a.turns += len(r.messages)
	for _, f := range r.toolFailures {
		a.problem("case %s: %s", r.caseID, f)
	}
	cs, err := st.GetCase(ctx, r.caseID)
	if err != nil {
		a.problem("case %s: read the case: %v", r.caseID, err)
		return
	}
	if cs.Phase != schemas.PhaseActive || cs.Status != schemas.StatusOpen {
		a.problem("case %s: %s and %s after its turns, not active and open", r.caseID, cs.Phase, cs.Status)
	}
	drafted := len(r.messages) == turns // the last turn asks for the draft
	drafts := len(schemas.RecordedDrafts(cs.Details))
	pdfs, err := filepath.Glob(filepath.Join(blobDir, "cases", r.caseID, "drafts", "*", "rev-*.pdf"))
	if err != nil {
		a.problem("case %s: list the PDFs: %v", r.caseID, err)
	}
	want := 0
	if drafted {
		want = 1
	}
	if drafts != want || len(pdfs) != want {
		a.problem("case %s: %d drafts recorded and %d PDFs stored, for %d asked", r.caseID, drafts, len(pdfs), want)
	}
	a.drafts += drafts
	a.pdfs += len(pdfs)
	tickets, err := st.ListTickets(ctx, r.caseID)
	if err != nil {
		a.problem("case %s: list the tickets: %v", r.caseID, err)
	}
	if len(tickets) > 0 {
		a.problem("case %s: %d support tickets opened: %v", r.caseID, len(tickets), ticketIDs(tickets))
	}
	a.tickets += len(tickets)
}

func ticketIDs(ts []store.Ticket) []string {
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids
}

// print writes the audit's findings.
func (a loadAudit) print(out io.Writer) {
	verdict := "PASS"
	if len(a.problems) > 0 {
		verdict = fmt.Sprintf("FAIL (%d problems)", len(a.problems))
	}
	fmt.Fprintf(out, "audit: %d cases, %d turns stored once each, in order, one answer each; %d drafts recorded, %d PDFs; %d tickets; workflows failed %d, timed out %d, terminated %d: %s\n",
		a.cases, a.turns, a.drafts, a.pdfs, a.tickets, a.workflows["Failed"], a.workflows["TimedOut"], a.workflows["Terminated"], verdict)
	for _, p := range a.problems {
		fmt.Fprintf(out, "  problem: %s\n", p)
	}
}
