package workflows

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/schemas"
)

// start is when the deadline tests' workflows start.
var start = time.Date(2026, 3, 16, 9, 0, 0, 0, time.UTC)

// sends records the Notify calls a test environment's workflow made.
type sends struct {
	mu    sync.Mutex
	calls []sent
	// failFirst makes the first attempt of each key fail, as a mail server that
	// timed out after the send would.
	failFirst bool
	tried     map[string]bool
	// zones are the recipients' own time zones, as their notification settings
	// hold them; one not here set none.
	zones map[string]string
	// failReads is how many ReadMornings calls fail before one answers.
	failReads int
}

type sent struct {
	key, kind, owner string
	at               time.Time
}

// register registers the Notify double under the Notify activity's name.
func (s *sends) register(env *testsuite.TestWorkflowEnvironment) {
	s.tried = map[string]bool{}
	env.RegisterActivityWithOptions(func(ctx context.Context, n schemas.Notification) (schemas.NotificationResult, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.failFirst && !s.tried[n.Key] {
			s.tried[n.Key] = true
			return schemas.NotificationResult{}, errors.New("smtp: timeout after DATA")
		}
		// Every call is recorded, a repeated key's too, so that a workflow that
		// notifies twice is seen even though the real Notify would send nothing.
		repeated := slices.ContainsFunc(s.calls, func(c sent) bool { return c.key == n.Key })
		s.calls = append(s.calls, sent{key: n.Key, kind: n.Kind, owner: n.Owner, at: env.Now()})
		if repeated {
			return schemas.NotificationResult{Duplicate: true}, nil
		}
		return schemas.NotificationResult{Sent: []string{"email"}}, nil
	}, activity.RegisterOptions{Name: "Notify"})
	env.RegisterActivityWithOptions(func(ctx context.Context, in schemas.ReadMornings) (schemas.Mornings, error) {
		s.mu.Lock()
		failing := s.failReads > 0
		s.failReads--
		s.mu.Unlock()
		if failing {
			return schemas.Mornings{}, errors.New("store: connection refused")
		}
		day, err := time.Parse(time.DateOnly, in.Due)
		if err != nil {
			return schemas.Mornings{}, err
		}
		var out schemas.Mornings
		for _, owner := range in.Owners {
			zone := in.Zone
			if z, ok := s.zones[owner]; ok {
				zone = z
			}
			loc, err := time.LoadLocation(zone)
			if err != nil {
				return schemas.Mornings{}, err
			}
			out.Mornings = append(out.Mornings, schemas.Morning{Owner: owner, Zone: zone,
				At: time.Date(day.Year(), day.Month(), day.Day(), schemas.MorningHour, 0, 0, 0, loc)})
		}
		return out, nil
	}, activity.RegisterOptions{Name: "ReadMornings"})
}

// kinds lists the sends as "kind offset owner +elapsed".
func (s *sends) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.calls {
		parts := strings.Split(c.key, ":")
		out = append(out, c.kind+" "+parts[3]+" "+c.owner+" "+parts[4]+" +"+c.at.Sub(start).String())
	}
	return out
}

// deadlineEnv is a test environment starting at start with the Notify double, and
// MarkDeadlineMissed and the ticket activity answering as marked.
func deadlineEnv(t *testing.T, s *sends) (*testsuite.TestWorkflowEnvironment, *int) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	s.register(env)
	tickets := new(int)
	env.OnActivity(deadlineActs.MarkDeadlineMissed, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.MarkDeadlineMissed) (schemas.MarkedMissed, error) {
			return schemas.MarkedMissed{Marked: true, Plan: schemas.DeadlinePlan{Rev: in.Rev + 1, Status: schemas.DeadlineMissed}}, nil
		}).Maybe()
	env.OnActivity(ticketActs.CreateSupportTicket, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
			*tickets++
			if in.Deadline != "dl-1" || !strings.HasPrefix(in.TicketID, schemas.DeadlineTicketID("case-1", "dl-1", "")) ||
				strings.Contains(in.Args.IssueDescription, "Appeal") {
				t.Errorf("ticket %+v", in)
			}
			return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: in.TicketID}, nil
		}).Maybe()
	return env, tickets
}

func plan(rev int64, due string, ends time.Time, reminders ...string) schemas.DeadlinePlan {
	return schemas.DeadlinePlan{Rev: rev, Status: schemas.DeadlineActive, Kind: schemas.SourceCourtOrder, Due: due, EndsAt: ends,
		Zone: "Europe/Bucharest", Responsible: "org:o:user:lawyer", Reminders: reminders}
}

func deadlineInput(p schemas.DeadlinePlan) schemas.DeadlineInput {
	return schemas.DeadlineInput{TenantID: "o", CaseID: "case-1", DeadlineID: "dl-1", Owner: "org:o:user:client", Language: "ro", Plan: p}
}

func equal(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sends:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDeadlineRemindsThenMisses: each reminder goes to the responsible lawyer and the
// client at its time, on timers the test skips; a reminder due before the deadline
// was set is not sent; at the end the deadline is missed, both are told, and one
// ticket is opened.
func TestDeadlineRemindsThenMisses(t *testing.T) {
	var s sends
	env, tickets := deadlineEnv(t, &s)
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-16", start.Add(time.Hour), "168h", "30m", "10m")))
	var res schemas.DeadlineResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != schemas.DeadlineMissed || *tickets != 1 {
		t.Errorf("result %+v, %d tickets; want missed, 1", res, *tickets)
	}
	equal(t, s.list(), []string{
		"deadline.reminder 30m org:o:user:lawyer 2026-03-16 +30m0s",
		"deadline.reminder 30m org:o:user:client 2026-03-16 +30m0s",
		"deadline.reminder 10m org:o:user:lawyer 2026-03-16 +50m0s",
		"deadline.reminder 10m org:o:user:client 2026-03-16 +50m0s",
		"deadline.missed  org:o:user:lawyer 2026-03-16 +1h0m0s",
		"deadline.missed  org:o:user:client 2026-03-16 +1h0m0s",
	})
}

// TestDeadlineMorningReminder: for recipients who set no zone of their own, "morning"
// is 08:00 of the last day in the court's zone (06:00 UTC in Bucharest's winter).
func TestDeadlineMorningReminder(t *testing.T) {
	var s sends
	env, _ := deadlineEnv(t, &s)
	bucharest, _ := time.LoadLocation("Europe/Bucharest")
	ends := time.Date(2026, 3, 18, 0, 0, 0, 0, bucharest) // 24:00 of 17 March
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-17", ends, schemas.ReminderMorning)))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	got := s.list()
	if len(got) < 1 || !strings.HasPrefix(got[0], "deadline.reminder morning org:o:user:lawyer 2026-03-17 +") {
		t.Fatalf("sends %v", got)
	}
	if at := s.calls[0].at; !at.Equal(time.Date(2026, 3, 17, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("morning reminder at %v, want 06:00 UTC", at)
	}
}

// TestDeadlineMorningInEachRecipientsZone: the morning reminder reaches each
// recipient at 08:00 in the zone of their own settings: the lawyer in Rome at 07:00
// UTC, the client in New York at 12:00 UTC, each once.
func TestDeadlineMorningInEachRecipientsZone(t *testing.T) {
	s := sends{zones: map[string]string{"org:o:user:lawyer": "Europe/Rome", "org:o:user:client": "America/New_York"}}
	env, _ := deadlineEnv(t, &s)
	bucharest, _ := time.LoadLocation("Europe/Bucharest")
	ends := time.Date(2026, 3, 18, 0, 0, 0, 0, bucharest)
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-17", ends, schemas.ReminderMorning)))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Time{
		"org:o:user:lawyer": time.Date(2026, 3, 17, 7, 0, 0, 0, time.UTC),
		"org:o:user:client": time.Date(2026, 3, 17, 12, 0, 0, 0, time.UTC),
	}
	reminded := 0
	for _, c := range s.calls {
		if c.kind != schemas.NotifyDeadlineReminder {
			continue
		}
		reminded++
		if at, ok := want[c.owner]; !ok || !c.at.Equal(at) {
			t.Errorf("morning reminder to %s at %v, want %v", c.owner, c.at, at)
		}
	}
	if reminded != 2 {
		t.Errorf("%d morning reminders, want one to each recipient: %v", reminded, s.list())
	}
}

// TestDeadlineUpdateWhileZonesAreRead: a deadline marked done while its recipients'
// zones are being read (the read waiting to retry) ends without waiting for, or
// sending, the morning reminder planned from the older plan.
func TestDeadlineUpdateWhileZonesAreRead(t *testing.T) {
	s := sends{zones: map[string]string{"org:o:user:lawyer": "America/New_York"}, failReads: 1}
	env, _ := deadlineEnv(t, &s)
	bucharest, _ := time.LoadLocation("Europe/Bucharest")
	first := plan(1, "2026-03-16", time.Date(2026, 3, 17, 0, 0, 0, 0, bucharest), schemas.ReminderMorning)
	done := first
	done.Rev, done.Status = 2, schemas.DeadlineDone
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(schemas.UpdateDeadlinePlan, "done", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { t.Errorf("done rejected: %v", err) }, OnComplete: func(any, error) {}}, done)
	}, 500*time.Millisecond)
	env.ExecuteWorkflow(Deadline, deadlineInput(first))
	var res schemas.DeadlineResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != schemas.DeadlineDone || len(s.list()) != 0 || env.Now().After(start.Add(time.Hour)) {
		t.Errorf("ended %+v at %v with sends %v; want done at once, nothing sent", res, env.Now(), s.list())
	}
}

// TestDeadlineReplansOnUpdate: moving the deadline re-plans its timers (the old
// day's last reminder is never sent, the new day's are), and a stale plan is refused.
func TestDeadlineReplansOnUpdate(t *testing.T) {
	var s sends
	env, _ := deadlineEnv(t, &s)
	moved := plan(2, "2026-03-17", start.Add(3*time.Hour), "30m", "10m")
	var stale error
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(schemas.UpdateDeadlinePlan, "move", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { t.Errorf("move rejected: %v", err) }, OnComplete: func(any, error) {}}, moved)
	}, 40*time.Minute)
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(schemas.UpdateDeadlinePlan, "stale", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { stale = err }, OnComplete: func(any, error) {}},
			plan(1, "2026-03-16", start.Add(time.Hour), "30m"))
	}, 45*time.Minute)
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-16", start.Add(time.Hour), "30m", "10m")))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if stale == nil {
		t.Error("a plan older than the kept one was accepted")
	}
	equal(t, s.list(), []string{
		"deadline.reminder 30m org:o:user:lawyer 2026-03-16 +30m0s",
		"deadline.reminder 30m org:o:user:client 2026-03-16 +30m0s",
		"deadline.reminder 30m org:o:user:lawyer 2026-03-17 +2h30m0s",
		"deadline.reminder 30m org:o:user:client 2026-03-17 +2h30m0s",
		"deadline.reminder 10m org:o:user:lawyer 2026-03-17 +2h50m0s",
		"deadline.reminder 10m org:o:user:client 2026-03-17 +2h50m0s",
		"deadline.missed  org:o:user:lawyer 2026-03-17 +3h0m0s",
		"deadline.missed  org:o:user:client 2026-03-17 +3h0m0s",
	})
}

// TestDeadlineDoneEndsIt: a plan marked done ends the workflow before its end,
// with no more sends and no ticket.
func TestDeadlineDoneEndsIt(t *testing.T) {
	var s sends
	env, tickets := deadlineEnv(t, &s)
	done := plan(2, "2026-03-16", start.Add(time.Hour), "30m")
	done.Status = schemas.DeadlineDone
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(schemas.UpdateDeadlinePlan, "done", &testsuite.TestUpdateCallback{
			OnAccept: func() {}, OnReject: func(err error) { t.Errorf("done rejected: %v", err) }, OnComplete: func(any, error) {}}, done)
	}, 35*time.Minute)
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-16", start.Add(time.Hour), "30m", "10m")))
	var res schemas.DeadlineResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != schemas.DeadlineDone || *tickets != 0 || len(s.list()) != 2 {
		t.Errorf("result %+v, %d tickets, sends %v; want done, none, the 30m reminder's two", res, *tickets, s.list())
	}
}

// TestDeadlineNotifyRetrySendsOnce: a Notify that failed after sending is retried
// under the same key, which the activity finds sent: each reminder reaches each
// recipient once.
func TestDeadlineNotifyRetrySendsOnce(t *testing.T) {
	s := sends{failFirst: true}
	env, _ := deadlineEnv(t, &s)
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-16", start.Add(time.Hour), "30m")))
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(s.tried) != 4 {
		t.Errorf("first attempts failed for %d keys, want 4 (2 reminders, 2 missed)", len(s.tried))
	}
	keys := map[string]int{}
	for _, c := range s.calls {
		keys[c.key]++
	}
	if len(s.calls) != 4 || len(keys) != 4 {
		t.Errorf("sends %v; want each of the 4 keys once", s.list())
	}
}

// TestDeadlineChangedBeforeMissed: a deadline done in the store when its end came
// (an Update lost with the API) is not marked missed: no ticket, no missed notice.
func TestDeadlineChangedBeforeMissed(t *testing.T) {
	var s sends
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetStartTime(start)
	s.register(env)
	done := plan(2, "2026-03-16", start.Add(time.Hour))
	done.Status = schemas.DeadlineDone
	env.OnActivity(deadlineActs.MarkDeadlineMissed, mock.Anything, mock.Anything).Return(schemas.MarkedMissed{Plan: done}, nil).Once()
	env.ExecuteWorkflow(Deadline, deadlineInput(plan(1, "2026-03-16", start.Add(time.Hour))))
	var res schemas.DeadlineResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if res.Status != schemas.DeadlineDone || len(s.list()) != 0 {
		t.Errorf("result %+v, sends %v; want done and nothing sent", res, s.list())
	}
	env.AssertExpectations(t)
}
