package activities

import (
	"context"
	"errors"

	"github.com/lexflow/lexflow/internal/disclosure"
	"github.com/lexflow/lexflow/store"
)

// disclosureOf is the AI disclosure line a draft of the case carries: in the case's
// language, worded and switched on or off as its organization's admin set it, else by
// Lexflow's defaults (on for Italian cases); "" when it is off. A case of no
// organization takes the defaults; a case not found, whose language is unknown, none.
func (a *Drafts) disclosureOf(ctx context.Context, caseID string) (string, error) {
	c, err := a.Cases.GetCase(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var set store.Disclosure
	if c.OrgID != "" {
		set, err = a.Disclosures.GetDisclosure(ctx, c.OrgID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return "", err
		}
	}
	return disclosure.Line(c.Language, set.Texts, set.On), nil
}
