package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// errPortalOff is a court file linked where no courts' portal is configured.
var errPortalOff = errors.New("court portal not configured")

// portalWait bounds linking's call to the portal, its turn at the client's polite
// rate included: a flood of links waits its turn, then gives up with 503.
const portalWait = 20 * time.Second

// courtFileHearings is how many of a file's latest hearings GET shows.
const courtFileHearings = 10

// courtFileIDForm is the form of store.CourtFileID.
var courtFileIDForm = regexp.MustCompile(`^cf-[0-9a-f]{16}$`)

// CourtFileRequest is POST /v1/cases/{id}/court-files's body: a file's number at a
// court, as the courts' portal names them.
type CourtFileRequest struct {
	Number string `json:"numar_dosar"`
	Court  string `json:"institutie"`
}

// CourtFileView is a linked court file as the API shows it, with its latest hearings
// as the court watch last read them (none until its first poll).
type CourtFileView struct {
	ID        string             `json:"file_id"`
	Number    string             `json:"numar_dosar"`
	Court     string             `json:"institutie"`
	LinkedAt  time.Time          `json:"linked_at"`
	CheckedAt time.Time          `json:"checked_at,omitzero"`
	Stage     string             `json:"stage,omitempty"`
	Hearings  []CourtHearingView `json:"hearings"`
}

// CourtHearingView is a hearing of a linked file: its day in the courts' zone
// (YYYY-MM-DD), hour and panel, and its result once the court gave one.
type CourtHearingView struct {
	Day          string    `json:"day"`
	Hour         string    `json:"hour,omitempty"`
	Panel        string    `json:"panel,omitempty"`
	Result       string    `json:"result,omitempty"`
	Summary      string    `json:"summary,omitempty"`
	PronouncedAt time.Time `json:"pronounced_at,omitzero"`
	Document     string    `json:"document,omitempty"`
}

// CourtFileList answers GET /v1/cases/{id}/court-files.
type CourtFileList struct {
	CourtFiles []CourtFileView `json:"court_files"`
}

func courtFileView(f store.CourtFile) CourtFileView {
	hs := make([]CourtHearingView, 0, courtFileHearings)
	for _, x := range f.Hearings[:min(len(f.Hearings), courtFileHearings)] {
		hs = append(hs, CourtHearingView{Day: x.Date.In(portal.Zone).Format(time.DateOnly), Hour: x.Hour, Panel: x.Panel, Result: x.Result,
			Summary: x.Summary, PronouncedAt: x.PronouncedAt, Document: x.Document})
	}
	return CourtFileView{ID: f.ID, Number: f.Number, Court: f.Court, LinkedAt: f.LinkedAt, CheckedAt: f.CheckedAt, Stage: f.Stage, Hearings: hs}
}

// linkCourtFile links a court file to the caller's case, for the court watch to
// follow: its number must be written as the portal writes numbers and its court one
// of the portal's (422), and the portal must know the file (422). A case links at
// most store.MaxCourtFilesPerCase files (409). The same file linked again is the same
// link (200). Without a portal configured (LEXFLOW_PORTAL_URL) linking is refused
// (501); a closed case, one under a legal hold or being erased takes none (409).
func (h *handlers) linkCourtFile(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	if err := h.courtFilesWritable(c, cs); err != nil {
		return err
	}
	if cs.Status == schemas.StatusClosed {
		return problemf(errCaseClosed, "the case is closed")
	}
	if h.Portal == nil {
		return problemf(errPortalOff, "court files cannot be linked: this Lexflow has no courts' portal configured (LEXFLOW_PORTAL_URL)")
	}
	var req CourtFileRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	number, court := strings.TrimSpace(req.Number), strings.TrimSpace(req.Court)
	switch {
	case !portal.ValidNumber(number):
		return problemf(errInvalidInput, "numar_dosar must be a court file's number as the portal writes it, such as 1234/3/2024")
	case !portal.KnownCourt(court):
		return problemf(errInvalidInput, "institutie must be one of the portal's courts, such as TribunalulBUCURESTI")
	}
	ctx := c.Request().Context()
	id := store.CourtFileID(cs.ID, court, number)
	linked, err := h.Store.ListCourtFiles(ctx, cs.ID)
	if err != nil {
		return fmt.Errorf("%w: read court files: %w", errUnavailable, err)
	}
	for _, f := range linked {
		if f.ID == id {
			return c.JSON(http.StatusOK, courtFileView(f))
		}
	}
	// Links sent at the same moment may each pass the count, as parties do.
	if len(linked) >= store.MaxCourtFilesPerCase {
		return problemf(errConflict, fmt.Sprintf("the case links %d court files, the most a case may", len(linked)))
	}
	if err := h.checkOnPortal(ctx, number, court); err != nil {
		return err
	}
	who := identity(c)
	f, created, err := h.Store.LinkCourtFile(ctx, store.CourtFile{ID: id, CaseID: cs.ID, Number: number, Court: court,
		LinkedBy: who.Subject, LinkedAt: h.now().UTC()})
	if err != nil {
		return fmt.Errorf("%w: link court file: %w", errUnavailable, err)
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+cs.ID+"/court-files/"+f.ID)
	}
	return c.JSON(status, courtFileView(f))
}

// checkOnPortal asks the portal whether it knows a file: 422 if it does not, 503 if it
// cannot tell.
func (h *handlers) checkOnPortal(ctx context.Context, number, court string) error {
	ctx, cancel := context.WithTimeout(ctx, portalWait)
	defer cancel()
	_, found, err := h.Portal.File(ctx, number, court)
	var fault *portal.Fault
	switch {
	case errors.As(err, &fault) && fault.Sender():
		return problemf(errInvalidInput, "the courts' portal refused the search: "+fault.Reason())
	case err != nil:
		return fmt.Errorf("%w: the courts' portal did not answer: %w", errUnavailable, err)
	case !found:
		return problemf(errInvalidInput, fmt.Sprintf("the courts' portal knows no file %s at %s", number, court))
	}
	return nil
}

// courtFilesWritable refuses a change to the court files of a case under a legal
// hold, or whose erasure has begun.
func (h *handlers) courtFilesWritable(c echo.Context, cs store.Case) error {
	if cs.Hold != nil { // a legal hold freezes the case's content
		return holdProblem(identity(c), cs.Hold)
	}
	return h.notErasing(c, cs.ID, "its court files stay as they are")
}

// listCourtFiles lists the caller's case's court files, oldest first, each with its
// latest hearings.
func (h *handlers) listCourtFiles(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	fs, err := h.Store.ListCourtFiles(c.Request().Context(), cs.ID)
	if err != nil {
		return fmt.Errorf("%w: read court files: %w", errUnavailable, err)
	}
	out := CourtFileList{CourtFiles: make([]CourtFileView, len(fs))}
	for i, f := range fs {
		out.CourtFiles[i] = courtFileView(f)
	}
	return c.JSON(http.StatusOK, out)
}

// unlinkCourtFile stops watching a court file and forgets what was seen of it; the
// case's events about it stay. A case under a legal hold keeps its links (409).
func (h *handlers) unlinkCourtFile(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	fid := c.Param("fid")
	if !courtFileIDForm.MatchString(fid) {
		return problemf(store.ErrNotFound, "no court file "+fid)
	}
	if err := h.courtFilesWritable(c, cs); err != nil {
		return err
	}
	switch err := h.Store.UnlinkCourtFile(c.Request().Context(), cs.ID, fid); {
	case errors.Is(err, store.ErrNotFound):
		return problemf(store.ErrNotFound, "no court file "+fid)
	case err != nil:
		return fmt.Errorf("%w: unlink court file: %w", errUnavailable, err)
	}
	return c.NoContent(http.StatusNoContent)
}
