package story_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// The story's canary PII: a party's details that only the parties store may hold.
var canaries = []string{"Zăvoianu", "2950317410021", "Str. Canarului 17", "ilinca.canary7@example.ro"}

// The client's own words: the names in the case's description and in a message. The
// models read them, but no history may hold them in cleartext.
var clientWords = []string{"Bartolomeu Canarache", "Smaranda Vulpoiu"}

// TestCaseStory drives one case through every stage, as its client, support and the
// operator see it: tiering, a quota with no credit, payment, research through LEXE, a
// draft PDF with a party's details in two revisions, LEXE failing through the whole
// escalation ladder (the worker restarted while the case waits for the client), the
// ticket, support's resumption, and the client closing the case. Then it checks that
// the party's details reached no model, and that neither they nor the client's words
// are in cleartext in any Temporal history of the case, any document of the database
// or any file of the blob tree.
func TestCaseStory(t *testing.T) {
	t.Parallel()
	lexe := stack.StartLexe(t)
	models := stack.StartModelRecorder(t)
	story, queue := s.ServeQueue(t, "e2e-story")
	env := []string{"LEXE_TOOLS_URL=" + lexe.URL, "SEARXNG_URL=" + s.Config.SearXNGURL,
		"LEXFLOW_ASSISTANT_BASE_URL=" + models.URL + "/v1", "LEXFLOW_ASSISTANT_MODEL=" + offline.ModelName}
	worker := s.StartHelperWorker(t, queue, 0, env...)

	mint := func(id auth.Identity) string {
		tok, err := s.Signer.Mint(id, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	client := mint(auth.Identity{Subject: "stella", Org: "story", Roles: []string{schemas.RoleUser}})
	admin := mint(auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true})
	support := mint(auth.Identity{Subject: "sam", Roles: []string{schemas.RoleSupport}, Operator: true})

	// Quota: the organization has no credit left for any tier.
	r := story.Call(t, "PUT", "/v1/admin/subscriptions/org:story", admin, map[string]any{"plan": "basic", "credits": map[string]int{"1": 0, "2": 0, "3": 0}})
	if r.Status != http.StatusOK {
		t.Fatalf("subscription: %d %s", r.Status, r.Raw)
	}

	// Tiering: a claim in court against a landlord is tier 2; with no credit, the case
	// waits for payment and refuses messages until then.
	id := story.CreateCase(t, client, "My landlord "+clientWords[0]+" kept my deposit and I want to sue him in court for damages")
	r = story.Call(t, "POST", "/v1/cases/"+id+"/messages", client, map[string]any{"message": "art. 2043 c.c."})
	stack.WantProblem(t, r, http.StatusPaymentRequired, "payment-required")
	r = story.Call(t, "GET", "/v1/cases/"+id, client, nil)
	state := r.Body["state"].(map[string]any)
	if r.Body["phase"] != schemas.PhaseAwaitingPayment || state["tier"] != float64(2) || state["waiting_on"] != schemas.WaitingOnPayment {
		t.Fatalf("after tiering: %s", r.Raw)
	}
	if tier := r.Body["case_details"].(map[string]any)["tier"].(map[string]any); tier["level"] != float64(2) || tier["justification"] == "" {
		t.Errorf("case_details.tier = %v", tier)
	}

	// Payment: the client's own claim no longer pays; a checkout does, once the
	// provider's signed webhook confirms it. A second checkout is refused.
	stack.WantProblem(t, story.Call(t, "POST", "/v1/cases/"+id+"/payment", client, map[string]any{"reference": "i-promise"}), http.StatusGone, "gone")
	co := story.Pay(t, id, client)
	if co.Body["amount"] != float64(14900) || co.Body["currency"] != "eur" || co.Body["provider"] != "test" {
		t.Errorf("checkout: %s", co.Raw)
	}
	r = story.Call(t, "GET", "/v1/cases/"+id, client, nil)
	if r.Body["phase"] != schemas.PhaseActive || r.Body["payment"].(map[string]any)["reference"] != co.Body["session_id"] {
		t.Fatalf("after paying: %s", r.Raw)
	}
	stack.WantProblem(t, story.Call(t, "POST", "/v1/cases/"+id+"/checkout", client, nil), http.StatusConflict, "conflict")

	// Research through LEXE.
	turn := story.Send(t, client, id, "art. 2043 c.c.")
	if used := stack.ToolsUsed(turn); len(used) != 1 || used[0]["tool"] != schemas.ToolNormattivaSearch || used[0]["status"] != "ok" {
		t.Fatalf("research turn: %s", turn.Raw)
	}
	if lexe.Calls.Load() != 1 {
		t.Errorf("LEXE answered %d calls, want 1", lexe.Calls.Load())
	}

	// A party, then a draft with its details in two revisions; asking for revision 1
	// again renders nothing new.
	r = story.Call(t, "POST", "/v1/cases/"+id+"/parties", client, map[string]any{"first_name": "Ilinca", "last_name": canaries[0],
		"cnp": canaries[1], "address": canaries[2] + ", Sibiu", "email": canaries[3]})
	if r.Status != http.StatusCreated || r.Body["party_id"] != "party0" {
		t.Fatalf("party: %d %s", r.Status, r.Raw)
	}
	draft := func(rev int, extra string) string {
		return fmt.Sprintf("draft: Notificare rev %d\n# Notificare de plată\n\nSubsemnata **{{party0.fullName}}**, CNP {{party0.cnp}}, "+
			"domiciliată în {{party0.address}}, e-mail {{party0.email}}, vă notific să restituiți garanția.\n\n"+
			"| Sumă | Termen |\n|---|---|\n| 1.200 lei | 30 de zile |\n\nDiacritice: ă â î ș ț.%s", rev, extra)
	}
	var paths []string
	for _, msg := range []string{draft(1, ""), draft(1, ""), draft(2, " Revizuită.")} {
		turn = story.Send(t, client, id, msg)
		used := stack.ToolsUsed(turn)
		if len(used) != 1 || used[0]["tool"] != schemas.ToolGenerateDraftPDF || used[0]["status"] != "ok" {
			t.Fatalf("draft turn: %s", turn.Raw)
		}
	}
	r = story.Call(t, "GET", "/v1/cases/"+id+"/drafts", client, nil)
	drafts := r.Body["drafts"].([]any)
	if len(drafts) != 2 {
		t.Fatalf("drafts = %s, want revisions 1 and 2", r.Raw)
	}
	for _, d := range drafts {
		paths = append(paths, d.(map[string]any)["path"].(string))
	}
	files, _ := filepath.Glob(filepath.Join(s.BlobDir, "cases", id, "drafts", "Notificare", "*"))
	if len(files) != 2 {
		t.Errorf("blob store holds %v, want one PDF per revision", files)
	}
	text := pdfText(t, story.Call(t, "GET", paths[0], client, nil))
	for _, want := range []string{"Notificare de plată", "Ilinca " + canaries[0], canaries[1], canaries[2], canaries[3], "ă â î ș ț", "1.200 lei"} {
		if !strings.Contains(text, want) {
			t.Errorf("revision 1's text lacks %q:\n%s", want, text)
		}
	}
	if text := pdfText(t, story.Call(t, "GET", paths[1], client, nil)); !strings.Contains(text, "Revizuită") {
		t.Errorf("revision 2's text lacks its change:\n%s", text)
	}

	// LEXE goes down: the conversation goes on. The model is told the failure and
	// searches the legal web instead; the reply says the source is unavailable, and
	// the case stays open.
	lexe.Down.Store(true)
	turn = story.Send(t, client, id, "art. 2043 c.c.")
	if reply, _ := turn.Body["reply"].(string); turn.Body["status"] != schemas.StatusOpen || turn.Body["escalation"] != nil ||
		!strings.Contains(reply, "normattiva_search is unavailable") || strings.Contains(reply, "upstream connect error") {
		t.Fatalf("research turn with LEXE down: %s", turn.Raw)
	}
	lexe.Down.Store(false)

	// The ladder: the client names a party not yet on file. get_party_id_by_name
	// answers an error, the model gets its one correction and makes the call again;
	// the second error goes to the reasoner, which advises asking the client.
	const missingParty = "party: {{party1.fullName}}"
	turn = story.Send(t, client, id, missingParty)
	esc, _ := turn.Body["escalation"].(map[string]any)
	if turn.Body["status"] != schemas.StatusWaitingUser || esc["rung"] != schemas.RungAskUser || esc["tool"] != schemas.ToolGetPartyIDByName {
		t.Fatalf("ladder turn: %s", turn.Raw)
	}
	if rungs := rungsOf(turn); !slices.Equal(rungs, []string{"", ""}) {
		t.Errorf("rungs of the ladder turn = %q, want the call and the call after its correction", rungs)
	}
	if reply := turn.Body["reply"].(string); strings.Contains(reply, schemas.ToolGetPartyIDByName) || strings.Contains(reply, schemas.PlaceholderNotFound) {
		t.Errorf("the client's question names the tool or its error: %q", reply)
	}
	if !story.SupportListHas(t, support, schemas.StatusWaitingUser, id) {
		t.Errorf("support's waiting_user list lacks %s", id)
	}

	// The worker restarts while the case waits for the client.
	if err := worker.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = worker.Wait()
	s.StartHelperWorker(t, queue, 0, env...)

	// The client answers; the call runs again, fails again, and a ticket pauses the case.
	turn = story.Send(t, client, id, "Yes, please try again; "+clientWords[1]+" saw him keep it.")
	esc, _ = turn.Body["escalation"].(map[string]any)
	if turn.Body["status"] != schemas.StatusPausedSupport || esc["rung"] != schemas.RungTicket || esc["ticket_id"] == "" {
		t.Fatalf("stack.Answer turn: %s", turn.Raw)
	}
	ticketID := esc["ticket_id"].(string)
	if rungs := rungsOf(turn); !slices.Equal(rungs, []string{schemas.RungAnswer}) {
		t.Errorf("rungs of the stack.Answer turn = %q, want the retry after the stack.Answer", rungs)
	}
	stack.WantProblem(t, story.Call(t, "POST", "/v1/cases/"+id+"/messages", client, map[string]any{"message": "hello?"}), http.StatusConflict, "case-paused")
	if !story.SupportListHas(t, support, schemas.StatusPausedSupport, id) {
		t.Errorf("support's paused_support list lacks %s", id)
	}
	tickets := story.Call(t, "GET", "/v1/support/cases/"+id+"/tickets", support, nil).Body["tickets"].([]any)
	if len(tickets) != 1 || tickets[0].(map[string]any)["ticket_id"] != ticketID || tickets[0].(map[string]any)["status"] != "open" {
		t.Fatalf("tickets = %v, want the one open ticket %s", tickets, ticketID)
	}
	if rungs := escalationRungs(t, id); !slices.Equal(rungs, []string{schemas.RungReasoner, schemas.RungAskUser, schemas.RungTicket + " " + ticketID}) {
		t.Errorf("escalation events: %q; want the reasoner's rung, the question to the client, and the ticket", rungs)
	}
	// Support reads every attempt, with its error, kept in case_details.escalation;
	// the client reads them without it.
	if r = story.Call(t, "GET", "/v1/cases/"+id, client, nil); strings.Contains(string(r.Raw), schemas.PlaceholderNotFound) {
		t.Errorf("the client's case holds the escalation's error: %s", r.Raw)
	}
	r = story.Call(t, "GET", "/v1/support/cases/"+id, support, nil)
	var attempts []string
	for _, a := range r.Body["escalation"].([]any) {
		a := a.(map[string]any)
		if a["tool"] != schemas.ToolGetPartyIDByName || a["error"] != schemas.PlaceholderNotFound {
			t.Errorf("escalation attempt %v", a)
		}
		attempts = append(attempts, a["rung"].(string))
	}
	if want := []string{schemas.RungReasoner, schemas.RungAskUser, schemas.RungAnswer, schemas.RungTicket}; !slices.Equal(attempts, want) {
		t.Errorf("case_details.escalation rungs = %q, want %q", attempts, want)
	}

	// The client adds the party, and support resumes with a retry: the escalated
	// request runs again as the case's next turn, and the client's next message
	// waits its turn.
	r = story.Call(t, "POST", "/v1/cases/"+id+"/parties", client, map[string]any{"first_name": "Radu", "last_name": "Ionescu"})
	if r.Status != http.StatusCreated || r.Body["party_id"] != "party1" {
		t.Fatalf("second party: %d %s", r.Status, r.Raw)
	}
	r = story.Call(t, "POST", "/v1/support/cases/"+id+"/resume", support, map[string]any{"action": "retry", "note": "The party is on file now"})
	if r.Status != http.StatusOK || r.Body["status"] != schemas.StatusOpen {
		t.Fatalf("resume: %d %s", r.Status, r.Raw)
	}
	turn = story.Send(t, client, id, "show me the case details")
	if turn.Body["turn_id"] != schemas.TurnWorkflowID(id, 9) {
		t.Errorf("the message after the resumption ran as %v, want turn 9 (after the retried turn 8)", turn.Body["turn_id"])
	}
	recs, err := s.Store.ListRecords(context.Background(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var retried *store.Record
	for i := range recs {
		if recs[i].TurnNo == 8 && recs[i].Tool != nil {
			retried = &recs[i]
		}
	}
	if retried == nil || retried.Tool.Name != schemas.ToolGetPartyIDByName || retried.Tool.Status != "ok" {
		t.Errorf("the retried turn's tool record = %+v", retried)
	}
	tickets = story.Call(t, "GET", "/v1/support/cases/"+id+"/tickets", support, nil).Body["tickets"].([]any)
	if len(tickets) != 1 || tickets[0].(map[string]any)["status"] != "resolved" {
		t.Errorf("tickets after the resumption = %v, want the one ticket resolved", tickets)
	}

	// Completion: the client closes the case and its workflow completes.
	r = story.Call(t, "POST", "/v1/cases/"+id+"/close", client, map[string]any{"note": "Settled out of court."})
	if r.Status != http.StatusOK || r.Body["status"] != schemas.StatusClosed {
		t.Fatalf("close: %d %s", r.Status, r.Raw)
	}
	var result schemas.CaseResult
	if err := s.TC.GetWorkflow(context.Background(), schemas.CaseWorkflowID(id), "").Get(context.Background(), &result); err != nil ||
		result.State.Status != schemas.StatusClosed || result.State.Payment == nil || len(result.State.Tickets) != 1 {
		t.Errorf("case result = %+v, %v", result.State, err)
	}
	if r = story.Call(t, "GET", "/v1/cases/"+id, client, nil); r.Body["status"] != schemas.StatusClosed {
		t.Errorf("stored case after closing: %s", r.Raw)
	}
	stack.WantProblem(t, story.Call(t, "POST", "/v1/cases/"+id+"/messages", client, map[string]any{"message": "one more thing"}), http.StatusConflict, "case-closed")
	if r = story.Call(t, "POST", "/v1/cases/"+id+"/close", client, nil); r.Status != http.StatusOK || r.Body["status"] != schemas.StatusClosed {
		t.Errorf("closing again: %d %s", r.Status, r.Raw)
	}

	// PII: the models saw placeholders, never the party's details, and no history of
	// the case holds them, or the client's words, in cleartext.
	seen := models.Seen()
	if !slices.ContainsFunc(seen, func(req string) bool { return strings.Contains(req, "{{party0.fullName}}") }) {
		t.Errorf("no model request shows the draft's placeholders; the recorder saw %d requests", len(seen))
	}
	// The ASCII canaries (CNP, address, email) cannot hide behind JSON escapes.
	for _, req := range seen {
		for _, c := range canaries {
			if strings.Contains(req, c) {
				t.Errorf("a model request holds the canary %q", c)
			}
		}
	}
	checkHistoriesFree(t, id, append(slices.Clone(canaries), clientWords...), 15)
	checkStoreFree(t, append(slices.Clone(canaries), clientWords...))
	checkBlobsSealed(t, id)
	s.RecordHistories(t, "story", id)

	// Erasure: the client deletes the case. Its drafts go with it, and no payload of
	// its histories opens any more.
	r = story.Call(t, "DELETE", "/v1/cases/"+id, client, nil)
	erased, _ := r.Body["erased"].(map[string]any)
	if files, _ := erased["files"].(float64); r.Status != http.StatusOK || files < 2 {
		t.Fatalf("erase: %d %s", r.Status, r.Raw)
	}
	s.CheckErased(t, id, append(slices.Clone(canaries), clientWords...)...)
	s.RecordRuns(t, "story", schemas.EraseWorkflowID(id), "erase")
}

// escalationRungs are the rungs of the case's escalation events, in order, the
// ticket's with its ID; each event names normattiva_search, the tool that failed.
func escalationRungs(t *testing.T, caseID string) []string {
	t.Helper()
	events, err := s.Store.ListEvents(t.Context(), caseID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rungs []string
	for _, e := range events {
		var esc schemas.EscalationEvent
		if e.Type != schemas.EventEscalation || json.Unmarshal(e.Body, &esc) != nil {
			continue
		}
		if esc.Tool != schemas.ToolGetPartyIDByName || esc.Error == "" {
			t.Errorf("escalation event %s", e.Body)
		}
		rungs = append(rungs, strings.TrimSpace(esc.Rung+" "+esc.TicketID))
	}
	return rungs
}

// rungsOf lists the ladder rung of each tool call of a turn ("" for the model's own).
func rungsOf(r stack.Response) []string {
	var out []string
	for _, u := range stack.ToolsUsed(r) {
		rung, _ := u["rung"].(string)
		out = append(out, rung)
	}
	return out
}

// pdfText is the text of a PDF answer, as pdftotext reads it.
func pdfText(t *testing.T, r stack.Response) string {
	t.Helper()
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("draft download: %d %s %.100s", r.Status, r.Header.Get("Content-Type"), r.Raw)
	}
	path := filepath.Join(t.TempDir(), "draft.pdf")
	if err := os.WriteFile(path, r.Raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext (apt-get install poppler-utils): %v", err)
	}
	return string(out)
}

// checkStoreFree reads every document of every collection of the stack's database
// and fails if any holds a canary.
func checkStoreFree(t *testing.T, canaries []string) {
	t.Helper()
	if docs := s.CheckDocumentsFree(t, nil, canaries); docs < 50 {
		t.Errorf("read %d documents; the case alone wrote more", docs)
	}
}

// checkBlobsSealed fails unless every file of the case in the blob tree is sealed.
func checkBlobsSealed(t *testing.T, caseID string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(filepath.Join(s.BlobDir, "cases", caseID), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(b, []byte("LXE1")) || bytes.Contains(b, []byte("%PDF")) {
			t.Errorf("%s is not sealed: %.20q", path, b)
		}
		return nil
	})
	if err != nil || files < 2 {
		t.Errorf("read %d files of the case (%v); its two drafts are there", files, err)
	}
}

// checkHistoriesFree reads the history of every workflow run of the case (the case's
// runs, its turns, phases, drafts and ticket) and fails if any event holds a canary,
// or if it read fewer than minRuns runs.
func checkHistoriesFree(t *testing.T, caseID string, canaries []string, minRuns int) {
	t.Helper()
	ctx := context.Background()
	query := fmt.Sprintf("WorkflowId STARTS_WITH '%s'", schemas.CaseWorkflowID(caseID))
	var runs, events int
	var token []byte
	for {
		resp, err := s.TC.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.Executions {
			runs++
			wf := e.GetExecution()
			iter := s.TC.GetWorkflowHistory(ctx, wf.GetWorkflowId(), wf.GetRunId(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for iter.HasNext() {
				ev, err := iter.Next()
				if err != nil {
					t.Fatal(err)
				}
				events++
				raw, err := proto.Marshal(ev) // payloads appear as their bytes
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range canaries {
					if strings.Contains(string(raw), c) {
						t.Errorf("%s event %d (%s) holds the canary %q", wf.GetWorkflowId(), ev.GetEventId(), ev.GetEventType(), c)
					}
				}
			}
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	if runs < minRuns {
		t.Errorf("read %d workflow runs (%d events); the case has at least %d", runs, events, minRuns)
	}
}
