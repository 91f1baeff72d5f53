package activities

import (
	"context"

	"github.com/lexflow/lexflow/internal/reidentify"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Transcript stores each turn's records. Record IDs come from the turn, so a retried
// activity, or a turn replayed on another worker, stores each record once.
type Transcript struct {
	Store store.Transcripts
	// Parties re-identify the model's reply for the client (see RecordTurn).
	Parties store.Parties
	// Events publishes turn.started, turn.completed (or turn.cancelled, or
	// turn.failed), the ask_user rung's escalation and notice.
	Events *Publisher
}

// RecordUserMessage stores the user's message at the start of a turn, and publishes
// turn.started.
func (a *Transcript) RecordUserMessage(ctx context.Context, in schemas.RecordUserMessage) error {
	err := a.Store.AppendRecords(ctx, store.Record{
		ID: schemas.UserRecordID(in.TurnID), CaseID: in.CaseID, UserID: in.UserID, TurnID: in.TurnID, TurnNo: in.TurnNo,
		Seq: 0, Role: schemas.RecordUser, Content: in.Message, CreatedAt: in.At,
	})
	if err != nil {
		return err
	}
	return a.Events.Publish(ctx, schemas.EventTurnStarted, schemas.EventTurnStarted, in.TurnID,
		schemas.TurnStartedEvent{TurnNo: in.TurnNo, Message: in.Message, RequestID: in.RequestID})
}

// RecordTurn stores a turn's tool records, each with its summary and the text the model
// read of it (in.Shown), and the assistant's answer, and publishes
// the ladder's escalation event when the turn ends with a question for the client,
// and turn.completed (turn.cancelled for a cancelled turn) with the turn's result.
//
// Arguments a tool refused for their size are not kept (schemas.BoundedToolsUsed).
// The reply and the escalation's question and advice come from the model with the
// parties' placeholders; they are stored and published re-identified, as the client
// reads them (the model's next calls read the transcript pseudonymized again).
func (a *Transcript) RecordTurn(ctx context.Context, in schemas.RecordTurn) error {
	res, err := a.reidentified(ctx, in.CaseID, in.Result)
	if err != nil {
		return err
	}
	res.ToolsUsed = schemas.BoundedToolsUsed(res.ToolsUsed)
	recs := make([]store.Record, 0, len(res.ToolsUsed)+1)
	for i, t := range res.ToolsUsed {
		tool := &store.ToolRecord{Name: t.Tool, Args: string(t.Args), Status: t.Status, LatencyMS: t.LatencyMS, Error: t.Error}
		if i < len(in.Shown) {
			tool.Shown = in.Shown[i]
		}
		recs = append(recs, store.Record{
			ID: schemas.ToolRecordID(res.TurnID, i+1), CaseID: in.CaseID, UserID: in.UserID,
			TurnID: res.TurnID, TurnNo: in.TurnNo, Seq: i + 1, Role: schemas.RecordTool, Content: t.Summary,
			Tool: tool, CreatedAt: in.At,
		})
	}
	recs = append(recs, store.Record{
		ID: schemas.AssistantRecordID(res.TurnID), CaseID: in.CaseID, UserID: in.UserID, TurnID: res.TurnID, TurnNo: in.TurnNo,
		Seq: len(res.ToolsUsed) + 1, Role: schemas.RecordAssistant, Content: res.Reply, CreatedAt: in.At,
	})
	if err := a.Store.AppendRecords(ctx, recs...); err != nil {
		return err
	}
	if e := res.Escalation; e != nil && e.Rung == schemas.RungAskUser {
		if err := a.Events.Publish(ctx, schemas.EventEscalation, schemas.EventEscalation, res.TurnID, schemas.EscalationEventOf(*e)); err != nil {
			return err
		}
	}
	typ := schemas.EventTurnCompleted
	if res.Cancelled {
		typ = schemas.EventTurnCancelled
	}
	return a.Events.Publish(ctx, typ, typ, res.TurnID, res)
}

// RecordTurnFailed publishes turn.failed for a turn that failed.
func (a *Transcript) RecordTurnFailed(ctx context.Context, in schemas.RecordTurnFailed) error {
	return a.Events.Publish(ctx, schemas.EventTurnFailed, schemas.EventTurnFailed, in.TurnID, schemas.TurnFailedEvent{Reason: in.Reason})
}

// reidentified is a turn's result as the client reads it: its reply and escalation
// with the case's parties' placeholders replaced by their values.
func (a *Transcript) reidentified(ctx context.Context, caseID string, res schemas.TurnResult) (schemas.TurnResult, error) {
	parties, err := partiesOf(ctx, a.Parties, caseID)
	if err != nil {
		return res, err
	}
	return reidentify.Turn(res, parties), nil
}
