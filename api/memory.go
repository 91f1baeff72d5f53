package api

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// maxMemoryChars bounds a user's memory, which goes into every system prompt.
const maxMemoryChars = 4000

// MemoryRequest is the body of PUT /v1/me/memory.
type MemoryRequest struct {
	Memory *string `json:"memory"`
}

func (h *Handlers) getMemory(c echo.Context) error {
	m, err := h.Store.GetMemory(c.Request().Context(), identity(c).Subject)
	if err != nil {
		return fmt.Errorf("%w: read memory: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, m)
}

// putMemory replaces the caller's memory; an empty text clears it.
func (h *Handlers) putMemory(c echo.Context) error {
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
	m, err := h.Store.PutMemory(c.Request().Context(), identity(c).Subject, *req.Memory)
	if err != nil {
		return fmt.Errorf("%w: store memory: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, m)
}
