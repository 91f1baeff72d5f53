package activities

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// historyRecords is how many records of a case's earlier turns accompany a model call.
const historyRecords = 20

// Model calls the model roles. The clients hold the API keys, which therefore never
// leave the worker: workflows send only the role, the case and the turn's messages.
type Model struct {
	Clients     map[string]*llm.Client
	Transcripts store.Transcripts
	Memories    store.Memories
	Prompts     *prompts.Library
}

// CallModel asks a role for the next step of a turn. It prepends the system prompt (the
// role's prompt file, the legal-tools warning, the user's memory and the relevant earlier
// turns, as the request selects) and the case's latest earlier turns from the store, and
// offers the named tools. A request the endpoint refuses is a non-retryable
// ErrModelRejected; anything else is retried by the activity's retry policy.
func (m *Model) CallModel(ctx context.Context, req schemas.ModelRequest) (schemas.ModelResponse, error) {
	client, ok := m.Clients[schemas.EndpointOf(req.Role)]
	if !ok {
		return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("no model configured for role %q", req.Role), schemas.ErrInvalidArgs, nil)
	}
	earlier, err := m.Transcripts.ListRecords(ctx, req.CaseID, req.TurnNo, 0)
	if err != nil {
		return schemas.ModelResponse{}, err
	}
	pc := prompts.Context{CaseID: req.CaseID, Language: req.Language, LegalToolsOff: req.LegalToolsOff}
	if req.UseMemory && req.UserID != "" {
		mem, err := m.Memories.GetMemory(ctx, req.UserID)
		if err != nil {
			return schemas.ModelResponse{}, err
		}
		pc.Memory = mem.Text
	}
	if req.UseRAG {
		pc.Earlier = relevantEarlier(req.Query, earlier, ragResults)
	}
	history := earlier[max(len(earlier)-historyRecords, 0):]
	msgs := []schemas.ChatMessage{{Role: schemas.MsgSystem, Content: m.Prompts.System(req.Role, pc)}}
	for _, r := range history {
		switch r.Role {
		case store.RoleUser:
			msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgUser, Content: r.Content})
		case store.RoleAssistant:
			msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: r.Content})
		}
	}
	msgs = append(msgs, req.Messages...)
	tools, err := toolDefinitions(req.Tools)
	if err != nil {
		return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	}
	resp, err := client.Complete(ctx, msgs, tools)
	if err != nil && !llm.Retryable(err) {
		return schemas.ModelResponse{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrModelRejected, err)
	}
	return resp, err
}

// toolDefinitions turns tool names into the definitions the model sees, from the JSON
// Schemas in schemas/tools.
func toolDefinitions(names []string) ([]llm.Tool, error) {
	out := make([]llm.Tool, 0, len(names))
	for _, n := range names {
		s, err := schemas.ToolSchema(n)
		if err != nil {
			return nil, err
		}
		desc, _ := s["description"].(string)
		params := map[string]any{}
		for k, v := range s {
			if k != "$schema" && k != "title" && k != "description" {
				params[k] = v
			}
		}
		out = append(out, llm.Tool{Name: n, Description: desc, Parameters: params})
	}
	return out, nil
}

// ConsultReasoner is consult_reasoner (seed 003's consult_grok): the reasoner's answer to
// a specific question about a case, given a concise context. With the escalation
// purpose it answers from the escalation prompt, with its advice on a failed tool.
// A model that refuses the request is an answer; anything else is retried.
func (m *Model) ConsultReasoner(ctx context.Context, args schemas.ConsultReasonerArgs) (schemas.ConsultReasonerResult, error) {
	role := schemas.RoleReasoner
	if args.Purpose == schemas.ConsultPurposeEscalation {
		role = schemas.RoleEscalation
	}
	client, ok := m.Clients[schemas.EndpointOf(role)]
	if !ok {
		return schemas.ConsultReasonerResult{Status: schemas.ResultError, ErrorMessage: "no reasoner is configured"}, nil
	}
	msgs := []schemas.ChatMessage{
		{Role: schemas.MsgSystem, Content: m.Prompts.System(role, prompts.Context{CaseID: args.CaseID, Language: args.Language})},
		{Role: schemas.MsgUser, Content: args.ContextSummary + "\n\nQuestion: " + args.SpecificQuestion},
	}
	resp, err := client.Complete(ctx, msgs, nil)
	if err != nil && !llm.Retryable(err) {
		return schemas.ConsultReasonerResult{Status: schemas.ResultError, ErrorMessage: "Reasoner API error: " + err.Error()}, nil
	}
	if err != nil {
		return schemas.ConsultReasonerResult{}, err
	}
	return schemas.ConsultReasonerResult{Status: schemas.ResultSuccess, Response: resp.Content}, nil
}
