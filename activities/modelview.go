package activities

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/modelctx"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/internal/reidentify"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// view is what a model reads of a call's messages: the text of every message (the
// system prompt with the user's memory, the case's earlier turns and their tool calls,
// the client's message, tool results, the model's own earlier steps) and the arguments
// of every tool call, pseudonymized at once (modelctx.Pseudonymize) with the parties
// of the case whose workflow runs the activity, so that a value has the same marker
// throughout the call. A call of no case still has the personal data found by its
// form marked. It is the one point every model call's messages pass
// (Meter.Complete); a document's pages come to it already pseudonymized by the
// document tools, as the API shows them, and a value of the rest gets a marker
// numbered past the markers they hold.
func (m *Meter) view(ctx context.Context, msgs []schemas.ChatMessage) ([]schemas.ChatMessage, []pseudonym.Party, error) {
	parties, err := m.parties(ctx)
	if err != nil {
		return nil, nil, err
	}
	out, err := modelctx.Pseudonymize(ctx, msgs, parties)
	return out, parties, err
}

// parties are the parties of the case whose workflow runs the activity, as
// pseudonymizing reads them; none outside a case, or without a parties store.
func (m *Meter) parties(ctx context.Context) ([]pseudonym.Party, error) {
	r, ok := runOf(ctx)
	if m == nil || m.Parties == nil || !ok {
		return nil, nil
	}
	return partiesOf(ctx, m.Parties, schemas.CaseOfWorkflow(r.workflowID))
}

// partiesOf reads a case's parties as pseudonymizing reads them; none for no case.
func partiesOf(ctx context.Context, ps store.Parties, caseID string) ([]pseudonym.Party, error) {
	if caseID == "" || ps == nil {
		return nil, nil
	}
	parties, err := ps.ListParties(ctx, caseID)
	if err != nil {
		return nil, fmt.Errorf("read the case's parties: %w", err)
	}
	return pseudonymParties(parties), nil
}

// Reidentify returns a model's text as the client reads it: the placeholders of the
// parties of the activity's case replaced by their values (internal/reidentify).
func (m *Meter) Reidentify(ctx context.Context, text string) (string, error) {
	parties, err := m.parties(ctx)
	if err != nil {
		return "", err
	}
	return reidentify.Text(text, parties), nil
}

// reidentified wraps a streamed call's text callback so that the client's pieces
// come re-identified, a placeholder split across pieces held back until it is whole;
// flush sends what is held at the end of the stream.
func reidentified(text func(string), parties []pseudonym.Party) (wrapped func(string), flush func()) {
	s := reidentify.NewStream(parties)
	send := func(out string) {
		if out != "" {
			text(out)
		}
	}
	return func(piece string) { send(s.Write(piece)) }, func() { send(s.Flush()) }
}
