package api_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// TestResearchSourceDownTheConversationGoesOn: with LEXE answering 503, a research
// question leaves the conversation going (issue 37's "Done when"): the reply says the
// source is unavailable and uses what the web search found, the case stays open, and nothing
// the client reads of the turn (its answer, events, transcript) carries the internal
// error, which support reads. Five failures across cases open one
// operator ticket, source:normattiva_search:<UTC date>, though turns cross the count
// at once, and pause no case.
func TestResearchSourceDownTheConversationGoesOn(t *testing.T) {
	t.Parallel()
	lexe := stack.StartLexe(t)
	lexe.Down.Store(true)
	down, queue := s.ServeQueue(t, "e2e-source-down")
	s.StartHelperWorker(t, queue, 0, "LEXE_TOOLS_URL="+lexe.URL, "SEARXNG_URL="+s.Config.SearXNGURL)
	tok := s.Token(t, "sofia")
	const internal = "upstream connect error"
	ids := make([]string, schemas.SourceFailureLimit)
	for i := range ids {
		r := down.Call(t, "POST", "/v1/cases", tok, map[string]any{"description": "Legal research question about liability", "language": "en"})
		ids[i] = r.Body["case_id"].(string)
	}

	// The web search, which no LEXE service answers, is switched on.
	ask := map[string]any{"message": "art. 2043 c.c.", "web_search_enabled": true}
	turn := down.Call(t, "POST", "/v1/cases/"+ids[0]+"/messages", tok, ask)
	reply, _ := turn.Body["reply"].(string)
	var tools []string
	for _, u := range stack.ToolsUsed(turn) {
		tools = append(tools, u["tool"].(string)+" "+u["status"].(string))
	}
	if turn.Status != 200 || !slices.Equal(tools, []string{"normattiva_search error", "web_search ok"}) {
		t.Errorf("%d: tools used = %q, want the failed source, then the web search", turn.Status, tools)
	}
	if turn.Body["status"] != schemas.StatusOpen || turn.Body["escalation"] != nil {
		t.Errorf("after the failure: status %v, escalation %v; want the case open", turn.Body["status"], turn.Body["escalation"])
	}
	if !strings.Contains(reply, "normattiva_search is unavailable at the moment") || !strings.Contains(reply, "Sources: web_search") ||
		strings.Contains(reply, internal) || strings.Contains(reply, "503") {
		t.Errorf("reply = %q; want the source unavailable, the legal web search's results, and no internal error", reply)
	}
	// Nothing of the turn the client reads holds the error: its answer, its events,
	// its transcript. Support reads it.
	for what, raw := range map[string][]byte{
		"the turn's answer": turn.Raw,
		"the case's events": down.Call(t, "GET", "/v1/cases/"+ids[0]+"/events", tok, nil).Raw,
		"the transcript":    down.Call(t, "GET", "/v1/cases/"+ids[0]+"/messages", tok, nil).Raw,
	} {
		if strings.Contains(string(raw), internal) {
			t.Errorf("%s, as the client reads it, holds the internal error: %s", what, raw)
		}
	}
	staff := s.Mint(t, auth.Identity{Subject: "sam", Org: "acme", Roles: []string{schemas.RoleSupport}})
	if r := down.Call(t, "GET", "/v1/support/cases/"+ids[0]+"/messages", staff, nil); !strings.Contains(string(r.Raw), internal) {
		t.Errorf("support's transcript lacks the error: %d %s", r.Status, r.Raw)
	}

	// Four more cases' turns at once bring the source to five failures.
	var wg sync.WaitGroup
	for _, id := range ids[1:] {
		wg.Go(func() {
			r, err := down.Request("POST", "/v1/cases/"+id+"/messages", tok, ask)
			if err != nil || r.Status != 200 || r.Body["status"] != schemas.StatusOpen || strings.Contains(r.Body["reply"].(string), internal) {
				t.Errorf("case %s: %v %d %v", id, err, r.Status, r.Body["reply"])
			}
		})
	}
	wg.Wait()
	if lexe.Calls.Load() != int64(len(ids)) {
		t.Errorf("LEXE had %d calls, want one a turn", lexe.Calls.Load())
	}
	tickets, err := s.Store.ListTickets(t.Context(), schemas.OperatorCase)
	if err != nil {
		t.Fatal(err)
	}
	var source []string
	for _, tk := range tickets {
		if strings.HasPrefix(tk.ID, "source:normattiva_search:") {
			source = append(source, tk.ID)
			if !strings.Contains(tk.Description, internal) {
				t.Errorf("the operator's ticket lacks the error support needs: %q", tk.Description)
			}
		}
	}
	if len(source) != 1 {
		t.Fatalf("operator tickets about normattiva_search: %q, want one", source)
	}
	if _, err := s.TC.DescribeWorkflowExecution(t.Context(), source[0], ""); err != nil {
		t.Errorf("the ticket's workflow %s: %v", source[0], err)
	}

	// Every case is open, nothing escalated, and its transcript's answers carry no
	// internal error.
	for _, id := range ids {
		r := down.Call(t, "GET", "/v1/cases/"+id, tok, nil)
		details, _ := r.Body["case_details"].(map[string]any)
		if r.Body["status"] != schemas.StatusOpen || details["escalation"] != nil {
			t.Errorf("case %s: status %v, case_details.escalation %v", id, r.Body["status"], details["escalation"])
		}
		msgs := down.Call(t, "GET", "/v1/cases/"+id+"/messages", tok, nil).Body["messages"].([]any)
		for _, m := range msgs {
			m := m.(map[string]any)
			if m["role"] == "assistant" && strings.Contains(m["content"].(string), internal) {
				t.Errorf("case %s: the client reads %q", id, m["content"])
			}
		}
	}
}
