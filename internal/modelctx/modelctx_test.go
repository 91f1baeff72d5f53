package modelctx

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// earlierTurn is a turn's records: the client's message, a tool call whose result
// showed the model shown (its summary the first 900 characters), and the answer.
func earlierTurn(no int, tool, shown string) []Record {
	id := fmt.Sprintf("case:c1:turn:%d", no)
	summary := tools.Clip(shown, tools.SummaryChars)
	return []Record{
		{ID: id + ":user", TurnNo: no, Role: schemas.RecordUser, Content: fmt.Sprintf("question %d about the deposit", no)},
		{ID: id + ":tool-1", TurnNo: no, Seq: 1, Role: schemas.RecordTool, Content: summary,
			Tool: &ToolCall{Name: tool, Args: `{"case_id":"c1"}`, Status: schemas.ToolOK, Shown: shown}},
		{ID: id + ":assistant", TurnNo: no, Seq: 2, Role: schemas.RecordAssistant, Content: fmt.Sprintf("answer %d", no)},
	}
}

// TestHistoryHoldsEarlierResearch: a model call reads an earlier turn's tool call and
// the whole text its result showed the model, in the OpenAI shape (the call's ID made
// from its record's), and support's note, between the client's message and the
// answer, before the turn's own messages.
func TestHistoryHoldsEarlierResearch(t *testing.T) {
	plan := "The reasoner's answer:\n" + strings.Repeat("Plan: cite art. 1357 Codul civil. ", 100)
	recs := earlierTurn(1, schemas.ToolConsultReasoner, plan)
	recs = append(recs, Record{ID: "notice-1", TurnNo: 1, Seq: 1001, Role: schemas.RecordSupport, Content: "Resumed by support: the ticket is solved."})
	turn := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "and now?"}}
	c := Assemble(Input{System: "You are Lexflow.", Earlier: recs, Turn: turn})
	roles := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		roles[i] = m.Role
	}
	if got := strings.Join(roles, " "); got != "system user assistant tool assistant system user" {
		t.Fatalf("messages %s", got)
	}
	call, result := c.Messages[2], c.Messages[3]
	if len(call.ToolCalls) != 1 || call.ToolCalls[0].Name != schemas.ToolConsultReasoner || call.ToolCalls[0].Arguments != `{"case_id":"c1"}` ||
		call.ToolCalls[0].ID != CallID("case:c1:turn:1:tool-1") || result.ToolCallID != call.ToolCalls[0].ID {
		t.Errorf("tool call %+v, result for %q", call.ToolCalls, result.ToolCallID)
	}
	if result.Content != plan {
		t.Errorf("the earlier result reads %d characters, want the %d the model read", len(result.Content), len(plan))
	}
	if !strings.Contains(c.Messages[5].Content, "ticket is solved") || c.Parts[5].Kind != "support" {
		t.Errorf("support's note = %+v", c.Messages[5])
	}
	if c.Messages[6].Content != turn[0].Content || len(c.Dropped) != 0 {
		t.Errorf("the turn's message = %+v, dropped %v", c.Messages[6], c.Dropped)
	}
	for i, p := range c.Parts {
		if p.Chars == 0 || p.Tokens != msgTokens(c.Messages[i]) {
			t.Errorf("part %d = %+v", i, p)
		}
	}
	if again := Assemble(Input{System: "You are Lexflow.", Earlier: recs, Turn: turn}); again.Messages[2].ToolCalls[0].ID != call.ToolCalls[0].ID {
		t.Error("the call's ID differs from one assembly to the next")
	}
}

// TestOldestTurnsGoFirst: past the history's budget the newest turns stay whole, a
// turn that fits only with its results as summaries is shown so, and the oldest are
// left out, each told in a line with the client's question and the tools it used.
func TestOldestTurnsGoFirst(t *testing.T) {
	var recs []Record
	for no := 1; no <= 30; no++ {
		recs = append(recs, earlierTurn(no, schemas.ToolKBSearch, fmt.Sprintf("[KB turn %d] ", no)+strings.Repeat("massima ", 300))...)
	}
	c := Assemble(Input{System: "You are Lexflow.", Earlier: recs, ContextTokens: schemas.MinContextTokens})
	var history, summaries int
	kept := map[int]bool{}
	for i, p := range c.Parts {
		if p.TurnNo > 0 {
			history += p.Tokens
			kept[p.TurnNo] = true
		}
		if p.Note != "shown as its summary, for the turn to fit" {
			continue
		}
		summaries++
		if n := len([]rune(c.Messages[i].Content)); n != tools.SummaryChars+1 || !strings.HasPrefix(c.Messages[i].Content, fmt.Sprintf("[KB turn %d]", p.TurnNo)) {
			t.Errorf("a summary of turn %d reads %d characters: %.40q", p.TurnNo, n, c.Messages[i].Content)
		}
	}
	if summaries == 0 {
		t.Error("no turn was shown with its results as summaries")
	}
	if history > c.HistoryBudget || c.HistoryBudget != schemas.MinContextTokens*HistoryPercent/100 {
		t.Errorf("earlier turns take %d tokens of a budget of %d", history, c.HistoryBudget)
	}
	if !kept[30] || kept[1] || len(kept)+len(c.Dropped) != 30 {
		t.Fatalf("kept turns %v, dropped %v", kept, c.Dropped)
	}
	for i, d := range c.Dropped {
		if d.TurnNo != i+1 || kept[d.TurnNo] {
			t.Errorf("dropped %v is not the oldest turns in order", c.Dropped)
			break
		}
	}
	summary := c.Messages[1].Content
	last := c.Dropped[len(c.Dropped)-1]
	if c.Parts[1].Kind != "summary" || !strings.Contains(summary, last.Line) ||
		!strings.Contains(last.Line, fmt.Sprintf("Turn %d; the client wrote «question %d about the deposit»; tools used: kb_search (ok)", last.TurnNo, last.TurnNo)) {
		t.Errorf("summary %q, last dropped %+v", summary, last)
	}
	if n := len(c.Dropped) - summaryLines; n > 0 && !strings.Contains(summary, fmt.Sprintf("- %d older turns.", n)) {
		t.Errorf("summary does not count the %d turns past its lines: %q", n, summary)
	}
}

// TestMoreRecordsThanRead: a case with records older than those read has its oldest
// turn read, which may be partial, told in the summary rather than shown.
func TestMoreRecordsThanRead(t *testing.T) {
	recs := append(earlierTurn(7, schemas.ToolKBSearch, "r7")[1:], earlierTurn(8, schemas.ToolKBSearch, "r8")...)
	c := Assemble(Input{System: "s", Earlier: recs, More: true})
	if c.Parts[1].Kind != "summary" || !strings.Contains(c.Messages[1].Content, "The turns before turn 8 are not shown.") {
		t.Errorf("summary %q", c.Messages[1].Content)
	}
	if c.Parts[2].TurnNo != 8 || len(c.Dropped) != 0 {
		t.Errorf("parts %+v, dropped %+v", c.Parts, c.Dropped)
	}
}

// TestWholeCaseFileAndPlanReachTheModel is the proof at the assembly: a
// case of twelve facts and three parties and a 3,000-character plan of the reasoner,
// read in an earlier turn and in this one, reach the model whole, pseudonymized: no
// party's name is left, each is its placeholder.
func TestWholeCaseFileAndPlanReachTheModel(t *testing.T) {
	parties := []pseudonym.Party{{ID: "party0", FirstName: "Ion", LastName: "Popescu"},
		{ID: "party1", CompanyName: "Imobiliare Nord SRL"}, {ID: "party2", FirstName: "Maria", LastName: "Ionescu", Email: "maria@example.ro"}}
	var facts []any
	for i := range 12 {
		facts = append(facts, fmt.Sprintf("Fact %02d: Ion Popescu paid rent for month %d to Imobiliare Nord SRL.", i, i+1))
	}
	file, _ := json.Marshal(schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess, CaseDetails: map[string]any{
		"summary": map[string]any{"current": "Ion Popescu wants his deposit back from Imobiliare Nord SRL; Maria Ionescu witnessed the handover."},
		"facts":   facts, "legal_research": map[string]any{"legislation": []any{"Codul civil, art. 1357"}},
	}, Parties: []schemas.PartyPlaceholder{{PartyID: "party0", Placeholders: []string{"{{party0.fullName}}"}},
		{PartyID: "party1", Placeholders: []string{"{{party1.companyName}}"}}, {PartyID: "party2", Placeholders: []string{"{{party2.email}}"}}}})
	caseTool, _ := tools.Get(schemas.ToolGetCaseDetails)
	shownFile, _ := caseTool.Show(file, 0)
	plan := strings.Repeat("Write the notice to Imobiliare Nord SRL citing art. 1357; ", 60)[:3000]
	answer, _ := json.Marshal(schemas.ConsultReasonerResult{Status: schemas.ResultSuccess, Response: plan})
	reasoner, _ := tools.Get(schemas.ToolConsultReasoner)
	shownPlan, _ := reasoner.Show(answer, 0)

	earlier := append(earlierTurn(1, schemas.ToolGetCaseDetails, shownFile), earlierTurn(2, schemas.ToolConsultReasoner, shownPlan)...)
	turn := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "Draft the notice."},
		{Role: schemas.MsgAssistant, ToolCalls: []schemas.ToolCall{{ID: "call_a", Name: schemas.ToolGetCaseDetails, Arguments: `{}`}}},
		{Role: schemas.MsgTool, ToolCallID: "call_a", Content: shownFile}}
	c := Assemble(Input{System: "You are Lexflow.", Earlier: earlier, Turn: turn})
	if len(c.Dropped) != 0 {
		t.Fatalf("turns left out: %+v", c.Dropped)
	}
	msgs, err := Pseudonymize(t.Context(), c.Messages, parties)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, m := range msgs {
		all.WriteString(m.Content + "\n")
	}
	text := all.String()
	for _, want := range []string{"{{party0.fullName}} wants his deposit back from {{party1.companyName}}", "Fact 00: {{party0.fullName}}",
		"Fact 11: {{party0.fullName}} paid rent for month 12", "{{party2.email}}", "Codul civil, art. 1357",
		pseudonym.Text(plan, parties)} {
		if !strings.Contains(text, want) {
			t.Errorf("the call lacks %.80q", want)
		}
	}
	for _, name := range []string{"Popescu", "Imobiliare Nord", "Ionescu", "maria@example.ro"} {
		if strings.Contains(text, name) {
			t.Errorf("the call names %q", name)
		}
	}
	if strings.Count(text, "Fact 11:") != 2 || strings.Contains(text, "Left out") {
		t.Errorf("the case file is not whole in both turns")
	}
}

// TestPseudonymizeToolArguments: a call's arguments are pseudonymized with its text,
// and arguments a marker left no longer JSON are not sent.
func TestPseudonymizeToolArguments(t *testing.T) {
	parties := []pseudonym.Party{{ID: "party0", FirstName: "Ion", LastName: "Popescu"}}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "Ion Popescu"},
		{Role: schemas.MsgAssistant, ToolCalls: []schemas.ToolCall{{ID: "a", Name: "get_party_id_by_name", Arguments: `{"mentioned_name":"Ion Popescu"}`},
			{ID: "b", Name: "web_search", Arguments: `{"query": "Ion Popescu"`}}}}
	out, err := Pseudonymize(t.Context(), msgs, parties)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Content != "{{party0.fullName}}" || out[1].ToolCalls[0].Arguments != `{"mentioned_name":"{{party0.fullName}}"}` ||
		out[1].ToolCalls[1].Arguments != "{}" || out[1].ToolCalls[1].ID != "b" {
		t.Errorf("pseudonymized %+v", out)
	}
	if msgs[1].ToolCalls[0].Arguments != `{"mentioned_name":"Ion Popescu"}` {
		t.Error("Pseudonymize changed its input")
	}
}

// TestPseudonymizedMeasuresWhatTheModelReads: the admin's view of a call gives each
// part's size as the model reads it, placeholders and all.
func TestPseudonymizedMeasuresWhatTheModelReads(t *testing.T) {
	c := Assemble(Input{System: "s", Turn: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "Ion Popescu"}}})
	p, err := c.Pseudonymized(t.Context(), []pseudonym.Party{{ID: "party0", FirstName: "Ion", LastName: "Popescu"}})
	if err != nil {
		t.Fatal(err)
	}
	want := len([]rune("{{party0.fullName}}"))
	if p.Messages[1].Content != "{{party0.fullName}}" || p.Parts[1].Chars != want || p.Parts[1].Tokens != tools.Tokens("{{party0.fullName}}") ||
		p.Tokens != p.Parts[0].Tokens+p.Parts[1].Tokens {
		t.Errorf("pseudonymized %+v, parts %+v, %d tokens", p.Messages, p.Parts, p.Tokens)
	}
	if c.Messages[1].Content != "Ion Popescu" || c.Parts[1].Chars != len("Ion Popescu") {
		t.Errorf("Pseudonymized changed the context it was given: %+v", c.Parts[1])
	}
}
