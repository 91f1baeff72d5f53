package story_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// The case file the scripted model records in the first turn: a summary and twelve
// facts that name the parties only by their placeholders.
var (
	agentSummary = "The tenant {{party0.fullName}} rented a flat from {{party1.fullName}} under a four-year lease signed in March 2021, " +
		"paid a deposit of three months' rent, and left the flat in good order in March 2025; the landlord keeps the deposit, " +
		"alleging damage that the handover report does not record. The agency {{party2.fullName}} witnessed the handover."
	agentFacts = func() []string {
		var out []string
		for i := range 12 {
			out = append(out, fmt.Sprintf("FACT-%02d: on day %d of the dispute the tenant recorded an exchange with the landlord about the deposit, with its date and its witness noted.", i+1, i+1))
		}
		return out
	}()
	// agentPlan is the reasoner's plan: 3,000 characters and more, ending with a marker.
	agentPlan = func() string {
		var b strings.Builder
		for i := 1; b.Len() < 3000; i++ {
			fmt.Fprintf(&b, "PLAN-STEP %d: set out the tenant's claim to the deposit with the lease, the handover report and the agency's witness, citing only the sources the research returns. ", i)
		}
		return b.String() + "END-OF-PLAN"
	}()
	// agentParties are the parties' personal data, which no model request may hold.
	agentParties = []map[string]any{
		{"first_name": "Teodora", "last_name": "Vranceanu", "cnp": "2900512400012", "email": "teodora.vranceanu@example.ro", "address": "Str. Lalelelor 9, București"},
		{"first_name": "Gheorghe", "last_name": "Postolache", "cnp": "1700203400023", "email": "g.postolache@example.ro"},
		{"company_name": "Agenția Casa Bună SRL", "cui": "RO18547290"},
	}
)

// agentScript is a model that works as a real one would, from what each request holds:
// in the first turn it records the client's facts; in the second it reads the case
// file, consults the reasoner with a synthesis, researches (normattiva_search and
// kb_search at once), drafts from the plan, and answers, naming a source that failed;
// in the third it answers from the history. The reasoner answers with agentPlan.
func agentScript(req stack.ModelRequest) (stack.ModelReply, bool) {
	if req.Role == "reasoner" {
		return stack.ModelReply{Content: agentPlan}, true
	}
	asked, steps := req.Turn()
	if strings.Contains(asked, "<description>") {
		return stack.ModelReply{}, false // tiering: the offline model
	}
	call := func(id, name string, args map[string]any) stack.ModelCall {
		raw, _ := json.Marshal(args)
		return stack.ModelCall{ID: id, Name: name, Arguments: string(raw)}
	}
	switch {
	case strings.Contains(asked, "Here is what happened"):
		if _, ok := stack.Result(steps, schemas.ToolUpdateCaseDetails); ok {
			return stack.ModelReply{Content: "I have recorded the facts of your case."}, true
		}
		facts := make([]map[string]any, len(agentFacts))
		for i, f := range agentFacts {
			facts[i] = map[string]any{"fact": f}
		}
		return stack.ModelReply{Calls: []stack.ModelCall{call("c1", schemas.ToolUpdateCaseDetails,
			map[string]any{"updates": map[string]any{"summary.current": agentSummary, "facts": facts}})}}, true
	case strings.Contains(asked, "formal notice"):
		if _, ok := stack.Result(steps, schemas.ToolGetCaseDetails); !ok {
			return stack.ModelReply{Calls: []stack.ModelCall{call("c1", schemas.ToolGetCaseDetails, map[string]any{})}}, true
		}
		if _, ok := stack.Result(steps, schemas.ToolConsultReasoner); !ok {
			return stack.ModelReply{Calls: []stack.ModelCall{call("c2", schemas.ToolConsultReasoner, map[string]any{
				"context_summary":   "A tenant's deposit is withheld by the landlord after a clean handover; twelve dated exchanges are recorded.",
				"specific_question": "What strategy, and what plan for a formal notice to the landlord?"})}}, true
		}
		kb, researched := stack.Result(steps, schemas.ToolKBSearch)
		if !researched {
			return stack.ModelReply{Calls: []stack.ModelCall{
				call("c3", schemas.ToolNormattivaSearch, map[string]any{"act_type": "codice civile", "article": "1590"}),
				call("c4", schemas.ToolKBSearch, map[string]any{"query": "restituzione del deposito cauzionale"}),
			}}, true
		}
		if _, ok := stack.Result(steps, schemas.ToolGenerateDraftPDF); !ok {
			return stack.ModelReply{Calls: []stack.ModelCall{call("c5", schemas.ToolGenerateDraftPDF, map[string]any{
				"markdown_content": "# Formal notice\n\n{{party0.fullName}} asks {{party1.fullName}} to return the deposit within 15 days.",
				"draft_name":       "Formal_notice_deposit", "revision": 1})}}, true
		}
		reply := "The draft formal notice is ready (revision 1)."
		if normattiva, _ := stack.Result(steps, schemas.ToolNormattivaSearch); strings.Contains(normattiva, "failed") {
			reply += " Normattiva is unavailable right now, so I could not quote the Civil Code's text;"
		}
		if strings.Contains(kb, "12345/2019") {
			reply += " the Cassazione (n. 12345/2019) holds that a deposit must be returned unless damage is proven."
		}
		return stack.ModelReply{Content: reply}, true
	}
	return stack.ModelReply{Content: "Send the notice by registered post and wait 15 days for an answer."}, true
}

// TestAgentReadsTheWholeCase drives three turns through a scripted model on the
// chat-completions wire format and checks what each request held: the case file's
// whole summary and its twelve facts, the reasoner's whole 3,000-character plan, the
// failure text of a research source answering 503 and what else was found, the
// earlier turn's research in the history, and never a party's personal data; and that
// the failing source left the conversation going, the turn answering rather than
// asking the client.
func TestAgentReadsTheWholeCase(t *testing.T) {
	t.Parallel()
	lexe := stack.StartLexe(t)
	lexe.Fail("normattiva")
	model := stack.StartScriptedModel(t, agentScript)
	c, queue := s.ServeQueue(t, "e2e-agent")
	s.StartHelperWorker(t, queue, 0, "LEXE_TOOLS_URL="+lexe.URL,
		"LEXFLOW_ASSISTANT_BASE_URL="+model.BaseURL("assistant"), "LEXFLOW_ASSISTANT_MODEL=scripted",
		"LEXFLOW_REASONER_BASE_URL="+model.BaseURL("reasoner"), "LEXFLOW_REASONER_MODEL=scripted")
	client := s.Token(t, "agent-client")
	r := c.Call(t, "POST", "/v1/cases", client, map[string]any{
		"description": "My landlord keeps my deposit after I left the flat in good order; I want to sue him in court to get it back", "language": "en"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create case: %d %s", r.Status, r.Raw)
	}
	id := r.Body["case_id"].(string)
	c.WaitForStatus(t, client, id, schemas.StatusOpen, schemas.PhaseActive)
	for _, p := range agentParties {
		if r := c.Call(t, "POST", "/v1/cases/"+id+"/parties", client, p); r.Status != http.StatusCreated {
			t.Fatalf("party: %d %s", r.Status, r.Raw)
		}
	}

	c.Send(t, client, id, "Here is what happened, in twelve points.")
	second := c.Send(t, client, id, "Please prepare the formal notice to the landlord.")
	third := c.Send(t, client, id, "Thank you. What happens next?")

	// The second turn's requests, in order: after the case file, after the reasoner,
	// after the research, after the draft.
	var turn2 []stack.ModelRequest
	var last stack.ModelRequest
	for _, req := range model.Requests() {
		asked, _ := req.Turn()
		switch {
		case req.Role == "assistant" && strings.Contains(asked, "formal notice"):
			turn2 = append(turn2, req)
		case req.Role == "assistant" && strings.Contains(asked, "What happens next"):
			last = req
		}
	}
	if len(turn2) != 5 {
		t.Fatalf("the second turn made %d assistant calls, want 5", len(turn2))
	}
	_, steps := turn2[1].Turn()
	caseFile, _ := stack.Result(steps, schemas.ToolGetCaseDetails)
	for _, want := range append([]string{agentSummary}, agentFacts...) {
		if !strings.Contains(caseFile, want) {
			t.Errorf("the case file the model read lacks %q:\n%s", want, caseFile)
		}
	}
	_, steps = turn2[2].Turn()
	if plan, _ := stack.Result(steps, schemas.ToolConsultReasoner); !strings.Contains(plan, agentPlan) {
		t.Errorf("the reasoner's plan reached the model as %d characters, not whole", len(plan))
	}
	_, steps = turn2[3].Turn()
	normattiva, _ := stack.Result(steps, schemas.ToolNormattivaSearch)
	kb, _ := stack.Result(steps, schemas.ToolKBSearch)
	if !strings.HasPrefix(normattiva, "[Tool "+schemas.ToolNormattivaSearch+" failed:") || !strings.Contains(kb, "12345/2019") {
		t.Errorf("after the research the model read %q and %q", normattiva, kb)
	}

	// The failing source left the conversation going: an answer, not a question.
	reply, _ := second.Body["reply"].(string)
	if !strings.Contains(reply, "Normattiva is unavailable") || !strings.Contains(reply, "12345/2019") {
		t.Errorf("second reply: %q", reply)
	}
	for _, text := range []string{reply, fmt.Sprint(third.Body["reply"])} {
		if strings.Contains(text, "upstream connect error") || strings.Contains(text, "503") {
			t.Errorf("a reply holds the internal error: %q", text)
		}
	}
	c.WaitForStatus(t, client, id, schemas.StatusOpen, schemas.PhaseActive)

	// The third turn's history holds the second's research and the plan.
	history := last.Text()
	for _, want := range []string{"12345/2019", "END-OF-PLAN", "FACT-12"} {
		if !strings.Contains(history, want) {
			t.Errorf("the third turn's request lacks %q from the history", want)
		}
	}

	// The admin's view of the next call shows the earlier research, each part sized,
	// pseudonymized as the model reads it.
	admin := s.Mint(t, auth.Identity{Subject: "root", Roles: []string{schemas.RoleAdmin}, Operator: true})
	view := c.Call(t, "GET", "/v1/admin/cases/"+id+"/context", admin, nil)
	parts, _ := view.Body["parts"].([]any)
	sized := map[string]bool{}
	for _, p := range parts {
		part := p.(map[string]any)
		if part["chars"].(float64) > 0 && part["tokens"].(float64) > 0 {
			sized[fmt.Sprint(part["tool"])] = true
		}
	}
	if view.Status != http.StatusOK || !sized[schemas.ToolConsultReasoner] || !sized[schemas.ToolKBSearch] || !sized[schemas.ToolGetCaseDetails] ||
		strings.Contains(string(view.Raw), "Vranceanu") {
		t.Errorf("the admin's context view: %d, sized parts %v", view.Status, sized)
	}

	// No request held a party's personal data.
	for i, req := range model.Requests() {
		text := req.Text()
		for _, p := range agentParties {
			for k, v := range p {
				value := v.(string)
				if k == "address" {
					value = "Lalelelor" // its street, however it is written
				}
				if strings.Contains(text, value) {
					t.Errorf("request %d (%s) holds the party's %s", i, req.Role, k)
				}
			}
		}
	}
}
