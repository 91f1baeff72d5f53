// Package activities holds Lexflow's Temporal activities: every call that leaves a
// workflow, grouped by what it touches. Each is a method on a struct that holds its
// dependencies, so the worker registers the struct and workflows name the method.
package activities

import (
	"context"
	"errors"
	"strings"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Cases are the activities on case documents, including the case tools of seed 003.
type Cases struct {
	Store   store.Cases
	Parties store.Parties
}

// GetCaseDetails is the get_case_details tool: the whole case_details object.
// A missing case is an answer for the model, not a failure; a store error is retried.
func (a *Cases) GetCaseDetails(ctx context.Context, args schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
	c, err := a.Store.GetCase(ctx, args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.GetCaseDetailsResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	}
	if err != nil {
		return schemas.GetCaseDetailsResult{}, err
	}
	return schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess, CaseDetails: c.Details}, nil
}

// UpdateCaseDetails is the update_case_details tool: dot-path updates of case_details,
// appending to log fields. Invalid fields are reported to the model; store errors retried.
func (a *Cases) UpdateCaseDetails(ctx context.Context, args schemas.UpdateCaseDetailsArgs) (schemas.StatusResult, error) {
	_, err := a.Store.UpdateDetails(ctx, args.CaseID, args.ExpectedVersion, args.Updates)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	case errors.Is(err, store.ErrInvalidField):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: "Update failed due to invalid field: " + err.Error()}, nil
	case errors.Is(err, store.ErrVersionConflict):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: "Update refused: " + err.Error()}, nil
	case err != nil:
		return schemas.StatusResult{}, err
	}
	return schemas.StatusResult{Status: schemas.ResultSuccess}, nil
}

// SetCasePhase records a case's phase and status in the store, where lists and the API
// read them.
func (a *Cases) SetCasePhase(ctx context.Context, in schemas.SetCasePhase) error {
	return a.Store.SetPhase(ctx, in.CaseID, in.Phase, in.Status)
}

// GetPartyIDByName is get_party_id_by_name: the partyN of the case's party that a name
// or alias refers to, compared without case or diacritics ("Ion", "ion popescu",
// "Popescu", "the company"). It never returns the party's data. A name two parties
// share is an error that asks for a fuller name.
func (a *Cases) GetPartyIDByName(ctx context.Context, args schemas.GetPartyIDByNameArgs) (schemas.PartyIDResult, error) {
	if _, err := a.Store.GetCase(ctx, args.CaseID); errors.Is(err, store.ErrNotFound) {
		return schemas.PartyIDResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	} else if err != nil {
		return schemas.PartyIDResult{}, err
	}
	parties, err := a.Parties.ListParties(ctx, args.CaseID)
	if err != nil {
		return schemas.PartyIDResult{}, err
	}
	want := normalName(args.MentionedName)
	var matches []string
	for _, p := range parties {
		for _, name := range []string{p.FirstName, p.LastName, p.FirstName + " " + p.LastName, p.LastName + " " + p.FirstName, p.CompanyName} {
			if n := normalName(name); n != "" && n == want {
				matches = append(matches, p.ID)
				break
			}
		}
		if len(matches) > 0 && matches[len(matches)-1] == p.ID {
			continue
		}
		for _, alias := range p.Aliases {
			if normalName(alias) == want {
				matches = append(matches, p.ID)
				break
			}
		}
	}
	switch len(matches) {
	case 0:
		return schemas.PartyIDResult{Status: "not_found", Message: schemas.PartyNotFound}, nil
	case 1:
		return schemas.PartyIDResult{Status: schemas.ResultSuccess, PartyID: matches[0]}, nil
	}
	return schemas.PartyIDResult{Status: schemas.ResultError,
		ErrorMessage: "Ambiguous party reference: " + strings.Join(matches, ", ") + " match; use a fuller name"}, nil
}

// normalName compares names: lower case, no diacritics, single spaces.
func normalName(s string) string {
	return strings.Join(strings.Fields(corpus.Fold(s)), " ")
}
