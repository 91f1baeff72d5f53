package activities

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/memory"
	"github.com/lexflow/lexflow/internal/modelctx"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/tools"
)

// Model calls the model roles. The clients hold the API keys, which therefore never
// leave the worker: workflows send only the role, the case and the turn's messages.
type Model struct {
	Clients     map[schemas.ModelRole]*llm.Client
	Transcripts store.Transcripts
	// Memories reads a user's memory note and kept facts, and the parties of the cases
	// the facts came from, which pseudonymize them (internal/memory).
	Memories MemoryStore
	Prompts  *SystemPrompts
	// ContextTokens is the assistant model's context size, which budgets the earlier
	// turns a call reads (modelctx.Assemble); 0 means schemas.DefaultContextTokens.
	ContextTokens int
	// Meter charges every call to the case's model-token budgets.
	Meter *Meter
	// Events publishes model.retry, model.delta and model.step.
	Events *Publisher
}

// MemoryStore is what CallModel reads of a user's memory.
type MemoryStore interface {
	store.Memories
	store.MemoryFacts
	store.Parties
}

// CallModel asks a role for the next step of a turn. It prepends the system prompt (the
// role's prompt file, the legal-tools warning, the user's memory (their kept facts,
// pseudonymized by internal/memory, and their note) and the relevant earlier
// turns, as the request selects) and the case's earlier turns from the store, with
// their tool calls, results and support's notes, as modelctx.Assemble budgets them,
// and offers the named tools. The assistant's reply is streamed: its text is published as
// model.delta events as it comes. The activity heartbeats from its start, so a dead
// worker's call is tried again after the heartbeat timeout. A request the endpoint
// refuses is a non-retryable ErrModelRejected, and so is ErrBudgetExhausted (see
// Meter); anything else is retried by the activity's retry policy.
func (m *Model) CallModel(ctx context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
	client, ok := m.Clients[req.Role.Endpoint()]
	if !ok {
		return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("no model configured for role %q", req.Role), schemas.ErrInvalidArgs, nil)
	}
	defer heartbeat(ctx)()
	attempt := attemptOf(ctx)
	if attempt > 1 {
		m.Events.Tell(ctx, fmt.Sprintf("%s#%d", schemas.EventModelRetry, attempt), schemas.EventModelRetry,
			schemas.ModelRetryEvent{Role: req.Role, Attempt: attempt})
	}
	var earlier []store.Record
	if req.CaseID != "" {
		// Retrieval searches every earlier record; the history reads the latest.
		limit := modelctx.HistoryRecords + 1 // one more tells whether there are more
		if req.UseRAG {
			limit = 0
		}
		var err error
		if earlier, err = m.Transcripts.ListRecords(ctx, req.CaseID, req.TurnNo, limit); err != nil {
			return schemas.ModelResponse{}, err
		}
	}
	pc := prompts.Context{CaseID: req.CaseID, Language: req.Language, LegalToolsOff: req.LegalToolsOff}
	if req.UseMemory && req.UserID != "" {
		owner := store.OwnerID(req.OrgID, req.UserID)
		mem, err := m.Memories.GetMemory(ctx, owner)
		if err != nil {
			return schemas.ModelResponse{}, err
		}
		pc.Memory = mem.Text
		if pc.Facts, err = m.keptFacts(ctx, owner); err != nil {
			return schemas.ModelResponse{}, err
		}
	}
	if req.UseRAG {
		pc.Earlier = relevantEarlier(req.Query, earlier, ragResults)
	}
	history := earlier[max(len(earlier)-modelctx.HistoryRecords, 0):]
	system, err := m.Prompts.System(ctx, req.Role, pc)
	if err != nil {
		return schemas.ModelResponse{}, err
	}
	msgs := modelctx.Assemble(modelctx.Input{System: system, Earlier: modelRecords(history), More: len(earlier) > len(history),
		Turn: req.Messages, ContextTokens: m.ContextTokens}).Messages
	defs, err := toolDefinitions(req.Tools)
	if err != nil {
		return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	}
	// Only the assistant's text is for the client: tiering's answer is JSON for the
	// workflow, asked for unstreamed.
	var text func(string)
	endText := func() {}
	if req.Role == schemas.ModelAssistant {
		text, endText = m.Events.deltas(ctx, req.Role, attempt)
	}
	defer endText()
	resp, err := m.Meter.For(req.Tenant).Complete(ctx, client, msgs, defs, text)
	endText() // the deltas go before model.step
	if isBudgetExhausted(err) {
		return schemas.ModelResponse{}, err
	}
	if err != nil && !llm.Retryable(err) {
		return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrModelRejected, err)
	}
	if err != nil {
		return resp, err
	}
	countTokens(ctx, req.Role, tokens(resp, msgs))
	step := schemas.ModelStepEvent{Role: req.Role, ToolCalls: []string{}, FinishReason: resp.FinishReason}
	for _, c := range resp.ToolCalls {
		step.ToolCalls = append(step.ToolCalls, c.Name)
	}
	m.Events.Tell(ctx, fmt.Sprintf("%s#%d", schemas.EventModelStep, attempt), schemas.EventModelStep, step)
	return resp, nil
}

// keptFacts are the texts of owner's kept facts, oldest first, as a model may read
// them (memory.ForModel).
func (m *Model) keptFacts(ctx context.Context, owner string) ([]string, error) {
	facts, err := m.Memories.ListMemoryFacts(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("read memory facts: %w", err)
	}
	return memory.ForModel(ctx, store.KeptFacts(facts), func(ctx context.Context, caseID string) ([]pseudonym.Party, error) {
		return partiesOf(ctx, m.Memories, caseID)
	})
}

// toolDefinitions are the registry's definitions of the named tools, as the model is
// offered them.
func toolDefinitions(names []string) ([]llm.Tool, error) {
	out := make([]llm.Tool, 0, len(names))
	for _, n := range names {
		t, ok := tools.Get(n)
		if !ok {
			return nil, fmt.Errorf("no tool %q in the registry", n)
		}
		d := t.Definition()
		out = append(out, llm.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
	}
	return out, nil
}

// ConsultReasoner is consult_reasoner (seed 003's consult_grok): the reasoner's answer to
// a specific question about a case, given a concise context. With the escalation
// purpose it answers from the escalation prompt, with its advice on a failed tool, and
// publishes the ladder's reasoner rung as an escalation event.
// A model that refuses the request, or a budget used up, is an answer; anything else
// is retried.
func (m *Model) ConsultReasoner(ctx context.Context, args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
	role := schemas.ModelReasoner
	if args.Purpose == schemas.ConsultPurposeEscalation {
		role = schemas.ModelEscalation
	}
	client, ok := m.Clients[role.Endpoint()]
	if !ok {
		return schemas.ConsultReasonerResult{Status: schemas.ResultError, ErrorMessage: "no reasoner is configured"}, nil
	}
	system, err := m.Prompts.System(ctx, role, prompts.Context{CaseID: args.CaseID, Language: args.Language})
	if err != nil {
		return schemas.ConsultReasonerResult{}, err
	}
	msgs := []schemas.ChatMessage{
		{Role: schemas.MsgSystem, Content: system},
		{Role: schemas.MsgUser, Content: args.ContextSummary + "\n\nQuestion: " + args.SpecificQuestion},
	}
	resp, err := m.Meter.Complete(ctx, client, msgs, nil, nil)
	var res schemas.ConsultReasonerResult
	switch {
	case isBudgetExhausted(err):
		res = schemas.ConsultReasonerResult{Status: schemas.ResultError, ErrorMessage: "The reasoner was not asked: " + err.Error()}
	case err != nil && !llm.Retryable(err):
		res = schemas.ConsultReasonerResult{Status: schemas.ResultError, ErrorMessage: "Reasoner API error: " + err.Error()}
	case err != nil:
		return schemas.ConsultReasonerResult{}, err
	default:
		res = schemas.ConsultReasonerResult{Status: schemas.ResultSuccess, Response: resp.Content}
	}
	if e := args.Escalation; e != nil && args.Purpose == schemas.ConsultPurposeEscalation {
		ev := schemas.EscalationEventOf(*e)
		advice, err := m.Meter.Reidentify(ctx, res.Response) // the event is the client's
		if err != nil {
			return schemas.ConsultReasonerResult{}, err
		}
		ev.Advice = tools.Clip(advice, tools.SummaryChars)
		m.Events.Tell(ctx, schemas.EventEscalation, schemas.EventEscalation, ev)
	}
	return res, nil
}

// isBudgetExhausted reports whether err is the Meter's refusal.
func isBudgetExhausted(err error) bool {
	_, ok := schemas.BudgetExhaustedOf(err)
	return ok
}
