package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// streamingModel is a loopback chat-completions endpoint that streams pieces as its
// answer (whole when not asked to stream) and keeps each request's body as sent.
func streamingModel(t *testing.T, pieces ...string) (*llm.Client, func() []string) {
	var (
		mu  sync.Mutex
		got []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		raw := new(strings.Builder)
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Body.Read(buf)
			raw.Write(buf[:n])
			if err != nil {
				break
			}
		}
		mu.Lock()
		got = append(got, raw.String())
		mu.Unlock()
		_ = json.Unmarshal([]byte(raw.String()), &body)
		if body["stream"] != true {
			content, _ := json.Marshal(strings.Join(pieces, ""))
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, content)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range pieces {
			content, _ := json.Marshal(p)
			fmt.Fprintf(w, `data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":%s}}]}`+"\n\n", content)
		}
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second}), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// TestAttackModelReadsPseudonymized (issue 36, finding 7): a party's name, CNP and
// e-mail in the case's description, its case_details (a get_case_details result), its
// transcript and the turn's message reach no model, neither the assistant's turn nor
// tiering nor the reasoner; another CNP is marked by its form. The model's reply keeps
// its placeholders for the workflow, while its streamed model.delta pieces, which
// split a placeholder, and the stored reply read as the client wrote the names.
func TestAttackModelReadsPseudonymized(t *testing.T) {
	ctx := t.Context()
	description := "Ion Popescu (CNP 2850512400011, ion.popescu@example.ro) is owed his deposit by a landlord, CNP 1800101221144."
	c, err := st.CreateCase(ctx, store.Case{ID: uuid.NewString(), UserID: "ion", OrgID: "pseudo-" + uuid.NewString()[:8],
		Phase: schemas.PhaseActive, Status: schemas.StatusOpen, Details: store.NewDetails(description)})
	if err != nil {
		t.Fatal(err)
	}
	caseID := c.ID
	if _, err := st.AddParty(ctx, store.Party{CaseID: caseID, FirstName: "Ion", LastName: "Popescu", CNP: "2850512400011",
		Email: "ion.popescu@example.ro"}); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"Popescu", "2850512400011", "1800101221144", "ion.popescu@example.ro"}
	if _, err := st.UpdateDetails(ctx, caseID, 0, "", map[string]any{"summary.current": "POPESCU Ion paid 2,000 lei"}); err != nil {
		t.Fatal(err)
	}
	details, err := (&Cases{Store: st}).GetCaseDetails(ctx, schemas.GetCaseDetailsArgs{CaseID: caseID})
	if err != nil {
		t.Fatal(err)
	}
	detailsJSON, _ := json.Marshal(details)
	if err := st.AppendRecords(ctx,
		store.Record{ID: caseID + ":1:u", CaseID: caseID, TurnNo: 1, Role: schemas.RecordUser, Content: description},
		store.Record{ID: caseID + ":1:a", CaseID: caseID, TurnNo: 1, Seq: 1, Role: schemas.RecordAssistant, Content: "Noted, Mr Popescu."},
	); err != nil {
		t.Fatal(err)
	}
	lib, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	client, sent := streamingModel(t, "Dear {{party0.", "lastName}}, your CNP {{party", "0.cnp}} stays {", "{doc.cnp.1}}.")
	events := &Publisher{Events: st}
	m := &Model{Clients: map[schemas.ModelRole]*llm.Client{schemas.ModelAssistant: client, schemas.ModelReasoner: client},
		Transcripts: st, Memories: st, Prompts: &SystemPrompts{Library: lib, Versions: st},
		Meter: &Meter{Cases: st, Budgets: st, Parties: st}, Events: events}

	var resp schemas.ModelResponse
	if err := runAsActivity(schemas.TieringWorkflowID(caseID, 1), func(ctx context.Context) error {
		_, err := m.CallModel(ctx, schemas.ModelRequest{Role: schemas.ModelTiering, CaseID: caseID, TurnNo: 1, Language: "en",
			Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: description}}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := runAsActivity(schemas.TurnWorkflowID(caseID, 2), func(ctx context.Context) error {
		var err error
		resp, err = m.CallModel(ctx, schemas.ModelRequest{Role: schemas.ModelAssistant, CaseID: caseID, TurnNo: 2, Language: "en",
			Messages: []schemas.ChatMessage{
				{Role: schemas.MsgUser, Content: "Will Ion Popescu get the deposit back?"},
				{Role: schemas.MsgAssistant, ToolCalls: []schemas.ToolCall{{ID: "c1", Name: schemas.ToolGetCaseDetails, Arguments: "{}"}}},
				{Role: schemas.MsgTool, ToolCallID: "c1", Content: string(detailsJSON)},
			}})
		if err != nil {
			return err
		}
		_, err = m.ConsultReasoner(ctx, schemas.ConsultReasonerArgs{CaseID: caseID, Language: "en",
			ContextSummary: "Ion Popescu, CNP 2850512400011", SpecificQuestion: "Is the deposit owed?"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	requests := sent()
	if len(requests) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(requests))
	}
	for i, body := range requests {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, msg := range req.Messages {
			text.WriteString(msg.Content + "\n")
		}
		for _, s := range secrets {
			if strings.Contains(text.String(), s) {
				t.Errorf("request %d holds %q:\n%s", i, s, text.String())
			}
		}
		if !strings.Contains(text.String(), "{{party0.") {
			t.Errorf("request %d holds no placeholder:\n%s", i, text.String())
		}
	}
	if turn := requests[1]; !strings.Contains(turn, "{{doc.cnp.1}}") || !strings.Contains(turn, "{{party0.fullName}}") || !strings.Contains(turn, "{{party0.email}}") {
		t.Errorf("the turn's request lacks the markers:\n%s", turn)
	}

	want := "Dear {{party0.lastName}}, your CNP {{party0.cnp}} stays {{doc.cnp.1}}."
	if resp.Content != want {
		t.Errorf("the workflow got %q, want the model's %q", resp.Content, want)
	}
	logged, err := st.ListEvents(ctx, caseID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var streamed strings.Builder
	for _, e := range logged {
		if e.Type != schemas.EventModelDelta {
			continue
		}
		var d schemas.ModelDeltaEvent
		if err := json.Unmarshal(e.Body, &d); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(d.Text, "{{party") || strings.HasSuffix(d.Text, "{{party0.") {
			t.Errorf("a model.delta holds a placeholder: %q", d.Text)
		}
		streamed.WriteString(d.Text)
	}
	if got := streamed.String(); got != "Dear Popescu, your CNP 2850512400011 stays {{doc.cnp.1}}." {
		t.Errorf("the client was streamed %q", got)
	}

	transcript := &Transcript{Store: st, Parties: st, Events: events}
	if err := runAsActivity(schemas.TurnWorkflowID(caseID, 2), func(ctx context.Context) error {
		return transcript.RecordTurn(ctx, schemas.RecordTurn{CaseID: caseID, TurnNo: 2, At: time.Now(),
			Result: schemas.TurnResult{TurnID: schemas.TurnWorkflowID(caseID, 2), Reply: resp.Content, ToolsUsed: []schemas.ToolUse{}}})
	}); err != nil {
		t.Fatal(err)
	}
	recs, err := st.ListRecords(ctx, caseID, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if last := recs[len(recs)-1]; last.Content != "Dear Popescu, your CNP 2850512400011 stays {{doc.cnp.1}}." {
		t.Errorf("the transcript keeps %q, want the reply as the client reads it", last.Content)
	}
}
