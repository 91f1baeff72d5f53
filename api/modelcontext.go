package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/modelctx"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/tools"
)

// ContextView answers GET /v1/admin/cases/{id}/context: what the case's next
// assistant model call would read, pseudonymized as the model reads it, with each
// message's part and size, the earlier turns left out and the budgets (in estimated
// tokens, four characters a token); and the tools it would offer by default, with
// their definitions' estimated size.
type ContextView struct {
	CaseID string `json:"case_id"`
	modelctx.Context
	Tools      []string `json:"tools"`
	ToolTokens int      `json:"tool_tokens"`
}

// caseContext answers GET /v1/admin/cases/{id}/context for an admin whose scope
// reaches the case; audited (case.context.read), since it shows the case's content.
// The next call is assembled as the worker assembles it (modelctx.Assemble, then
// Pseudonymized with the case's parties), with the request's defaults (the default
// tools, the client's memory note and kept facts), after the optional message query
// parameter as the client's next message.
func (h *handlers) caseContext(c echo.Context) error {
	cs, err := h.staffCase(c)
	if err != nil {
		return err
	}
	msg := c.QueryParam("message")
	if n := utf8.RuneCountInString(msg); n > schemas.MaxMessageChars {
		return problemf(errInvalidInput, fmt.Sprintf("message has %d characters; the limit is %d", n, schemas.MaxMessageChars))
	}
	if err := h.audit(c, auditContext, cs.OrgID, cs.ID, nil); err != nil {
		return err
	}
	ctx := c.Request().Context()
	recs, err := h.Store.ListRecords(ctx, cs.ID, 0, modelctx.HistoryRecords+1)
	if err != nil {
		return fmt.Errorf("%w: read transcript: %w", errUnavailable, err)
	}
	history := recs[max(len(recs)-modelctx.HistoryRecords, 0):]
	sel, err := Toggles{}.Resolve([]string{schemas.RoleUser}, slices.Collect(maps.Keys(h.Unavailable)))
	if err != nil {
		return err
	}
	pc := prompts.Context{CaseID: cs.ID, Language: cs.Language, LegalToolsOff: !tools.AnyPrimary(sel.Tools)}
	if sel.UseMemory {
		mem, err := h.Store.GetMemory(ctx, store.OwnerID(cs.OrgID, cs.UserID))
		if err != nil {
			return fmt.Errorf("%w: read the client's memory: %w", errUnavailable, err)
		}
		pc.Memory = mem.Text
		if pc.Facts, err = h.keptFacts(ctx, store.OwnerID(cs.OrgID, cs.UserID)); err != nil {
			return err
		}
	}
	var turn []schemas.ChatMessage
	if msg != "" {
		turn = []schemas.ChatMessage{{Role: schemas.MsgUser, Content: msg}}
	}
	assembled := modelctx.Assemble(modelctx.Input{System: h.Prompts.System(schemas.ModelAssistant, pc), Earlier: modelRecords(history),
		More: len(recs) > len(history), Turn: turn, ContextTokens: h.ContextTokens})
	parties, err := h.modelParties(ctx, cs.ID)
	if err != nil {
		return err
	}
	if assembled, err = assembled.Pseudonymized(ctx, parties); err != nil {
		return fmt.Errorf("pseudonymize the context: %w", err)
	}
	view := ContextView{CaseID: cs.ID, Context: assembled, Tools: []string{}}
	for _, name := range sel.Tools {
		if t, ok := tools.Get(name); ok && t.Available() {
			def, _ := json.Marshal(t.Definition())
			view.Tools, view.ToolTokens = append(view.Tools, name), view.ToolTokens+tools.Tokens(string(def))
		}
	}
	return c.JSON(http.StatusOK, view)
}

// modelRecords are transcript records as modelctx reads them (as the worker's
// activities.modelRecords makes them; the API does not import the worker's code).
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
