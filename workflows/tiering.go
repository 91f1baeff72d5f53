package workflows

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/internal/tierfloor"
	"github.com/lexflow/lexflow/schemas"
)

// decideNow is the line Tiering adds to the description once its one question has been
// asked: the model must choose a tier.
const decideNow = "Decide now"

// tieringAttempts bounds the model calls of one tiering: one, and one correction.
const tieringAttempts = 2

// Tiering is the tiering phase: the model classifies the case as tier 1, 2 or 3 against
// the tier definitions, with a short justification, or asks one clarifying question.
// The client's description reaches the model as data between <description> tags,
// which the prompt says never to take instructions from, and the signals tierfloor
// reads in it (a court, a deadline, a large sum) set a tier the model's cannot go
// below. An answer it cannot read gets one correction; after that, a case that must be
// decided goes to support's review (TieringResult.Review), never to a guessed tier,
// and one that may still ask gets a clarifying question. A model call refused for its
// budget ends tiering with TieringResult.Budget.
func Tiering(ctx workflow.Context, in schemas.TieringInput) (schemas.TieringResult, error) {
	msg := asData(in.Description)
	if in.MustDecide {
		msg += "\n\n" + decideNow
	}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: msg}}
	opts := modelOptions
	opts.Summary = "Classify the case's tier"
	actx := workflow.WithActivityOptions(ctx, opts)
	for range tieringAttempts {
		var resp schemas.ModelResponse
		err := workflow.ExecuteActivity(actx, modelActs.CallModel, schemas.ModelRequest{
			Role: schemas.ModelTiering, CaseID: in.CaseID, TurnNo: 1, Language: in.Language, Messages: msgs,
		}).Get(ctx, &resp)
		if b, ok := schemas.BudgetExhaustedOf(err); ok {
			return schemas.TieringResult{Budget: &b}, nil
		}
		if err != nil {
			return schemas.TieringResult{}, err
		}
		if res, ok := parseTiering(resp.Content); ok && !(in.MustDecide && res.Tier == 0) {
			return atLeast(res, tierfloor.Of(in.Description), in.Language), nil
		}
		msgs = append(msgs, schemas.ChatMessage{Role: schemas.MsgAssistant, Content: resp.Content},
			schemas.ChatMessage{Role: schemas.MsgUser, Content: `Answer with one JSON object, {"tier": 1, 2 or 3, "justification": "..."}` +
				map[bool]string{true: ".", false: `, or {"question": "..."}.`}[in.MustDecide]})
	}
	if in.MustDecide {
		return schemas.TieringResult{Review: "the tiering model gave no tier it could read"}, nil
	}
	return schemas.TieringResult{Question: caseWordsFor(in.Language).tierQuestion}, nil
}

// parseTiering reads the tiering model's JSON answer: a tier from 1 to 3 with its
// justification, or a question.
func parseTiering(content string) (schemas.TieringResult, bool) {
	var res schemas.TieringResult
	if json.Unmarshal([]byte(trimFence(content)), &res) != nil {
		return res, false
	}
	res.Question, res.Justification = strings.TrimSpace(res.Question), strings.TrimSpace(res.Justification)
	switch {
	case res.Tier >= schemas.MinTier && res.Tier <= schemas.MaxTier:
		res.Question = ""
		return res, true
	case res.Tier == 0 && res.Question != "":
		return schemas.TieringResult{Question: res.Question}, true
	}
	return res, false
}

// asData wraps the client's description in the tags the tiering prompt names as data,
// with any such tag the description holds taken out, so that it cannot close them.
func asData(description string) string {
	description = dataTagRe.ReplaceAllString(description, "")
	return "<description>\n" + description + "\n</description>"
}

var dataTagRe = regexp.MustCompile(`(?i)</?\s*description\s*>`)

// atLeast raises a tier the model decided to the floor the description's signals
// set, saying why in the justification. A question is left as it is: the tier is
// decided after its answer.
func atLeast(res schemas.TieringResult, f tierfloor.Floor, lang string) schemas.TieringResult {
	if res.Tier == 0 || res.Tier >= f.Tier {
		return res
	}
	res.Tier = f.Tier
	res.Justification = strings.TrimSpace(res.Justification + " " +
		fmt.Sprintf(caseWordsFor(lang).tierFloor, f.Tier, strings.Join(f.Signals, ", ")))
	return res
}
