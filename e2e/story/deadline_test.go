package story_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/childproc"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
)

// verificationCode finds the six-digit code in a verification mail's subject.
var verificationCode = regexp.MustCompile(`\b\d{6}\b`)

// TestDeadlineRemindersSurviveRestarts sets a deadline whose three reminders fall
// seconds apart, on a Temporal dev server of the test's own. After the first
// reminder's mail arrives and its send is recorded, the worker is killed and the
// server stopped; the second reminder's time passes while nothing runs; the server
// restarts on its database file and a new worker starts. Every reminder reaches the
// client's verified address on the loopback SMTP server, and the first, whose send
// was recorded before the kill, is never sent again.
func TestDeadlineRemindersSurviveRestarts(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	cli, err := devenv.FindTemporalCLI("bin/temporal")
	if err != nil {
		t.Fatal(err)
	}
	port, err := childproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	opts := devenv.TemporalOptions{CLI: cli, DBFile: filepath.Join(t.TempDir(), "temporal.db"), Port: port}
	startServer := func() *devenv.TemporalServer {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		ts, err := devenv.StartTemporal(sctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	ts := startServer()
	t.Cleanup(func() { ts.Stop() })

	// An API and a worker process on the test's own server and queue.
	queue := "e2e-deadline-" + uuid.NewString()[:8]
	cfg := s.Config
	cfg.TemporalAddress, cfg.TaskQueue = ts.Address, queue
	b, err := wiring.Open(ctx, cfg, "e2e-deadline", s.Log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	c := s.Serve(t, func(c *config.Config, d *api.Deps) {
		c.TemporalAddress, c.TaskQueue = ts.Address, queue
		d.Temporal = b.Temporal
	})
	smtp := s.Config.SMTP
	workerEnv := []string{"TEMPORAL_ADDRESS=" + ts.Address, "LEXFLOW_SMTP_ADDR=" + smtp.Addr, "LEXFLOW_SMTP_FROM=" + smtp.From,
		"LEXFLOW_SMTP_USER=" + smtp.User, "LEXFLOW_SMTP_PASSWORD=" + smtp.Password, "LEXFLOW_SMTP_CA_CERT_PATH=" + smtp.CA}
	worker := s.StartHelperWorker(t, queue, 0, workerEnv...)

	// The client verifies an address and chooses e-mail.
	sub := "deadline-" + uuid.NewString()[:8]
	tok, owner, addr := s.Token(t, sub), store.OwnerID("acme", sub), sub+"@example.com"
	if r := c.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": addr}); r.Status != http.StatusAccepted {
		t.Fatalf("PUT email: %d %s", r.Status, r.Raw)
	}
	code := verificationCode.FindString(s.Mail.WaitTo(t, addr, 1, 30*time.Second)[0].Subject)
	if r := c.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": code}); r.Status != http.StatusOK {
		t.Fatalf("verify: %d %s", r.Status, r.Raw)
	}
	if r := c.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"channels": []string{"email"}}); r.Status != http.StatusOK {
		t.Fatalf("settings: %d %s", r.Status, r.Raw)
	}

	// A deadline due tomorrow (24:00 in Bucharest), reminded 10, 20 and 30 seconds
	// from now: offsets before its end, in whole seconds.
	id := c.CreateCase(t, tok, "A court served me a judgment and I must appeal in time")
	bucharest, err := time.LoadLocation("Europe/Bucharest")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	due := now.In(bucharest).AddDate(0, 0, 1)
	endsAt := time.Date(due.Year(), due.Month(), due.Day(), 0, 0, 0, 0, bucharest).AddDate(0, 0, 1)
	var at []time.Time
	var reminders []string
	for _, in := range []time.Duration{10 * time.Second, 20 * time.Second, 30 * time.Second} {
		offset := endsAt.Sub(now.Add(in)).Truncate(time.Second)
		at = append(at, endsAt.Add(-offset))
		reminders = append(reminders, fmt.Sprintf("%ds", int(offset.Seconds())))
	}
	r := c.Call(t, "POST", "/v1/cases/"+id+"/deadlines", tok, map[string]any{
		"title": "Appeal", "source": map[string]any{"kind": "communication", "date": now.In(bucharest).Format(time.DateOnly)},
		"due": due.Format(time.DateOnly), "jurisdiction": "ro", "reminders": reminders})
	if r.Status != http.StatusCreated {
		t.Fatalf("create deadline: %d %s", r.Status, r.Raw)
	}
	deadlineID := r.Body["deadline_id"].(string)
	// The notifications' keys name each reminder as the deadline keeps it.
	reminders = nil
	for _, r := range r.Body["reminders"].([]any) {
		reminders = append(reminders, r.(string))
	}

	// The first reminder arrives and its send is recorded; then the worker is killed
	// and the server stopped.
	first := s.Mail.WaitTo(t, addr, 2, time.Minute)[1]
	key := schemas.DeadlineNotificationKey(deadlineID, schemas.NotifyDeadlineReminder, reminders[0], due.Format(time.DateOnly), owner)
	waitForSend(t, key)
	if err := worker.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = worker.Wait()
	ts.Stop()

	// The second reminder's time passes while neither runs.
	select {
	case <-time.After(time.Until(at[1].Add(time.Second))):
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	ts = startServer()
	s.StartHelperWorker(t, queue, 0, workerEnv...)

	mails := s.Mail.WaitTo(t, addr, 4, time.Minute)
	var ids []string
	for _, m := range mails[1:] {
		if !m.TLS || !strings.Contains(m.Subject, id) {
			t.Errorf("reminder: TLS %v, subject %q", m.TLS, m.Subject)
		}
		ids = append(ids, m.Header.Get("Message-ID"))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 3 {
		t.Errorf("Message-IDs %v: want three reminders, each once", ids)
	}
	if got := first.Header.Get("Message-ID"); ids[0] != got {
		t.Errorf("first reminder %s, then %v", got, ids)
	}
	for i, offset := range reminders {
		key := schemas.DeadlineNotificationKey(deadlineID, schemas.NotifyDeadlineReminder, offset, due.Format(time.DateOnly), owner)
		send := waitForSend(t, key)
		if send.Outcome != store.SendSent {
			t.Errorf("reminder %d: send %+v", i+1, send)
		}
	}
	if n := len(s.Mail.To(addr)); n != 4 {
		t.Errorf("%d mails to %s, want the code and three reminders", n, addr)
	}
	t.Logf("reminders at %v arrived; the second, due while Temporal was down, after the restart", at)
}

// waitForSend polls the store until a send of key by e-mail is recorded.
func waitForSend(t *testing.T, key string) store.NotificationSend {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for {
		send, err := s.Store.GetSend(ctx, key, store.ChannelEmail)
		if err == nil {
			return send
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no send of %s recorded: %v", key, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
