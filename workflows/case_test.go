package workflows

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/converter"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/schemas"
)

var caseIn = schemas.CaseInput{CaseID: "c1", UserID: "alice", Language: "en", MaxSteps: 5, Description: "A question about a lease"}

func newCaseEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	return newCaseEnvQuota(t, true)
}

// newCaseEnvQuota is a Case test environment whose quota check answers hasQuota.
func newCaseEnvQuota(t *testing.T, hasQuota bool) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	return newCaseEnvWith(t, caseEnvOptions{noQuota: !hasQuota})
}

// caseEnvOptions shape a Case test environment: the quota check answers !noQuota; the
// tierings answer tierings in turn, the last one from then on (tier 1 when empty);
// recordTier answers the tier's record (success when nil), setPhase the phase moves
// (nil when nil); the texts of the transcript notices go to said, and every status
// recorded (moves and the rest) to statuses, and the inputs of the memory proposals a
// closed case starts to proposals, unless they are nil.
type caseEnvOptions struct {
	noQuota    bool
	tierings   []schemas.TieringResult
	recordTier func() schemas.StatusResult
	setPhase   func(schemas.CaseStatus) error
	said       *[]string
	statuses   *[]schemas.SetCaseStatus
	// notices get the transcript notices whole, unless nil.
	notices   *[]schemas.Notice
	proposals *[]schemas.ProposeMemory
}

func newCaseEnvWith(t *testing.T, o caseEnvOptions) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	if len(o.tierings) == 0 {
		o.tierings = []schemas.TieringResult{{Tier: 1, Justification: "a question"}}
	}
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(ChatTurn)
	env.RegisterWorkflow(Tiering)
	env.RegisterWorkflow(Quota)
	env.RegisterActivity(&activities.Cases{})
	env.RegisterActivity(&activities.Transcript{})
	env.RegisterActivity(&activities.Payments{})
	env.RegisterActivity(&activities.Tickets{})
	env.RegisterActivity(&activities.Actions{})
	// Events whose ID starts with "forged" have no audited record behind them.
	env.OnActivity(actionActs.VerifyAction, mock.Anything, mock.Anything).Return(func(_ context.Context, v schemas.VerifyAction) error {
		if strings.HasPrefix(v.ID, "forged") {
			return temporal.NewNonRetryableApplicationError("no audit record "+v.ID, schemas.ErrEventRefused, nil)
		}
		return nil
	}).Maybe()
	env.OnActivity(casesActs.SetCaseStatus, mock.Anything, mock.Anything).Return(func(_ context.Context, in schemas.SetCaseStatus) error {
		if o.setPhase != nil && in.Moved {
			if err := o.setPhase(in.Status); err != nil {
				return err
			}
		}
		if o.statuses != nil {
			*o.statuses = append(*o.statuses, in)
		}
		return nil
	})
	env.OnActivity(casesActs.UpdateCaseDetails, mock.Anything, mock.Anything).Return(
		func(context.Context, schemas.UpdateCaseDetailsArgs) (schemas.StatusResult, error) {
			if o.recordTier != nil {
				return o.recordTier(), nil
			}
			return schemas.StatusResult{Status: schemas.ResultSuccess}, nil
		})
	env.OnActivity(transcriptActs.RecordNotice, mock.Anything, mock.Anything).Return(func(_ context.Context, n schemas.Notice) error {
		if o.said != nil {
			*o.said = append(*o.said, n.Text)
		}
		if o.notices != nil {
			*o.notices = append(*o.notices, n)
		}
		return nil
	})
	tierings := 0
	env.OnWorkflow(Tiering, mock.Anything, mock.Anything).Return(
		func(workflow.Context, schemas.TieringInput) (schemas.TieringResult, error) {
			tierings++
			return o.tierings[min(tierings, len(o.tierings))-1], nil
		})
	env.OnWorkflow(Quota, mock.Anything, mock.Anything).Return(schemas.QuotaResult{HasQuota: !o.noQuota}, nil)
	env.RegisterWorkflow(ProposeMemory)
	env.OnWorkflow(ProposeMemory, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in schemas.ProposeMemory) (schemas.ProposeMemoryResult, error) {
			if o.proposals != nil {
				*o.proposals = append(*o.proposals, in)
			}
			return schemas.ProposeMemoryResult{}, nil
		}).Maybe()
	return env
}

// update sends a send-message update and keeps its outcome.
type update struct {
	accepted bool
	rejected error
	result   schemas.TurnResult
	err      error
	done     bool
}

func sendMessage(env *testsuite.TestWorkflowEnvironment, id, msg string) *update {
	return sendRequest(env, id, schemas.SendMessageRequest{Message: msg})
}

// sendRequest sends a send-message update carrying req and keeps its outcome.
func sendRequest(env *testsuite.TestWorkflowEnvironment, id string, req schemas.SendMessageRequest) *update {
	u := &update{}
	env.UpdateWorkflow(schemas.UpdateSendMessage, id, &testsuite.TestUpdateCallback{
		OnAccept: func() { u.accepted = true },
		OnReject: func(err error) { u.rejected = err; u.done = true },
		OnComplete: func(res any, err error) {
			if r, ok := res.(schemas.TurnResult); ok {
				u.result = r
			}
			u.err, u.done = err, true
		},
	}, req)
	return u
}

func TestCaseSerializesTurns(t *testing.T) {
	env := newCaseEnv(t)
	type span struct{ start, end time.Time }
	var spans []span
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(
		func(ctx workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
			start := workflow.Now(ctx)
			if err := workflow.Sleep(ctx, time.Minute); err != nil {
				return schemas.TurnResult{}, err
			}
			spans = append(spans, span{start, workflow.Now(ctx)})
			return schemas.TurnResult{TurnID: in.TurnID, Reply: "re: " + in.Message}, nil
		})
	var first, second *update
	var state schemas.CaseStatus
	env.RegisterDelayedCallback(func() {
		first = sendMessage(env, "u1", "first")
		second = sendMessage(env, "u2", "second")
	}, time.Second)
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(schemas.QueryState)
		if err != nil {
			t.Error(err)
			return
		}
		if err := v.Get(&state); err != nil {
			t.Error(err)
		}
		env.CancelWorkflow()
	}, time.Hour)
	env.ExecuteWorkflow(Case, caseIn)

	for i, u := range []*update{first, second} {
		if !u.done || u.err != nil || u.rejected != nil {
			t.Fatalf("update %d: %+v", i+1, u)
		}
	}
	if first.result.Reply != "re: first" || second.result.Reply != "re: second" {
		t.Errorf("replies %q, %q", first.result.Reply, second.result.Reply)
	}
	if first.result.TurnID != "case:c1:turn:1" || second.result.TurnID != "case:c1:turn:2" {
		t.Errorf("turn IDs %q, %q", first.result.TurnID, second.result.TurnID)
	}
	if first.result.Phase != schemas.PhaseActive {
		t.Errorf("phase = %q", first.result.Phase)
	}
	if len(spans) != 2 || spans[1].start.Before(spans[0].end) {
		t.Errorf("turns overlapped: %+v", spans)
	}
	if state.Turns != 2 || state.Busy || state.Phase != schemas.PhaseActive || state.LastTurn != "case:c1:turn:2" {
		t.Errorf("state = %+v", state)
	}
}

func TestCaseValidatorRejectsBadMessages(t *testing.T) {
	env := newCaseEnv(t)
	var empty, blank, long *update
	env.RegisterDelayedCallback(func() {
		empty = sendMessage(env, "u1", "")
		blank = sendMessage(env, "u2", "  \n\t")
		long = sendMessage(env, "u3", strings.Repeat("ă", schemas.MaxMessageChars+1))
	}, time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	for name, u := range map[string]*update{"empty": empty, "blank": blank, "too long": long} {
		if u.accepted || !hasErrorType(u.rejected, schemas.ErrInvalidMessage) {
			t.Errorf("%s message: accepted=%v rejected=%v; want rejected as %s", name, u.accepted, u.rejected, schemas.ErrInvalidMessage)
		}
	}
}

func TestCaseTurnFailureKeepsCaseOpen(t *testing.T) {
	env := newCaseEnv(t)
	calls := 0
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
			calls++
			if calls == 1 {
				return schemas.TurnResult{}, errors.New("model unavailable")
			}
			return schemas.TurnResult{TurnID: in.TurnID, Reply: "ok"}, nil
		})
	var first, second *update
	env.RegisterDelayedCallback(func() { first = sendMessage(env, "u1", "one") }, time.Second)
	env.RegisterDelayedCallback(func() { second = sendMessage(env, "u2", "two") }, time.Minute)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Hour)
	env.ExecuteWorkflow(Case, caseIn)

	if first.err == nil {
		t.Error("first update succeeded; want the turn's failure")
	}
	if second.err != nil || second.result.Reply != "ok" || second.result.TurnID != "case:c1:turn:2" {
		t.Errorf("second update = %+v", second)
	}
}

func TestCaseContinuesAsNewWhenSuggested(t *testing.T) {
	env := newCaseEnv(t)
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(schemas.TurnResult{Reply: "ok"}, nil)
	var u *update
	env.RegisterDelayedCallback(func() { u = sendMessage(env, "u1", "hello") }, time.Second)
	env.RegisterDelayedCallback(func() { env.SetContinueAsNewSuggested(true) }, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if !u.done || u.err != nil {
		t.Fatalf("update = %+v", u)
	}
	err := env.GetWorkflowError()
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("workflow ended with %v, want continue-as-new", err)
	}
	var next schemas.CaseInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if next.State == nil || next.State.Turns != 1 || next.State.Phase != schemas.PhaseActive || next.CaseID != "c1" || next.MaxSteps != 5 {
		t.Fatalf("continued with %+v (state %+v)", next, next.State)
	}
}

// TestCaseRecordsItsStatus: each change of where the case stands reaches the store, in
// Seq order: the moves to quota and active through the activity that records them,
// and a turn's start and end, which no activity records, through local activities;
// the state query answers the same view, and unchanged views are not written again.
func TestCaseRecordsItsStatus(t *testing.T) {
	var statuses []schemas.SetCaseStatus
	env := newCaseEnvWith(t, caseEnvOptions{statuses: &statuses})
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(schemas.TurnResult{Reply: "ok"}, nil)
	var state schemas.CaseStatus
	env.RegisterDelayedCallback(func() { sendMessage(env, "u1", "hello") }, time.Second)
	env.RegisterDelayedCallback(func() { state = caseState(t, env); env.CancelWorkflow() }, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	var moves []string
	var during *schemas.CaseStatus
	for i, st := range statuses {
		if st.CaseID != "c1" || st.Status.Seq != int64(i+1) || st.Status.UpdatedAt.IsZero() {
			t.Errorf("status %d: %+v; want case c1, Seq %d, stamped", i, st, i+1)
		}
		if st.Moved {
			moves = append(moves, st.Status.Phase)
		}
		if st.Status.Busy && st.Status.Turns == 1 {
			during = &st.Status
		}
	}
	if !slices.Equal(moves, []string{schemas.PhaseQuota, schemas.PhaseActive}) {
		t.Errorf("moves recorded %v, want quota then active", moves)
	}
	if during == nil || during.WaitingOn != schemas.WaitingOnAgent || during.LastTurn != "case:c1:turn:1" {
		t.Errorf("no status recorded the running turn: %+v", statuses)
	}
	last := statuses[len(statuses)-1].Status
	if last.Busy || last.Turns != 1 || last.WaitingOn != "" || last.Tier != 1 {
		t.Errorf("last status %+v, want the turn done", last)
	}
	if state.Seq != last.Seq || state.Turns != 1 || state.Busy {
		t.Errorf("query answered %+v, want the last recorded status (Seq %d)", state, last.Seq)
	}
	if len(statuses) > 6 {
		t.Errorf("%d statuses recorded for tiering, quota and one turn: unchanged views were written again: %+v", len(statuses), statuses)
	}
}

func TestCaseResumesFromCarriedState(t *testing.T) {
	var statuses []schemas.SetCaseStatus
	env := newCaseEnvWith(t, caseEnvOptions{statuses: &statuses})
	var got schemas.ChatTurnInput
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
			got = in
			return schemas.TurnResult{TurnID: in.TurnID}, nil
		})
	in := caseIn
	in.State = &schemas.CaseState{CaseID: "c1", UserID: "alice", Phase: schemas.PhaseActive, Status: schemas.StatusOpen, Turns: 7, Runs: 1, Seq: 40,
		Handled: []string{"forged-r"}, Refused: []schemas.RefusedEvent{{ID: "forged-r", Reason: "no audit record forged-r"}}}
	var state schemas.CaseStatus
	var settled *event
	env.RegisterDelayedCallback(func() { sendMessage(env, "u1", "next") }, time.Second)
	// An event refused in the run before still answers why.
	env.RegisterDelayedCallback(func() { settled = caseEvent(env, schemas.UpdateSettlePayment, "s1", "forged-r") }, 2*time.Second)
	env.RegisterDelayedCallback(func() {
		v, _ := env.QueryWorkflow(schemas.QueryState)
		_ = v.Get(&state)
		env.CancelWorkflow()
	}, time.Minute)
	env.ExecuteWorkflow(Case, in)

	if got.TurnNo != 8 || got.TurnID != "case:c1:turn:8" {
		t.Errorf("turn after continue-as-new = %d (%s), want 8", got.TurnNo, got.TurnID)
	}
	if settled.err != nil || !settled.outcome.Handled || settled.outcome.Refused == "" {
		t.Errorf("a refused event after continue-as-new: %+v, want handled and refused", settled)
	}
	if state.Runs != 2 || state.Turns != 8 {
		t.Errorf("state = %+v, want run 2 with 8 turns", state)
	}
	// The new run's statuses go on from the carried Seq, so the store takes them.
	if len(statuses) == 0 || statuses[0].Status.Seq != 41 || state.Seq != statuses[len(statuses)-1].Status.Seq {
		t.Errorf("statuses recorded %+v, query %+v; want Seqs from 41 on, the query answering the last", statuses, state)
	}
	for _, st := range statuses {
		if st.Moved {
			t.Errorf("the carried-over case moved to %s, %s; it was active and open", st.Status.Phase, st.Status.Status)
		}
	}
}

func TestCaseCancelTurn(t *testing.T) {
	env := newCaseEnv(t)
	var turnCancelled bool
	env.OnWorkflow(ChatTurn, mock.Anything, mock.Anything).Return(
		func(ctx workflow.Context, in schemas.ChatTurnInput) (schemas.TurnResult, error) {
			sel := workflow.NewSelector(ctx)
			sel.AddReceive(workflow.GetSignalChannel(ctx, schemas.SignalCancelTurn), func(c workflow.ReceiveChannel, _ bool) {
				c.Receive(ctx, nil)
				turnCancelled = true
			})
			sel.AddFuture(workflow.NewTimer(ctx, time.Minute), func(workflow.Future) {})
			sel.Select(ctx)
			return schemas.TurnResult{TurnID: in.TurnID, Cancelled: turnCancelled}, nil
		})
	var idle, during *update
	cancel := func() *update {
		u := &update{}
		env.UpdateWorkflow(schemas.UpdateCancelTurn, "", &testsuite.TestUpdateCallback{
			OnAccept: func() { u.accepted = true },
			OnReject: func(err error) { u.rejected = err; u.done = true },
			OnComplete: func(res any, err error) {
				if r, ok := res.(schemas.CancelTurnResult); ok {
					u.result.TurnID = r.TurnID
				}
				u.err, u.done = err, true
			},
		})
		return u
	}
	env.RegisterDelayedCallback(func() { idle = cancel() }, time.Second)
	env.RegisterDelayedCallback(func() { sendMessage(env, "u1", "hello") }, 2*time.Second)
	env.RegisterDelayedCallback(func() { during = cancel() }, 10*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Hour)
	env.ExecuteWorkflow(Case, caseIn)

	if idle.accepted || !hasErrorType(idle.rejected, schemas.ErrNoTurn) {
		t.Errorf("cancel with no turn running: accepted=%v rejected=%v", idle.accepted, idle.rejected)
	}
	if !during.accepted || during.err != nil || during.result.TurnID != "case:c1:turn:1" || !turnCancelled {
		t.Errorf("cancel during a turn: %+v; the turn received it: %v", during, turnCancelled)
	}
}

// An answer to tiering's question keeps its idempotency key, as a turn does: the same
// request again answers that turn and is not taken as a second answer.
func TestCaseTieringAnswerKeepsItsKey(t *testing.T) {
	env := newCaseEnvWith(t, caseEnvOptions{tierings: []schemas.TieringResult{{Question: "Is there a court case?"}, {Tier: 2, Justification: "a court case"}}})
	env.OnActivity(transcriptActs.RecordUserMessage, mock.Anything, mock.Anything).Return(nil).Once()
	env.OnActivity(transcriptActs.RecordTurn, mock.Anything, mock.Anything).Return(nil).Once()
	req := schemas.SendMessageRequest{Message: "Yes, in court", IdempotencyKey: "k1"}
	var first, again *update
	env.RegisterDelayedCallback(func() { first = sendRequest(env, "u1", req) }, time.Second)
	env.RegisterDelayedCallback(func() { again = sendRequest(env, "u2", req) }, 2*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	env.ExecuteWorkflow(Case, caseIn)

	if first.err != nil || first.result.Tier != 2 || first.result.Repeated {
		t.Fatalf("the answer: %+v", first)
	}
	if again.err != nil || !again.result.Repeated || again.result.TurnID != first.result.TurnID {
		t.Errorf("the same answer again: %+v, want the first's turn repeated", again)
	}
	env.AssertExpectations(t)
}
