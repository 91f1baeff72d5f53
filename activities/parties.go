package activities

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Parties are the activities that read a case's parties for the model: they answer
// party IDs, never the parties' data.
type Parties struct {
	Cases   store.Cases
	Parties store.Parties
}

// GetPartyIDByName is get_party_id_by_name: the partyN of the case's party that a
// placeholder refers to ({{party0.fullName}}, as the models read parties), or a name or
// alias, compared without case or diacritics ("Ion", "ion popescu", "Popescu", "the
// company"). It never returns the party's data. A name two parties
// share is an error that asks for a fuller name, and so is a placeholder that names
// no party of the case (schemas.PlaceholderNotFound).
func (a *Parties) GetPartyIDByName(ctx context.Context, args schemas.GetPartyIDByNameArgs) (schemas.PartyIDResult, error) {
	if _, err := a.Cases.GetCase(ctx, args.CaseID); errors.Is(err, store.ErrNotFound) {
		return schemas.PartyIDResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	} else if err != nil {
		return schemas.PartyIDResult{}, err
	}
	parties, err := a.Parties.ListParties(ctx, args.CaseID)
	if err != nil {
		return schemas.PartyIDResult{}, err
	}
	if m := placeholderRe.FindStringSubmatch(args.MentionedName); m != nil {
		// The model reads the parties as placeholders ({{party0.fullName}}): one that
		// names no party of the case is an error, not a name to look for.
		for _, p := range parties {
			if p.ID == m[1] {
				return schemas.PartyIDResult{Status: schemas.ResultSuccess, PartyID: p.ID}, nil
			}
		}
		return schemas.PartyIDResult{Status: schemas.ResultError, ErrorMessage: schemas.PlaceholderNotFound}, nil
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

// placeholderRe is a name given as a party's placeholder, the whole of it.
var placeholderRe = regexp.MustCompile(`^\s*\{\{\s*(party[0-9]+)\.[A-Za-z0-9_]+\s*\}\}\s*$`)

// normalName compares names: lower case, no diacritics, single spaces.
func normalName(s string) string {
	return strings.Join(strings.Fields(corpus.Fold(s)), " ")
}
