package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// AppendRecords seals each record's content and its tool call's arguments, error and
// the text it showed the model.
func (s *Store) AppendRecords(ctx context.Context, recs ...store.Record) error {
	sealed := make([]store.Record, len(recs))
	for i, r := range recs {
		k, err := s.caseKey(ctx, r.CaseID)
		if err != nil {
			return err
		}
		r.Content = sealString(k, r.Content)
		if r.Tool != nil {
			tool := *r.Tool
			tool.Args, tool.Error, tool.Shown = sealString(k, tool.Args), sealString(k, tool.Error), sealString(k, tool.Shown)
			r.Tool = &tool
		}
		sealed[i] = r
	}
	return s.Store.AppendRecords(ctx, sealed...)
}

// ListRecords opens the records.
func (s *Store) ListRecords(ctx context.Context, caseID string, beforeTurn, limit int) ([]store.Record, error) {
	recs, err := s.Store.ListRecords(ctx, caseID, beforeTurn, limit)
	if err != nil || len(recs) == 0 {
		return recs, err
	}
	o := s.opener(ctx, keys.CaseKeyID(caseID))
	for i := range recs {
		if err := openRecord(o, &recs[i]); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

func openRecord(o *opener, r *store.Record) error {
	var err error
	if r.Content, err = openString(o, r.Content); err != nil {
		return fmt.Errorf("record %s: %w", r.ID, err)
	}
	if r.Tool != nil {
		tool := *r.Tool
		if tool.Args, err = openString(o, tool.Args); err != nil {
			return fmt.Errorf("record %s: %w", r.ID, err)
		}
		if tool.Error, err = openString(o, tool.Error); err != nil {
			return fmt.Errorf("record %s: %w", r.ID, err)
		}
		if tool.Shown, err = openString(o, tool.Shown); err != nil {
			return fmt.Errorf("record %s: %w", r.ID, err)
		}
		r.Tool = &tool
	}
	return nil
}
