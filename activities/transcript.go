package activities

import (
	"context"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Transcript stores each turn's records. Record IDs come from the turn, so a retried
// activity, or a turn replayed on another worker, stores each record once.
type Transcript struct {
	Store store.Transcripts
}

// RecordUserMessage stores the user's message at the start of a turn.
func (a *Transcript) RecordUserMessage(ctx context.Context, in schemas.RecordUserMessage) error {
	return a.Store.AppendRecords(ctx, store.Record{
		ID: schemas.UserRecordID(in.TurnID), CaseID: in.CaseID, UserID: in.UserID, TurnID: in.TurnID, TurnNo: in.TurnNo,
		Seq: 0, Role: schemas.RecordUser, Content: in.Message, CreatedAt: in.At,
	})
}

// RecordTurn stores a turn's tool records and the assistant's answer.
func (a *Transcript) RecordTurn(ctx context.Context, in schemas.RecordTurn) error {
	res := in.Result
	recs := make([]store.Record, 0, len(res.ToolsUsed)+1)
	for i, t := range res.ToolsUsed {
		recs = append(recs, store.Record{
			ID: schemas.ToolRecordID(res.TurnID, i+1), CaseID: in.CaseID, UserID: in.UserID,
			TurnID: res.TurnID, TurnNo: in.TurnNo, Seq: i + 1, Role: schemas.RecordTool, Content: t.Summary,
			Tool:      &store.ToolRecord{Name: t.Tool, Args: string(t.Args), Status: t.Status, LatencyMS: t.LatencyMS, Error: t.Error},
			CreatedAt: in.At,
		})
	}
	recs = append(recs, store.Record{
		ID: schemas.AssistantRecordID(res.TurnID), CaseID: in.CaseID, UserID: in.UserID, TurnID: res.TurnID, TurnNo: in.TurnNo,
		Seq: len(res.ToolsUsed) + 1, Role: schemas.RecordAssistant, Content: res.Reply, CreatedAt: in.At,
	})
	return a.Store.AppendRecords(ctx, recs...)
}
