package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/memory"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/store"
)

// MemoryFactList answers GET /v1/me/memory/facts: the caller's facts, proposed and
// kept, oldest first, and the bounds a fact and the list keep.
type MemoryFactList struct {
	Facts    []store.MemoryFact `json:"facts"`
	Max      int                `json:"max_facts"`
	MaxChars int                `json:"max_chars"`
}

// MemoryFactRequest is the body of PATCH /v1/me/memory/facts/{id}: the fact's new
// text.
type MemoryFactRequest struct {
	Text *string `json:"text"`
}

// MemoryErased answers DELETE /v1/me/memory: how many facts were deleted, and whether
// a note was.
type MemoryErased struct {
	Facts int  `json:"facts"`
	Note  bool `json:"note"`
}

// listMemoryFacts answers the caller's facts.
func (h *handlers) listMemoryFacts(c echo.Context) error {
	facts, err := h.Store.ListMemoryFacts(c.Request().Context(), me(c))
	if err != nil {
		return fmt.Errorf("%w: list memory facts: %w", errUnavailable, err)
	}
	if facts == nil {
		facts = []store.MemoryFact{}
	}
	return c.JSON(http.StatusOK, MemoryFactList{Facts: facts, Max: store.MaxMemoryFacts, MaxChars: store.MaxFactChars})
}

// approveMemoryFact keeps one of the caller's facts; approving a kept fact answers
// it as it is. Another user's fact, or none, is 404.
func (h *handlers) approveMemoryFact(c echo.Context) error {
	f, err := h.Store.UpdateMemoryFact(c.Request().Context(), me(c), c.Param("id"), store.FactChange{Status: store.FactKept})
	if err != nil {
		return factError(c.Param("id"), err)
	}
	return c.JSON(http.StatusOK, f)
}

// rejectMemoryFact deletes one of the caller's proposed facts: nothing of it is kept.
// A kept fact is 409 (it is deleted, not rejected); another user's fact, or none (a
// fact rejected already), is 404.
func (h *handlers) rejectMemoryFact(c echo.Context) error {
	ctx, owner, id := c.Request().Context(), me(c), c.Param("id")
	f, err := h.Store.GetMemoryFact(ctx, owner, id)
	if err != nil {
		return factError(id, err)
	}
	if f.Status != store.FactProposed {
		return problemf(errConflict, "fact "+id+" is kept: delete it instead")
	}
	if err := h.Store.DeleteMemoryFact(ctx, owner, id); err != nil {
		return factError(id, err)
	}
	return c.NoContent(http.StatusNoContent)
}

// editMemoryFact replaces the text of one of the caller's facts, proposed or kept,
// which keeps its status; the text is kept on one line.
func (h *handlers) editMemoryFact(c echo.Context) error {
	var req MemoryFactRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Text == nil {
		return problemf(errInvalidInput, `send {"text": "..."}`)
	}
	text := strings.Join(strings.Fields(*req.Text), " ") // one line, as the prompt lists facts
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return problemf(errInvalidInput, "a fact's text cannot be empty: delete the fact instead")
	case n > store.MaxFactChars:
		return problemf(errInvalidInput, fmt.Sprintf("a fact has at most %d characters; this one has %d", store.MaxFactChars, n))
	}
	f, err := h.Store.UpdateMemoryFact(c.Request().Context(), me(c), c.Param("id"), store.FactChange{Text: text})
	if err != nil {
		return factError(c.Param("id"), err)
	}
	return c.JSON(http.StatusOK, f)
}

// deleteMemoryFact deletes one of the caller's facts, proposed or kept.
func (h *handlers) deleteMemoryFact(c echo.Context) error {
	if err := h.Store.DeleteMemoryFact(c.Request().Context(), me(c), c.Param("id")); err != nil {
		return factError(c.Param("id"), err)
	}
	return c.NoContent(http.StatusNoContent)
}

// eraseMemory deletes everything Lexflow remembers about the caller: every fact,
// proposed or kept, and the note.
func (h *handlers) eraseMemory(c echo.Context) error {
	ctx, owner := c.Request().Context(), me(c)
	n, err := h.Store.EraseMemoryFacts(ctx, owner)
	if err != nil {
		return fmt.Errorf("%w: erase memory facts: %w", errUnavailable, err)
	}
	m, err := h.Store.GetMemory(ctx, owner)
	if err != nil {
		return fmt.Errorf("%w: read memory: %w", errUnavailable, err)
	}
	if m.Text != "" {
		if _, err := h.Store.PutMemory(ctx, owner, ""); err != nil {
			return fmt.Errorf("%w: erase memory: %w", errUnavailable, err)
		}
	}
	return c.JSON(http.StatusOK, MemoryErased{Facts: n, Note: m.Text != ""})
}

// factError is the problem of a fact the store could not find or change.
func factError(id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return problemf(store.ErrNotFound, "no memory fact "+id)
	}
	return fmt.Errorf("%w: memory fact %s: %w", errUnavailable, id, err)
}

// keptFacts are the texts of owner's kept facts, oldest first, as a model reads them
// (memory.ForModel, as the worker's activities.Model makes them).
func (h *handlers) keptFacts(ctx context.Context, owner string) ([]string, error) {
	facts, err := h.Store.ListMemoryFacts(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("%w: read memory facts: %w", errUnavailable, err)
	}
	out, err := memory.ForModel(ctx, store.KeptFacts(facts), func(ctx context.Context, caseID string) ([]pseudonym.Party, error) {
		return h.modelParties(ctx, caseID)
	})
	if err != nil {
		return nil, fmt.Errorf("pseudonymize memory facts: %w", err)
	}
	return out, nil
}
