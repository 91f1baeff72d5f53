package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/legislatie"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// CurrentLaw keeps the current texts of Romanian acts in the store, read from the
// Portal Legislativ (legislatie.just.ro), beside the shipped corpus they update.
type CurrentLaw struct {
	Corpus *corpus.Store
	Store  store.CurrentTexts
	// Portal reads the service; nil when it is not configured.
	Portal Portal
	Now    func() time.Time
}

// Portal finds an act at the Portal Legislativ by type, number and year.
type Portal interface {
	Act(ctx context.Context, actType, number string, year int) (legislatie.Act, error)
}

// portalSource names the service in what the store keeps.
const portalSource = "legislatie.just.ro"

// portalTypes are the Portal Legislativ's TipAct of the corpus's act types it can
// look up by number: the Constitution has none.
var portalTypes = map[string]string{"lege": "LEGE", "ordonanță de urgență": "ORDONANTA DE URGENTA"}

// RefreshableActs returns the corpus's Romanian acts the Portal Legislativ can be
// asked for, by their corpus ids; none when it is not configured.
func (a *CurrentLaw) RefreshableActs(ctx context.Context) ([]string, error) {
	if a.Portal == nil {
		return []string{}, nil
	}
	acts, err := a.Corpus.Acts(ctx, "ro")
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, act := range acts {
		if portalTypes[act.Type] != "" && act.Number != "" {
			out = append(out, act.ID)
		}
	}
	return out, nil
}

// RefreshAct reads an act of the corpus at the Portal Legislativ and stores the text of
// each of its articles as the service gives it, dated when it was read. The service
// does not say whether its text is consolidated, so it is stored as published.
func (a *CurrentLaw) RefreshAct(ctx context.Context, in schemas.RefreshAct) (schemas.RefreshedAct, error) {
	if a.Portal == nil {
		return schemas.RefreshedAct{}, temporal.NewNonRetryableApplicationError("the Portal Legislativ is not configured", schemas.ErrInvalidArgs, nil)
	}
	acts, err := a.Corpus.Acts(ctx, "ro")
	if err != nil {
		return schemas.RefreshedAct{}, err
	}
	var act corpus.ActInfo
	for _, c := range acts {
		if c.ID == in.ActID {
			act = c
		}
	}
	tipAct := portalTypes[act.Type]
	if tipAct == "" || act.Number == "" {
		return schemas.RefreshedAct{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("%s is not a Romanian act of the corpus the Portal Legislativ finds by number", in.ActID), schemas.ErrInvalidArgs, nil)
	}
	found, err := a.Portal.Act(ctx, tipAct, act.Number, act.Year)
	if errors.Is(err, legislatie.ErrNoAct) {
		return schemas.RefreshedAct{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrSearchFailed, err)
	}
	if err != nil {
		return schemas.RefreshedAct{}, upstreamError(err)
	}
	arts := legislatie.Articles(found.Text)
	if len(arts) == 0 || len(arts) > store.MaxCurrentArticles {
		return schemas.RefreshedAct{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("%s: the Portal Legislativ's text has %d articles", in.ActID, len(arts)), schemas.ErrSearchFailed, nil)
	}
	now := a.Now().UTC()
	kept := make([]store.CurrentArticle, 0, len(arts))
	for _, art := range arts {
		kept = append(kept, store.CurrentArticle{DocID: in.ActID + "/art-" + art.Number, ActID: in.ActID, Text: art.Text,
			URL: strings.TrimSpace(found.Link), Source: portalSource, ReadAt: now})
	}
	if err := a.Store.PutCurrentArticles(ctx, kept); err != nil {
		return schemas.RefreshedAct{}, err
	}
	return schemas.RefreshedAct{ActID: in.ActID, Articles: len(kept), ReadAt: now}, nil
}
