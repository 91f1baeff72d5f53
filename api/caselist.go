package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// Pages of GET /v1/cases.
const (
	defaultCasesLimit = 20
	maxCasesLimit     = 100
)

// CaseSummary is a case as GET /v1/cases lists it: where it stands, without its
// details.
type CaseSummary struct {
	ID          string    `json:"case_id"`
	Description string    `json:"description"`
	Language    string    `json:"language"`
	Phase       string    `json:"phase"`
	Status      string    `json:"status"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// CaseList is a page of the caller's cases; next, when set, is the after of the next
// page.
type CaseList struct {
	Cases []CaseSummary `json:"cases"`
	Next  string        `json:"next,omitempty"`
}

// listCases answers the caller's own cases, newest first, a page at a time:
// ?limit= (20 unless said, 100 at most) after ?after= (the next of the page before).
func (h *handlers) listCases(c echo.Context) error {
	limit, err := pageLimit(c, defaultCasesLimit, maxCasesLimit)
	if err != nil {
		return err
	}
	after := c.QueryParam("after")
	if _, err := uuid.Parse(after); after != "" && err != nil {
		return problemf(errInvalidInput, "after is a case ID, the next of the page before")
	}
	who := identity(c)
	cases, err := h.Store.ListCases(c.Request().Context(), who.Org, who.Subject, after, limit+1) // one more: is there a next page?
	if errors.Is(err, store.ErrNotFound) {
		return problemf(errInvalidInput, "after is not one of your cases")
	}
	if err != nil {
		return fmt.Errorf("%w: list cases: %w", errUnavailable, err)
	}
	page := CaseList{Cases: make([]CaseSummary, 0, min(len(cases), limit))}
	if len(cases) > limit {
		cases = cases[:limit]
		page.Next = cases[limit-1].ID
	}
	for _, cs := range cases {
		page.Cases = append(page.Cases, CaseSummary{ID: cs.ID, Description: cs.Description, Language: cs.Language,
			Phase: cs.Phase, Status: cs.Status, CreatedAt: cs.CreatedAt, UpdatedAt: cs.UpdatedAt})
	}
	return c.JSON(http.StatusOK, page)
}
