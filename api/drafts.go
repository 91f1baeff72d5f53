package api

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// DraftList answers GET /v1/cases/{id}/drafts: each revision with its download path
// and citation check.
type DraftList struct {
	CaseID string                  `json:"case_id"`
	Drafts []schemas.RenderedDraft `json:"drafts"`
}

// listDrafts lists a case's draft revisions.
func (h *handlers) listDrafts(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	drafts := schemas.RecordedDrafts(cs.Details)
	for i := range drafts {
		drafts[i].Path = fmt.Sprintf("/v1/cases/%s/drafts/%s/%d", cs.ID, drafts[i].DraftName, drafts[i].Revision)
	}
	return c.JSON(http.StatusOK, DraftList{CaseID: cs.ID, Drafts: drafts})
}

// downloadDraft serves one revision's PDF.
func (h *handlers) downloadDraft(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	rev, err := strconv.Atoi(c.Param("revision"))
	if err != nil || rev < 1 {
		return problemf(errInvalidInput, "revision must be a positive integer")
	}
	name := c.Param("name")
	ctx := c.Request().Context()
	drafts := schemas.RecordedDrafts(cs.Details)
	i := slices.IndexFunc(drafts, func(d schemas.RenderedDraft) bool { return d.DraftName == name && d.Revision == rev })
	if i < 0 {
		return problemf(store.ErrNotFound, fmt.Sprintf("no revision %d of draft %s", rev, name))
	}
	// The key comes from the route's case, never from the record, which names a path.
	r, err := h.Blobs.Open(ctx, schemas.DraftPath(cs.ID, drafts[i].DraftName, rev))
	if errors.Is(err, blob.ErrNotExist) {
		return problemf(store.ErrNotFound, "the draft's PDF is missing from the blob store")
	}
	if err != nil {
		return fmt.Errorf("%w: open draft: %w", errUnavailable, err)
	}
	defer r.Close()
	c.Response().Header().Set(echo.HeaderContentDisposition, attachment(fmt.Sprintf("%s_rev%d.pdf", name, rev)))
	return c.Stream(http.StatusOK, "application/pdf", r)
}

// attachment is the Content-Disposition of a download named filename, quoted and
// escaped as RFC 6266 asks whatever the name holds.
func attachment(filename string) string {
	return mime.FormatMediaType("attachment", map[string]string{"filename": filename})
}
