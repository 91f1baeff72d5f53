package api

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// maxMemoryChars bounds a user's memory, which goes into every system prompt.
const maxMemoryChars = 4000

// MemoryRequest is the body of PUT /v1/me/memory.
type MemoryRequest struct {
	Memory *string `json:"memory"`
}

// getMemory answers the caller's memory: their organization's subject's.
func (h *handlers) getMemory(c echo.Context) error {
	who := identity(c)
	m, err := h.Store.GetMemory(c.Request().Context(), store.OwnerID(who.Org, who.Subject))
	if err != nil {
		return fmt.Errorf("%w: read memory: %w", errUnavailable, err)
	}
	m.UserID = who.Subject
	return c.JSON(http.StatusOK, m)
}

// putMemory replaces the caller's memory; an empty text clears it.
func (h *handlers) putMemory(c echo.Context) error {
	var req MemoryRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	switch {
	case req.Memory == nil:
		return problemf(errInvalidInput, `send {"memory": "..."}`)
	case utf8.RuneCountInString(*req.Memory) > maxMemoryChars:
		return problemf(errInvalidInput, fmt.Sprintf("memory is longer than %d characters", maxMemoryChars))
	}
	who := identity(c)
	m, err := h.Store.PutMemory(c.Request().Context(), store.OwnerID(who.Org, who.Subject), *req.Memory)
	if err != nil {
		return fmt.Errorf("%w: store memory: %w", errUnavailable, err)
	}
	m.UserID = who.Subject
	return c.JSON(http.StatusOK, m)
}
