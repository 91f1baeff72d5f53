package activities

import (
	"github.com/lexflow/lexflow/internal/modelctx"
	"github.com/lexflow/lexflow/store"
)

// modelRecords are transcript records as modelctx assembles a model call from them:
// each tool record with the text its result showed the model.
func modelRecords(recs []store.Record) []modelctx.Record {
	out := make([]modelctx.Record, len(recs))
	for i, r := range recs {
		out[i] = modelctx.Record{ID: r.ID, TurnNo: r.TurnNo, Seq: r.Seq, Role: r.Role, Content: r.Content}
		if t := r.Tool; t != nil {
			out[i].Tool = &modelctx.ToolCall{Name: t.Name, Args: t.Args, Status: t.Status, Shown: t.Shown}
		}
	}
	return out
}
