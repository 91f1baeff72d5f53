package activities

import (
	"context"

	"github.com/lexflow/lexflow/internal/reidentify"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// RecordNotice writes a notice into the case's transcript, after the turn it follows,
// and publishes it, as the client reads it (a tiering justification or question the
// model wrote with the parties' placeholders, re-identified). Its ID comes from its
// number, so a retry stores it once.
func (a *Transcript) RecordNotice(ctx context.Context, n schemas.Notice) error {
	parties, err := partiesOf(ctx, a.Parties, n.CaseID)
	if err != nil {
		return err
	}
	n.Text = reidentify.Text(n.Text, parties)
	err = a.Store.AppendRecords(ctx, store.Record{
		ID: schemas.NoticeRecordID(n.CaseID, n.N), CaseID: n.CaseID, UserID: n.UserID,
		TurnNo: n.TurnNo, Seq: noticeSeq + n.N, Role: n.Role, Content: n.Text, CreatedAt: n.At,
	})
	if err != nil {
		return err
	}
	return a.Events.Publish(ctx, schemas.EventNotice, schemas.EventNotice, "", schemas.NoticeEvent{Role: n.Role, Text: n.Text})
}

// noticeSeq places notices after the records of the turn they follow.
const noticeSeq = 1000
