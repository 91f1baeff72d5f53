package api

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/store"
)

// PartyRequest is the body of POST /v1/cases/{id}/parties.
type PartyRequest struct {
	FirstName   string   `json:"first_name"`
	LastName    string   `json:"last_name"`
	CompanyName string   `json:"company_name"`
	Aliases     []string `json:"aliases"`
	CNP         string   `json:"cnp"`
	CUI         string   `json:"cui"`
	Address     string   `json:"address"`
	Email       string   `json:"email"`
}

var (
	cnpFormat   = regexp.MustCompile(`^[1-9]\d{12}$`)
	cuiFormat   = regexp.MustCompile(`^(?i:RO)?\d{2,10}$`)
	emailFormat = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// Limits of a party's fields, and of a case's parties: every read of a document's
// text for a model, or for its "as the models see it" view, replaces the values of
// every party, so their number bounds the names each read looks for.
const (
	maxPartyField = 200
	maxAliases    = 10
	MaxParties    = 50
)

// validate checks a party and tidies its fields.
func (p *PartyRequest) validate() error {
	for _, f := range []*string{&p.FirstName, &p.LastName, &p.CompanyName, &p.CNP, &p.CUI, &p.Address, &p.Email} {
		*f = strings.TrimSpace(*f)
		if utf8.RuneCountInString(*f) > maxPartyField {
			return fmt.Errorf("a field is longer than %d characters", maxPartyField)
		}
	}
	switch {
	case p.FirstName == "" && p.LastName == "" && p.CompanyName == "":
		return fmt.Errorf("a party needs first_name, last_name or company_name")
	case p.CNP != "" && !cnpFormat.MatchString(p.CNP):
		return fmt.Errorf("cnp must be 13 digits")
	case p.CUI != "" && !cuiFormat.MatchString(p.CUI):
		return fmt.Errorf("cui must be 2 to 10 digits, optionally after RO")
	case p.Email != "" && !emailFormat.MatchString(p.Email):
		return fmt.Errorf("email is not an e-mail address")
	case len(p.Aliases) > maxAliases:
		return fmt.Errorf("at most %d aliases", maxAliases)
	}
	for _, a := range p.Aliases {
		if strings.TrimSpace(a) == "" || utf8.RuneCountInString(a) > maxPartyField {
			return fmt.Errorf("an alias is empty or longer than %d characters", maxPartyField)
		}
	}
	return nil
}

// addParty attaches a party to the caller's case. Its data stays in the parties store;
// the model only ever sees the party's ID. A case under a legal hold is 409.
func (h *handlers) addParty(c echo.Context) error {
	cs, err := h.ownCase(c)
	if err != nil {
		return err
	}
	if cs.Hold != nil { // a legal hold freezes the case's content
		return holdProblem(identity(c), cs.Hold)
	}
	var req PartyRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return problemf(errInvalidInput, err.Error())
	}
	ctx := c.Request().Context()
	// Adds sent at the same moment may each pass the count: a race can take a case
	// past MaxParties by the adds that raced, no further.
	parties, err := h.Store.ListParties(ctx, cs.ID)
	if err != nil {
		return fmt.Errorf("%w: read parties: %w", errUnavailable, err)
	}
	if len(parties) >= MaxParties {
		return problemf(errConflict, fmt.Sprintf("the case has %d parties, the most a case may have", len(parties)))
	}
	p, err := h.Store.AddParty(ctx, store.Party{CaseID: cs.ID, FirstName: req.FirstName, LastName: req.LastName,
		CompanyName: req.CompanyName, Aliases: req.Aliases, CNP: req.CNP, CUI: req.CUI, Address: req.Address, Email: req.Email})
	if err != nil {
		return fmt.Errorf("%w: store party: %w", errUnavailable, err)
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/cases/"+cs.ID+"/parties/"+p.ID)
	return c.JSON(http.StatusCreated, p)
}

// caseParties loads the caller's case in the path and its parties.
func (h *handlers) caseParties(c echo.Context) (string, []store.Party, error) {
	cs, err := h.ownCase(c)
	if err != nil {
		return "", nil, err
	}
	parties, err := h.Store.ListParties(c.Request().Context(), cs.ID)
	if err != nil {
		return "", nil, fmt.Errorf("%w: read parties: %w", errUnavailable, err)
	}
	if parties == nil {
		parties = []store.Party{}
	}
	return cs.ID, parties, nil
}

// PartyList answers GET /v1/cases/{id}/parties.
type PartyList struct {
	CaseID  string        `json:"case_id"`
	Parties []store.Party `json:"parties"`
}

func (h *handlers) listParties(c echo.Context) error {
	caseID, parties, err := h.caseParties(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, PartyList{CaseID: caseID, Parties: parties})
}

func (h *handlers) getParty(c echo.Context) error {
	_, parties, err := h.caseParties(c)
	if err != nil {
		return err
	}
	for _, p := range parties {
		if p.ID == c.Param("party") {
			return c.JSON(http.StatusOK, p)
		}
	}
	return problemf(store.ErrNotFound, "no party "+c.Param("party")+" in this case")
}
