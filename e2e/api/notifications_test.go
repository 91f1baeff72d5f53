package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/wiring"
)

// codeIn finds the six-digit code in a verification mail's subject.
var codeIn = regexp.MustCompile(`\b\d{6}\b`)

// notifyUser is a fresh user of acme: their token, store owner and e-mail address.
func notifyUser(t *testing.T) (tok, owner, addr string) {
	sub := "notify-" + uuid.NewString()[:8]
	return s.Token(t, sub), store.OwnerID("acme", sub), sub + "@example.com"
}

// TestEmailVerificationThenNotify: a user asks for a code, gets it by mail over
// STARTTLS, fails once, verifies, turns e-mail on in Italian and Rome's zone; a
// reminder then reaches the address with its headers, once, however often Notify runs.
func TestEmailVerificationThenNotify(t *testing.T) {
	t.Parallel()
	tok, owner, addr := notifyUser(t)
	r := s.Call(t, "GET", "/v1/me/notifications/settings", tok, nil)
	if r.Status != http.StatusOK || r.Body["email_available"] != true || r.Body["time_zone_used"] != "UTC" {
		t.Fatalf("settings: %d %s", r.Status, r.Raw)
	}
	if ch, _ := r.Body["channels"].([]any); len(ch) != 1 || ch[0] != "app" {
		t.Errorf("default channels = %v, want [app]", r.Body["channels"])
	}
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"channels": []string{"app", "email"}}),
		http.StatusUnprocessableEntity, "invalid-input")
	for _, bad := range []string{"not an address", "Ana <ana@example.com>", ""} {
		stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": bad}), http.StatusUnprocessableEntity, "invalid-input")
	}
	if r := s.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": addr}); r.Status != http.StatusAccepted {
		t.Fatalf("PUT email: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": addr}), http.StatusTooManyRequests, "too-many-requests")
	mail := s.Mail.WaitTo(t, addr, 1, 30*time.Second)[0]
	code := codeIn.FindString(mail.Subject)
	if !mail.TLS || code == "" || !strings.Contains(mail.Body, code) || mail.Header.Get("Message-ID") == "" {
		t.Fatalf("verification mail: TLS %v, subject %q, body %q", mail.TLS, mail.Subject, mail.Body)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	r = s.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": wrong})
	stack.WantProblem(t, r, http.StatusUnprocessableEntity, "invalid-input")
	if !strings.Contains(string(r.Raw), "4 attempts left") {
		t.Errorf("wrong code: %s, want the attempts left", r.Raw)
	}
	if r := s.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": code}); r.Status != http.StatusOK || r.Body["email"] != addr {
		t.Fatalf("verify: %d %s", r.Status, r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"time_zone": "Mars/Olympus"}),
		http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"language": "de"}),
		http.StatusUnprocessableEntity, "invalid-input")
	r = s.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"channels": []string{"app", "email"}, "language": "it", "time_zone": "Europe/Rome"})
	if r.Status != http.StatusOK || r.Body["time_zone_used"] != "Europe/Rome" || r.Body["language"] != "it" {
		t.Fatalf("settings: %d %s", r.Status, r.Raw)
	}

	mailer, err := wiring.Mailer(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	a := &activities.Notifications{Store: s.Store, Mail: mailer, DefaultLanguage: "en"}
	n := schemas.Notification{Key: "deadline:" + uuid.NewString() + ":reminder:168h0m0s", Kind: schemas.NotifyDeadlineReminder, Owner: owner,
		CaseID: "c-notify", Due: time.Date(2027, 3, 10, 23, 0, 0, 0, time.UTC), Language: "ro",
		Params: map[string]string{"offset": "168h0m0s", "source": "communication"}}
	for i := range 2 {
		var ts testsuite.WorkflowTestSuite
		env := ts.NewTestActivityEnvironment()
		env.RegisterActivity(a)
		v, err := env.ExecuteActivity(a.Notify, n)
		if err != nil {
			t.Fatal(err)
		}
		var res schemas.NotificationResult
		if err := v.Get(&res); err != nil {
			t.Fatal(err)
		}
		if (i == 0) == res.Duplicate {
			t.Errorf("Notify #%d = %+v", i+1, res)
		}
	}
	mails := s.Mail.WaitTo(t, addr, 2, 30*time.Second)
	got := mails[1]
	if got.Subject != "Scadenza tra 7 giorni: pratica c-notify" || !strings.Contains(got.Body, "(comunicazione) scade tra 7 giorni, il 10/03/2027 24:00 (Europe/Rome)") {
		t.Errorf("reminder: %q %q", got.Subject, got.Body)
	}
	if got.Header.Get("From") == "" || got.Header.Get("Date") == "" || !strings.HasSuffix(got.Header.Get("Message-ID"), "@lexflow.test>") {
		t.Errorf("reminder headers: %v", got.Header)
	}
	list := s.Call(t, "GET", "/v1/me/notifications", tok, nil)
	if list.Status != http.StatusOK || list.Body["unread"] != 1.0 {
		t.Errorf("list: %d %s", list.Status, list.Raw)
	}
	if extra := len(s.Mail.To(addr)); extra != 2 {
		t.Errorf("%d mails to %s, want the code and one reminder", extra, addr)
	}
}

// clock is a clock a test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestEmailCodeExpiresAndRunsOut: a code past its quarter hour is refused and gone;
// five wrong codes void one, so that the right one no longer works.
func TestEmailCodeExpiresAndRunsOut(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.Now()}
	c := s.Serve(t, func(_ *config.Config, d *api.Deps) { d.Now = clk.Now })
	tok, _, addr := notifyUser(t)
	if r := c.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": addr}); r.Status != http.StatusAccepted {
		t.Fatalf("PUT email: %d %s", r.Status, r.Raw)
	}
	code := codeIn.FindString(s.Mail.WaitTo(t, addr, 1, 30*time.Second)[0].Subject)
	clk.Add(16 * time.Minute)
	r := c.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": code})
	stack.WantProblem(t, r, http.StatusUnprocessableEntity, "invalid-input")
	if !strings.Contains(string(r.Raw), "expired") {
		t.Errorf("expired code: %s", r.Raw)
	}
	stack.WantProblem(t, c.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": code}), http.StatusConflict, "conflict")

	if r := c.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": addr}); r.Status != http.StatusAccepted {
		t.Fatalf("PUT email again: %d %s", r.Status, r.Raw)
	}
	code = codeIn.FindString(s.Mail.WaitTo(t, addr, 2, 30*time.Second)[1].Subject)
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for range 5 {
		stack.WantProblem(t, c.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": wrong}), http.StatusUnprocessableEntity, "invalid-input")
	}
	stack.WantProblem(t, c.Call(t, "POST", "/v1/me/notifications/email/verify", tok, map[string]any{"code": code}), http.StatusConflict, "conflict")
	if r := c.Call(t, "GET", "/v1/me/notifications/settings", tok, nil); r.Body["email"] != nil || r.Body["pending_email"] != nil {
		t.Errorf("settings after the codes ran out: %s", r.Raw)
	}
}

// TestEmailChannelRefusedWithoutMailServer: an API with no mail server refuses the
// e-mail channel and the address, saying why, and keeps the app channel working.
func TestEmailChannelRefusedWithoutMailServer(t *testing.T) {
	t.Parallel()
	c := s.Serve(t, func(_ *config.Config, d *api.Deps) { d.Mail = nil })
	tok, _, addr := notifyUser(t)
	if r := c.Call(t, "GET", "/v1/me/notifications/settings", tok, nil); r.Body["email_available"] != false {
		t.Errorf("settings: %s", r.Raw)
	}
	for _, r := range []stack.Response{
		c.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"channels": []string{"email"}}),
		c.Call(t, "PUT", "/v1/me/notifications/email", tok, map[string]any{"email": addr}),
	} {
		stack.WantProblem(t, r, http.StatusUnprocessableEntity, "invalid-input")
		if !strings.Contains(string(r.Raw), "no mail server") {
			t.Errorf("refusal: %s, want it to say there is no mail server", r.Raw)
		}
	}
	if r := c.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"channels": []string{"app"}, "language": "ro"}); r.Status != http.StatusOK ||
		r.Body["time_zone_used"] != "Europe/Bucharest" {
		t.Errorf("app channel: %d %s", r.Status, r.Raw)
	}
	if r := c.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"channels": []string{}}); r.Status != http.StatusOK ||
		r.Body["channels"] == nil || len(r.Body["channels"].([]any)) != 0 {
		t.Errorf("no channel at all: %d %s, want an empty list kept", r.Status, r.Raw)
	}
	if got := len(s.Mail.To(addr)); got != 0 {
		t.Errorf("%d mails sent without a mail server", got)
	}
}

// addNotifications stores n notifications of owner about caseID, a second apart.
func addNotifications(t *testing.T, owner, caseID string, n int) []string {
	t.Helper()
	var ids []string
	base := time.Now().UTC().Truncate(time.Millisecond)
	for i := range n {
		id := activities.AppNotificationID(uuid.NewString())
		if _, err := s.Store.AddNotification(t.Context(), store.InAppNotification{ID: id, Owner: owner, Key: id, Kind: schemas.NotifyDeadlineMissed,
			CaseID: caseID, Title: "Deadline missed: case " + caseID, Body: "b", CreatedAt: base.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Store.RecordSend(t.Context(), store.NotificationSend{Key: id, Channel: store.ChannelApp, Owner: owner, CaseID: caseID,
			MessageID: id, Outcome: store.SendSent, At: base}); err != nil {
			t.Fatal(err)
		}
		ids = append([]string{id}, ids...)
	}
	return ids
}

// TestNotificationsAreTheOwners: a user lists their notifications newest first by
// pages with the unread count, and marks them read; another user sees none of them
// and cannot mark them.
func TestNotificationsAreTheOwners(t *testing.T) {
	t.Parallel()
	tok, owner, _ := notifyUser(t)
	other, _, _ := notifyUser(t)
	ids := addNotifications(t, owner, "c-"+uuid.NewString()[:8], 3)
	r := s.Call(t, "GET", "/v1/me/notifications?limit=2", tok, nil)
	page, _ := r.Body["notifications"].([]any)
	if r.Status != http.StatusOK || r.Body["unread"] != 3.0 || len(page) != 2 || page[0].(map[string]any)["id"] != ids[0] || r.Body["next"] != ids[1] {
		t.Fatalf("first page: %d %s", r.Status, r.Raw)
	}
	if strings.Contains(string(r.Raw), owner) {
		t.Errorf("the list shows the store's owner ID: %s", r.Raw)
	}
	r = s.Call(t, "GET", "/v1/me/notifications?limit=2&after="+ids[1], tok, nil)
	if page, _ := r.Body["notifications"].([]any); len(page) != 1 || page[0].(map[string]any)["id"] != ids[2] || r.Body["next"] != nil {
		t.Errorf("second page: %s", r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/notifications", other, nil); r.Body["unread"] != 0.0 || len(r.Body["notifications"].([]any)) != 0 {
		t.Errorf("another user's list: %s", r.Raw)
	}
	stack.WantProblem(t, s.Call(t, "GET", "/v1/me/notifications?after="+ids[0], other, nil), http.StatusUnprocessableEntity, "invalid-input")
	stack.WantProblem(t, s.Call(t, "POST", "/v1/me/notifications/"+ids[0]+"/read", other, nil), http.StatusNotFound, "not-found")
	if r := s.Call(t, "POST", "/v1/me/notifications/read", other, nil); r.Body["marked"] != 0.0 {
		t.Errorf("another user marking all read: %s", r.Raw)
	}
	if r := s.Call(t, "POST", "/v1/me/notifications/"+ids[0]+"/read", tok, nil); r.Status != http.StatusOK || r.Body["unread"] != 2.0 {
		t.Errorf("read one: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "POST", "/v1/me/notifications/read", tok, nil); r.Status != http.StatusOK || r.Body["marked"] != 2.0 || r.Body["unread"] != 0.0 {
		t.Errorf("read all: %d %s", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/notifications", tok, nil); r.Body["notifications"].([]any)[2].(map[string]any)["read_at"] == nil {
		t.Errorf("after reading all: %s", r.Raw)
	}
}

// TestEraseNotificationsKeepsHeldCases: a user's erasure of their notifications
// deletes their settings, their calendar feed and what is about free cases, and keeps what is about a case
// under a legal hold; erasing a case deletes its notifications, every user's.
func TestEraseNotificationsKeepsHeldCases(t *testing.T) {
	t.Parallel()
	tok, owner, _ := notifyUser(t)
	held := s.CreateCase(t, tok, "My landlord keeps the deposit of my flat")
	if err := s.Store.SetHold(t.Context(), held, "", &store.Hold{By: "ops", Reason: "litigation", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	free := s.CreateCase(t, tok, "My employer has not paid my overtime")
	addNotifications(t, owner, held, 1)
	addNotifications(t, owner, free, 2)
	if r := s.Call(t, "PUT", "/v1/me/notifications/settings", tok, map[string]any{"language": "it"}); r.Status != http.StatusOK {
		t.Fatalf("settings: %d %s", r.Status, r.Raw)
	}
	feed := s.Call(t, "POST", "/v1/me/feed", tok, nil).Body["url"].(string)
	r := s.Call(t, "DELETE", "/v1/me/notifications", tok, nil)
	if status, _ := feedLines(t, feed); status != http.StatusNotFound {
		t.Errorf("the calendar feed answers %d after the erasure, want 404", status)
	}
	if hc, _ := r.Body["held_cases"].([]any); r.Status != http.StatusOK || r.Body["erased"] != 4.0 || len(hc) != 1 || hc[0] != held {
		t.Fatalf("erase: %d %s; want the free case's two notifications and sends", r.Status, r.Raw)
	}
	if r := s.Call(t, "GET", "/v1/me/notifications/settings", tok, nil); r.Body["language"] != "" {
		t.Errorf("settings after erasure: %s", r.Raw)
	}
	list := s.Call(t, "GET", "/v1/me/notifications", tok, nil).Body["notifications"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["case_id"] != held {
		t.Errorf("left after erasure: %v, want the held case's", list)
	}

	other, otherOwner, _ := notifyUser(t)
	addNotifications(t, owner, free, 1)
	addNotifications(t, otherOwner, free, 1)
	r = s.Call(t, "DELETE", "/v1/cases/"+free, tok, nil)
	if erased, _ := r.Body["erased"].(map[string]any); r.Status != http.StatusOK || erased["notifications"] != 4.0 {
		t.Fatalf("erase the case: %d %s; want its 2 notifications and 2 sends counted", r.Status, r.Raw)
	}
	for _, who := range []string{tok, other} {
		for _, n := range s.Call(t, "GET", "/v1/me/notifications", who, nil).Body["notifications"].([]any) {
			if n.(map[string]any)["case_id"] == free {
				t.Errorf("a notification of the erased case is left: %v", n)
			}
		}
	}
}
