package api

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/prompts"
)

// ReloadResponse answers POST /v1/admin/prompts/reload: what the files hold, as seed
// 002's /api/update_docs reports it, and the prompts version every worker now serves.
type ReloadResponse struct {
	// Message says what happened, as update_docs's does.
	Message string `json:"message"`
	prompts.Report
	Version int64 `json:"version"`
}

// reloadPrompts reads the system prompt files again and, when they are complete, bumps
// the store's prompts version: every worker reloads its own files before its next model
// call. A broken set of files is refused, and every process keeps the prompts it had.
// Prompts serve every tenant, so only the operator's admins reload them, audited.
func (h *handlers) reloadPrompts(c echo.Context) error {
	if err := requireOperator(c, "reloading the prompts"); err != nil {
		return err
	}
	if err := h.audit(c, auditPromptsReload, "", "", nil); err != nil {
		return err
	}
	rep, err := h.Prompts.Reload()
	if err != nil {
		return problemf(errInvalidInput, err.Error())
	}
	v, err := h.Store.BumpPromptsVersion(c.Request().Context())
	if err != nil {
		return fmt.Errorf("%w: bump the prompts version: %w", errUnavailable, err)
	}
	h.Log.Info("Prompts reloaded", "source", rep.Source, "docs", rep.DocCount, "version", v, "by", identity(c).Subject)
	msg := fmt.Sprintf("Prompts reloaded from %s: %d documents; every worker serves version %d from its next model call", rep.Source, rep.DocCount, v)
	return c.JSON(http.StatusOK, ReloadResponse{Message: msg, Report: rep, Version: v})
}
