package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/schemas"
)

// citationWait bounds how long POST /v1/citations/check waits for its check, and
// citationRunLimit how long the check's workflow may run: a check no worker picks up
// ends there rather than waiting on.
const (
	citationWait     = 15 * time.Second
	citationRunLimit = time.Minute
)

// checkCitations answers POST /v1/citations/check: every legal citation of a text with
// what the corpus says of it. Any signed-in user may ask; the text is not stored
// beyond the check's workflow history. The
// language settles abbreviations Italian and Romanian lawyers share ("c.p."); without
// one it is guessed from the text. The check's payloads are sealed with the caller's
// tenant's key (tenantRun).
func (h *handlers) checkCitations(c echo.Context) error {
	var req schemas.CitationCheck
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(req.Text) == "":
		return problemf(errInvalidInput, "text is required")
	case len(req.Text) > schemas.MaxCheckedText:
		return problemf(errInvalidInput, fmt.Sprintf("text is at most %d bytes", schemas.MaxCheckedText))
	case req.Language == "":
		req.Language = language.GuessOr(req.Text, h.DefaultLanguage)
	case !slices.Contains(schemas.Languages, req.Language):
		return problemf(errInvalidInput, "language must be one of ro, it, en")
	}
	var rep schemas.CitationReport
	opts := tenantRun(identity(c), schemas.CitationCheckWorkflowID, citationRunLimit)
	if err := h.runShort(c, opts, citationWait, "citation check", schemas.CitationCheckWorkflow, req, &rep); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
