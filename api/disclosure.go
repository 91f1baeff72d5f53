package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/disclosure"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// DisclosureRequest sets an organization's AI disclosure on drafts (Italian L.
// 132/2025, art. 13), by case language: Texts word the line, On switches it on or off.
// A language left out keeps Lexflow's default: the default wording, on for Italian
// cases and off for Romanian and English ones. Each text is one printable line of at
// most disclosure.MaxChars characters.
type DisclosureRequest struct {
	Texts map[string]string `json:"texts"`
	On    map[string]bool   `json:"on"`
}

// DisclosureView is an organization's AI disclosure: the line its drafts carry in each
// case language ("" where it is off), and what its admin set, if anything.
type DisclosureView struct {
	Org   string            `json:"org"`
	Lines map[string]string `json:"lines"`
	Set   *store.Disclosure `json:"set,omitempty"`
}

// disclosureOrg reads the route's organization, which an organization's admin may
// only name as their own; the operator's staff name any.
func disclosureOrg(c echo.Context) (string, error) {
	org := c.Param("org")
	if org == "" || len(org) > 256 {
		return "", problemf(errInvalidInput, "the organization's ID is 1 to 256 characters")
	}
	if who := identity(c); !who.Operator && who.Org != org {
		return "", problemf(errForbidden, "an organization's admin reads and sets only the organization's disclosure")
	}
	return org, nil
}

// getDisclosure answers GET /v1/admin/disclosures/{org}.
func (h *handlers) getDisclosure(c echo.Context) error {
	org, err := disclosureOrg(c)
	if err != nil {
		return err
	}
	return h.disclosureView(c, org)
}

// putDisclosure answers PUT /v1/admin/disclosures/{org}: it replaces the
// organization's setting (audited) and answers the lines now in force. Drafts
// rendered from then on carry them; earlier revisions keep theirs.
func (h *handlers) putDisclosure(c echo.Context) error {
	org, err := disclosureOrg(c)
	if err != nil {
		return err
	}
	var req DisclosureRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := disclosure.Check(schemas.Languages, req.Texts, req.On); err != nil {
		return problemf(errInvalidInput, err.Error())
	}
	if err := h.audit(c, auditDisclosure, org, "", map[string]any{"texts": req.Texts, "on": req.On}); err != nil {
		return err
	}
	err = h.Store.PutDisclosure(c.Request().Context(), store.Disclosure{Org: org, Texts: req.Texts, On: req.On,
		SetBy: identity(c).Subject, UpdatedAt: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("%w: store the disclosure: %w", errUnavailable, err)
	}
	return h.disclosureView(c, org)
}

// disclosureView answers an organization's disclosure as it stands.
func (h *handlers) disclosureView(c echo.Context, org string) error {
	view := DisclosureView{Org: org, Lines: map[string]string{}}
	set, err := h.Store.GetDisclosure(c.Request().Context(), org)
	switch {
	case err == nil:
		view.Set = &set
	case !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: read the disclosure: %w", errUnavailable, err)
	}
	for _, lang := range schemas.Languages {
		view.Lines[lang] = disclosure.Line(lang, set.Texts, set.On)
	}
	return c.JSON(http.StatusOK, view)
}
