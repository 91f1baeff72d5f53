package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// redactBatch is how many events redactDocument reads at once.
const redactBatch = 500

// redactDocument takes a deleted document's text out of what the case keeps of the
// models' reading of it: the tool.finished events and the turns' results
// (turn.completed, turn.cancelled) whose tool summaries name the document (a
// read_document of it, a list_documents with its summary), and their sources, say
// instead that it was deleted, the raw results kept apart for them (claim checks) are overwritten so, and
// so are the transcript's tool records, their summaries and the texts they showed the
// model. What the model wrote from the text in its
// replies stays; so do the Temporal histories, sealed with the case's key (see
// docs/privacy.md).
func (h *handlers) redactDocument(ctx context.Context, caseID, docID string) error {
	note := "[redacted: document " + docID + " was deleted]"
	for after := int64(0); ; {
		events, err := h.Store.ListEvents(ctx, caseID, after, redactBatch)
		if err != nil {
			return fmt.Errorf("read the case's events: %w", err)
		}
		for _, e := range events {
			after = e.Seq
			body, refs, changed := redactedBody(e.Type, e.Body, docID, note)
			if !changed {
				continue
			}
			for _, ref := range refs {
				if err := h.Blobs.Put(ctx, ref, []byte(`{"redacted":`+fmt.Sprintf("%q", note)+`}`)); err != nil {
					return fmt.Errorf("redact a kept result: %w", err)
				}
			}
			if err := h.Store.RedactEvent(ctx, caseID, e.Seq, body); err != nil {
				return fmt.Errorf("redact event %d: %w", e.Seq, err)
			}
		}
		if len(events) < redactBatch {
			break
		}
	}
	recs, err := h.Store.ListRecords(ctx, caseID, 0, 0)
	if err != nil {
		return fmt.Errorf("read the transcript: %w", err)
	}
	for _, r := range recs {
		named := strings.Contains(r.Content, docID) || r.Tool != nil && strings.Contains(r.Tool.Shown, docID)
		if r.Role == schemas.RecordTool && named {
			if err := h.Store.RedactRecord(ctx, caseID, r.ID, note); err != nil {
				return fmt.Errorf("redact record %s: %w", r.ID, err)
			}
		}
	}
	return nil
}

// redactedBody is an event's body with every tool summary (of a call or of a source)
// that names docID replaced by note, and the keys of the raw results kept for those calls; changed is false
// when nothing names it.
func redactedBody(typ string, body json.RawMessage, docID, note string) (out json.RawMessage, refs []string, changed bool) {
	var calls []map[string]any
	var whole map[string]any
	switch typ {
	case schemas.EventToolFinished:
		var call map[string]any
		if json.Unmarshal(body, &call) != nil {
			return body, nil, false
		}
		calls, whole = []map[string]any{call}, call
	case schemas.EventTurnCompleted, schemas.EventTurnCancelled:
		if json.Unmarshal(body, &whole) != nil {
			return body, nil, false
		}
		used, _ := whole["tools_used"].([]any)
		sources, _ := whole["sources"].([]any)
		for _, u := range append(used, sources...) {
			if call, ok := u.(map[string]any); ok {
				calls = append(calls, call)
			}
		}
	default:
		return body, nil, false
	}
	for _, call := range calls {
		if summary, _ := call["summary"].(string); !strings.Contains(summary, docID) {
			continue
		}
		call["summary"], changed = note, true
		if ref, _ := call["result_ref"].(string); ref != "" {
			refs = append(refs, ref)
		}
	}
	if !changed {
		return body, nil, false
	}
	out, err := json.Marshal(whole)
	if err != nil {
		return body, nil, false
	}
	return out, refs, true
}
