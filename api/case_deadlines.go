package api

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/deadline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// MaxCaseDeadlines bounds the deadlines of one case.
const MaxCaseDeadlines = 100

// maxSubjectBytes bounds the subject a deadline names as responsible.
const maxSubjectBytes = 128

// deadlineIDSpace namespaces the deadline IDs derived from idempotency keys.
var deadlineIDSpace = uuid.MustParse("0b7e4f52-3c1d-4e8a-9f6b-2d5c8a1e7f30")

// DeadlineRequest is the body of POST /v1/cases/{id}/deadlines, and of PATCH, where
// what is left out stays as it is. The day is computed (computation) or set by hand
// (due, with the jurisdiction whose court's zone it ends in). Responsible is a
// subject of the case's organization (the case's owner unless said); reminders are
// offsets such as "168h" or "30s", or "morning" (the defaults: 168h, 48h, morning).
type DeadlineRequest struct {
	Title        *string                      `json:"title"`
	Source       *schemas.DeadlineSource      `json:"source"`
	Computation  *schemas.ComputeDeadlineArgs `json:"computation"`
	Due          string                       `json:"due"`
	Jurisdiction string                       `json:"jurisdiction"`
	Responsible  *string                      `json:"responsible"`
	Reminders    *[]string                    `json:"reminders"`
	// Status, in a PATCH only: "active" confirms a proposed deadline, "done" marks it
	// done, "cancelled" cancels it.
	Status string `json:"status"`
}

// DeadlineList answers GET /v1/cases/{id}/deadlines and GET /v1/me/deadlines.
type DeadlineList struct {
	Deadlines []store.Deadline `json:"deadlines"`
}

// deadlineCase loads the case in the path for a deadline route: its owner's, or a
// staff member's (support, admin) whose scope covers it; anyone else finds nothing.
func (h *handlers) deadlineCase(c echo.Context) (store.Case, error) {
	who := identity(c)
	if who.Has(schemas.RoleSupport) || who.Has(schemas.RoleAdmin) {
		if cs, err := h.staffCase(c); err == nil || !errors.Is(err, store.ErrNotFound) {
			return cs, err
		}
	}
	return h.ownCase(c)
}

// caseDeadline loads the deadline in the path, of the case deadlineCase loads.
func (h *handlers) caseDeadline(c echo.Context) (store.Case, store.Deadline, error) {
	cs, err := h.deadlineCase(c)
	if err != nil {
		return store.Case{}, store.Deadline{}, err
	}
	id := c.Param("did")
	if _, err := uuid.Parse(id); err != nil {
		return store.Case{}, store.Deadline{}, problemf(store.ErrNotFound, "no deadline "+id)
	}
	d, err := h.Store.GetDeadline(c.Request().Context(), cs.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Case{}, store.Deadline{}, problemf(store.ErrNotFound, "no deadline "+id)
	}
	if err != nil {
		return store.Case{}, store.Deadline{}, fmt.Errorf("%w: read deadline: %w", errUnavailable, err)
	}
	return cs, d, nil
}

// apply writes req's fields over d, checking each; creating says every field is
// asked for (a POST), not only those given (a PATCH).
func (req DeadlineRequest) apply(cs store.Case, d *store.Deadline, creating bool) error {
	if req.Title != nil || creating {
		if req.Title == nil {
			return problemf(errInvalidInput, "title is required")
		}
		d.Title = strings.TrimSpace(*req.Title)
	}
	if req.Source != nil {
		d.Source = *req.Source
	} else if creating {
		return problemf(errInvalidInput, "source is required")
	}
	if err := schemas.CheckDeadline(d.Title, d.Source); err != nil {
		return problemf(errInvalidInput, err.Error())
	}
	if req.Computation != nil || req.Due != "" || creating {
		if err := d.SetDay(req.Computation, req.Due, req.Jurisdiction); err != nil {
			var invalid deadline.Invalid
			if errors.As(err, &invalid) {
				return problemf(errInvalidInput, invalid.Error())
			}
			return fmt.Errorf("compute deadline: %w", err)
		}
	}
	if req.Responsible != nil {
		subject := strings.TrimSpace(*req.Responsible)
		if subject == "" || len(subject) > maxSubjectBytes || strings.ContainsFunc(subject, func(r rune) bool { return r < ' ' || r > '~' }) {
			return problemf(errInvalidInput, fmt.Sprintf("responsible is a user's subject: 1 to %d printable ASCII characters", maxSubjectBytes))
		}
		d.Responsible = store.OwnerID(cs.OrgID, subject)
	}
	if req.Reminders != nil {
		if err := schemas.CheckReminders(*req.Reminders); err != nil {
			return problemf(errInvalidInput, err.Error())
		}
		d.Reminders = slices.Clone(*req.Reminders)
	}
	return nil
}

// createDeadline stores a deadline in the case, active, and starts its Deadline
// workflow. With an Idempotency-Key header the deadline's ID derives from the caller,
// the case and the key, so a retried request returns the same deadline.
func (h *handlers) createDeadline(c echo.Context) error {
	cs, err := h.deadlineCase(c)
	if err != nil {
		return err
	}
	var req DeadlineRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if req.Status != "" {
		return problemf(errInvalidInput, "a new deadline is active: status is set with PATCH")
	}
	who := identity(c)
	id := uuid.NewString()
	key, err := idempotencyKey(c)
	if err != nil {
		return err
	}
	if key != "" {
		id = uuid.NewSHA1(deadlineIDSpace, []byte(strings.Join([]string{who.Org, who.Subject, cs.ID, key}, "\x00"))).String()
	}
	d := store.NewDeadline(id, cs, schemas.DeadlineActive)
	if err := req.apply(cs, &d, true); err != nil {
		return err
	}
	ctx := c.Request().Context()
	existing, err := h.Store.ListDeadlines(ctx, cs.ID)
	if err != nil {
		return fmt.Errorf("%w: list deadlines: %w", errUnavailable, err)
	}
	if len(existing) >= MaxCaseDeadlines && !slices.ContainsFunc(existing, func(e store.Deadline) bool { return e.ID == id }) {
		return problemf(errInvalidInput, fmt.Sprintf("a case holds at most %d deadlines", MaxCaseDeadlines))
	}
	stored, err := h.Store.CreateDeadline(ctx, d)
	if err != nil {
		return fmt.Errorf("%w: store deadline: %w", errUnavailable, err)
	}
	if err := h.keepDeadline(ctx, cs, stored); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+cs.ID+"/deadlines/"+stored.ID)
	return c.JSON(http.StatusCreated, stored)
}

// listDeadlines answers a case's deadlines, soonest first.
func (h *handlers) listDeadlines(c echo.Context) error {
	cs, err := h.deadlineCase(c)
	if err != nil {
		return err
	}
	ds, err := h.Store.ListDeadlines(c.Request().Context(), cs.ID)
	if err != nil {
		return fmt.Errorf("%w: list deadlines: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, DeadlineList{Deadlines: nonNil(ds)})
}

// getDeadline answers one deadline of the case.
func (h *handlers) getDeadline(c echo.Context) error {
	_, d, err := h.caseDeadline(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// patchDeadline changes a deadline: its day, reminders, title, source or who answers
// for it, or its status (see setStatus), and re-plans its workflow's timers. A
// deadline done, missed or cancelled is no longer changed (409).
func (h *handlers) patchDeadline(c echo.Context) error {
	cs, d, err := h.caseDeadline(c)
	if err != nil {
		return err
	}
	var req DeadlineRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if d.Status != schemas.DeadlineActive && d.Status != schemas.DeadlineProposed {
		return problemf(errConflict, "deadline "+d.ID+" is "+d.Status+": it no longer changes")
	}
	if err := req.apply(cs, &d, false); err != nil {
		return err
	}
	if err := setStatus(c, &d, req.Status); err != nil {
		return err
	}
	return h.saveDeadline(c, cs, d)
}

// setStatus applies a PATCH's status: "active" confirms a proposed deadline, which
// records who confirmed it; "done" and "cancelled" end an active or proposed one.
func setStatus(c echo.Context, d *store.Deadline, status string) error {
	switch status {
	case "":
	case schemas.DeadlineActive:
		if d.Status == schemas.DeadlineProposed {
			d.Status, d.ConfirmedBy = schemas.DeadlineActive, me(c)
		}
	case schemas.DeadlineDone, schemas.DeadlineCancelled:
		d.Status = status
	default:
		return problemf(errInvalidInput, "status must be active (to confirm), done or cancelled")
	}
	return nil
}

// confirmDeadline makes a proposed deadline active: POST .../confirm.
func (h *handlers) confirmDeadline(c echo.Context) error {
	return h.moveDeadline(c, schemas.DeadlineActive)
}

// markDeadlineDone marks a deadline done: POST .../done.
func (h *handlers) markDeadlineDone(c echo.Context) error {
	return h.moveDeadline(c, schemas.DeadlineDone)
}

// moveDeadline sets a deadline's status; setting the status it has changes nothing.
func (h *handlers) moveDeadline(c echo.Context, status string) error {
	cs, d, err := h.caseDeadline(c)
	if err != nil {
		return err
	}
	switch {
	case d.Status == status:
		return c.JSON(http.StatusOK, d)
	case d.Status != schemas.DeadlineActive && d.Status != schemas.DeadlineProposed:
		return problemf(errConflict, "deadline "+d.ID+" is "+d.Status+": it no longer changes")
	}
	if err := setStatus(c, &d, status); err != nil {
		return err
	}
	return h.saveDeadline(c, cs, d)
}

// saveDeadline writes d at the revision it was read at (409 if it changed since),
// tells its workflow, and answers it.
func (h *handlers) saveDeadline(c echo.Context, cs store.Case, d store.Deadline) error {
	ctx := c.Request().Context()
	saved, err := h.Store.UpdateDeadline(ctx, d)
	switch {
	case errors.Is(err, store.ErrVersionConflict):
		return problemf(errConflict, "deadline "+d.ID+" changed meanwhile: read it again")
	case errors.Is(err, store.ErrNotFound):
		return problemf(store.ErrNotFound, "no deadline "+d.ID)
	case err != nil:
		return fmt.Errorf("%w: update deadline: %w", errUnavailable, err)
	}
	if err := h.keepDeadline(ctx, cs, saved); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, saved)
}

// deleteDeadline deletes a deadline and ends its workflow.
func (h *handlers) deleteDeadline(c echo.Context) error {
	cs, d, err := h.caseDeadline(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := h.Store.DeleteDeadline(ctx, cs.ID, d.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: delete deadline: %w", errUnavailable, err)
	}
	d.Rev, d.Status = d.Rev+1, schemas.DeadlineCancelled
	if err := h.keepDeadline(ctx, cs, d); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// myDeadlines answers the caller's deadlines across cases, those they own and those
// they answer for, soonest first.
func (h *handlers) myDeadlines(c echo.Context) error {
	ds, err := h.Store.UserDeadlines(c.Request().Context(), me(c), store.MaxUserDeadlines)
	if err != nil {
		return fmt.Errorf("%w: list deadlines: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, DeadlineList{Deadlines: nonNil(ds)})
}

// nonNil is ds, or an empty list for none, so a client reads [] rather than null.
func nonNil(ds []store.Deadline) []store.Deadline {
	if ds == nil {
		return []store.Deadline{}
	}
	return ds
}
