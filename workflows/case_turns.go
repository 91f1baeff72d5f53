package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// validateMessage rejects an update before it enters history: an empty or over-long
// message, or a case that cannot take one (closed, awaiting payment, paused), unless
// the message repeats the idempotency key of a turn it started, or the move under way
// (which the store may show already) lets it in.
func (w *caseWorkflow) validateMessage(ctx workflow.Context, req schemas.SendMessageRequest) error {
	switch n := utf8.RuneCountInString(req.Message); {
	case strings.TrimSpace(req.Message) == "":
		return temporal.NewApplicationError("message is empty", schemas.ErrInvalidMessage)
	case n > schemas.MaxMessageChars:
		return temporal.NewApplicationErrorWithOptions("message is too long", schemas.ErrInvalidMessage,
			temporal.ApplicationErrorOptions{Details: []any{n, schemas.MaxMessageChars}})
	}
	if w.knownKey(workflow.Now(ctx), req.IdempotencyKey) != "" {
		return nil // a repeated request: it gets its turn whatever the case's state now
	}
	err := refusalOf(w.state)
	if err != nil && w.moving != nil && refusalOf(*w.moving) == nil {
		// The store already shows the move under way, which lets the message in: the
		// handler decides, under the turn lock, once the case has taken it.
		return nil
	}
	return err
}

// refusalOf is why a case in state st cannot take a message, or nil: it is closed, it
// is paused for support (a stalled case may be so in any phase), its phase refuses
// messages (see phases), or it waits on its budget.
func refusalOf(st schemas.CaseState) error {
	if st.Status == schemas.StatusClosed {
		return temporal.NewApplicationError("case is closed", schemas.ErrCaseClosed)
	}
	if st.Status == schemas.StatusPausedSupport {
		return temporal.NewApplicationError("the case is paused until support resolves its ticket", schemas.ErrCasePaused)
	}
	if refuse := phaseNamed(st.Phase).refusal; refuse != nil {
		return refuse(st)
	}
	if p := st.Budget; p != nil && st.Status == schemas.StatusWaitingBudget {
		return temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("the %s's model-token budget for today is used up; the case resumes at %s", p.Scope, p.ResumeAt.UTC().Format(time.RFC3339)),
			schemas.ErrBudgetExhausted, temporal.ApplicationErrorOptions{Details: []any{p.BudgetExhausted}})
	}
	return nil
}

// sendMessage runs one chat turn, or, while tiering waits for the answer to its
// question, gives the answer to tiering. Turns run one at a time, in the order they
// arrive.
func (w *caseWorkflow) sendMessage(ctx workflow.Context, req schemas.SendMessageRequest) (schemas.TurnResult, error) {
	if err := workflow.Await(ctx, func() bool { return w.ready }); err != nil {
		return schemas.TurnResult{}, err
	}
	if err := w.turnLock.Lock(ctx); err != nil {
		return schemas.TurnResult{}, err
	}
	defer w.turnLock.Unlock()
	if turn := w.keyedTurn(ctx, req.IdempotencyKey); turn != "" {
		return schemas.TurnResult{TurnID: turn, Repeated: true, Phase: w.state.Phase, Status: w.state.Status}, nil
	}
	if err := refusalOf(w.state); err != nil {
		return schemas.TurnResult{}, err
	}
	w.state.Busy = true
	defer func() { w.state.Busy = false; w.publish(ctx) }()
	if w.state.Phase == schemas.PhaseTiering {
		return w.answerTiering(ctx, req)
	}
	return w.runTurn(ctx, req)
}

// keyedTurn returns the turn that idempotency key started in the last
// schemas.KeyedTurnsFor, or "", forgetting older ones.
func (w *caseWorkflow) keyedTurn(ctx workflow.Context, key string) string {
	now := workflow.Now(ctx)
	w.state.Keyed = slices.DeleteFunc(w.state.Keyed, func(k schemas.KeyedTurn) bool { return now.Sub(k.At) > schemas.KeyedTurnsFor })
	return w.knownKey(now, key)
}

// knownKey returns the turn that key started within schemas.KeyedTurnsFor of now, or
// "", changing nothing.
func (w *caseWorkflow) knownKey(now time.Time, key string) string {
	if key == "" {
		return ""
	}
	for _, k := range w.state.Keyed {
		if k.Key == key && now.Sub(k.At) <= schemas.KeyedTurnsFor {
			return k.TurnID
		}
	}
	return ""
}

// rememberKey records that key started turn.
func (w *caseWorkflow) rememberKey(ctx workflow.Context, key, turn string) {
	if key == "" {
		return
	}
	w.state.Keyed = append(w.state.Keyed, schemas.KeyedTurn{Key: key, TurnID: turn, At: workflow.Now(ctx)})
	if n := len(w.state.Keyed); n > schemas.MaxKeyedTurns {
		w.state.Keyed = w.state.Keyed[n-schemas.MaxKeyedTurns:]
	}
}

// runTurn runs a ChatTurn child and moves the case as its escalation says, or, when
// the turn ran out of model-token budget and nothing else holds the case, to
// waiting_budget.
func (w *caseWorkflow) runTurn(ctx workflow.Context, req schemas.SendMessageRequest) (schemas.TurnResult, error) {
	if err := w.waitOn(ctx, schemas.WaitingOnAgent); err != nil {
		return schemas.TurnResult{}, err
	}
	w.state.Turns++
	n := w.state.Turns
	id := schemas.TurnWorkflowID(w.state.CaseID, n)
	w.state.LastTurn = id
	w.rememberKey(ctx, req.IdempotencyKey, id)
	w.publish(ctx)
	in := schemas.ChatTurnInput{
		CaseID: w.state.CaseID, UserID: w.state.UserID, OrgID: w.in.OrgID, TurnID: id, TurnNo: n,
		Message: req.Message, Language: w.in.Language, MaxSteps: w.in.MaxSteps, Selection: req.Selection,
		EscalationN: w.state.Escalations + 1, Timeout: w.in.TurnTimeout, MaxArgsBytes: schemas.MaxToolArgsBytes,
		RequestID: req.RequestID,
	}
	if w.state.Status == schemas.StatusWaitingUser {
		in.Pending = w.state.Escalation
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:    id,
		StaticSummary: fmt.Sprintf("Chat turn %d", n),
		// A turn belongs to its case: closing or terminating the case ends it too.
		ParentClosePolicy: enums.PARENT_CLOSE_POLICY_TERMINATE,
	})
	var res schemas.TurnResult
	if err := workflow.ExecuteChildWorkflow(cctx, ChatTurn, in).Get(ctx, &res); err != nil {
		return schemas.TurnResult{}, err
	}
	if err := w.afterTurn(ctx, in, res.Escalation); err != nil {
		return schemas.TurnResult{}, err
	}
	if res.Budget != nil && w.state.Status == schemas.StatusOpen {
		if err := w.pauseForBudget(ctx, *res.Budget, ""); err != nil {
			return schemas.TurnResult{}, err
		}
	}
	res.Phase, res.Status = w.state.Phase, w.state.Status
	return res, nil
}

// validateCancel rejects a cancellation when no turn is running.
func (w *caseWorkflow) validateCancel() error {
	if !w.state.Busy {
		return temporal.NewApplicationError("no turn is running", schemas.ErrNoTurn)
	}
	return nil
}

// cancelTurn asks the running turn to stop; it cancels the step under way and answers
// its caller with what it has.
func (w *caseWorkflow) cancelTurn(ctx workflow.Context) (schemas.CancelTurnResult, error) {
	if !w.state.Busy {
		return schemas.CancelTurnResult{}, temporal.NewApplicationError("no turn is running", schemas.ErrNoTurn)
	}
	turnID := w.state.LastTurn
	if err := workflow.SignalExternalWorkflow(ctx, turnID, "", schemas.SignalCancelTurn, nil).Get(ctx, nil); err != nil {
		return schemas.CancelTurnResult{}, temporal.NewApplicationError("the turn ended before it could be cancelled", schemas.ErrNoTurn)
	}
	return schemas.CancelTurnResult{TurnID: turnID}, nil
}
