package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// recordData is a transcript record as stored, in its case's records subcollection.
type recordData struct {
	ID        string             `firestore:"id"`
	CaseID    string             `firestore:"case_id"`
	UserID    string             `firestore:"user_id"`
	TurnID    string             `firestore:"turn_id"`
	TurnNo    int                `firestore:"turn_no"`
	Seq       int                `firestore:"seq"`
	Role      schemas.RecordRole `firestore:"role"`
	Content   string             `firestore:"content"`
	Tool      *toolRecord        `firestore:"tool,omitempty"`
	CreatedAt time.Time          `firestore:"created_at"`
}

// toolRecord is store.ToolRecord as stored.
type toolRecord struct {
	Name      string `firestore:"name"`
	Args      string `firestore:"args"`
	Status    string `firestore:"status"`
	LatencyMS int64  `firestore:"latency_ms"`
	Error     string `firestore:"error,omitempty"`
	Shown     string `firestore:"shown,omitempty"`
}

// AppendRecords creates each record's document, leaving those that exist.
func (s *Store) AppendRecords(ctx context.Context, recs ...store.Record) error {
	for _, r := range recs {
		d := recordData{ID: r.ID, CaseID: r.CaseID, UserID: r.UserID, TurnID: r.TurnID, TurnNo: r.TurnNo, Seq: r.Seq,
			Role: r.Role, Content: r.Content, Tool: (*toolRecord)(r.Tool), CreatedAt: r.CreatedAt.UTC()}
		if _, err := s.sub(r.CaseID, RecordsCollection).Doc(DocID(r.ID)).Create(ctx, d); err != nil && !exists(err) {
			return fmt.Errorf("store transcript record: %w", err)
		}
	}
	return nil
}

// ListRecords returns a case's records in turn order: the latest limit of them, read
// newest first and turned round.
func (s *Store) ListRecords(ctx context.Context, caseID string, beforeTurn, limit int) ([]store.Record, error) {
	q := s.sub(caseID, RecordsCollection).Query
	if beforeTurn > 0 {
		q = q.Where("turn_no", "<", beforeTurn)
	}
	q = q.OrderBy("turn_no", fs.Desc).OrderBy("seq", fs.Desc)
	if limit > 0 {
		q = q.Limit(limit)
	}
	docs, err := all[recordData](ctx, q)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	out := make([]store.Record, len(docs))
	for i, d := range docs {
		out[len(docs)-1-i] = store.Record{ID: d.ID, CaseID: d.CaseID, UserID: d.UserID, TurnID: d.TurnID, TurnNo: d.TurnNo,
			Seq: d.Seq, Role: d.Role, Content: d.Content, Tool: (*store.ToolRecord)(d.Tool), CreatedAt: d.CreatedAt}
	}
	return out, nil
}
