package activities

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/mailer/mailtest"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// notify runs Notify in a test activity environment.
func notify(t *testing.T, a *Notifications, n schemas.Notification) (schemas.NotificationResult, error) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(a)
	v, err := env.ExecuteActivity(a.Notify, n)
	if err != nil {
		return schemas.NotificationResult{}, err
	}
	var res schemas.NotificationResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	return res, nil
}

// mailUser makes a user whose settings have the e-mail channel on with a verified
// address, unless verified is false, when the address only waits for its code; and a
// mail server on loopback with a Notifications that sends through it.
func mailUser(t *testing.T, s store.Notifications, verified bool) (string, *mailtest.Server, *Notifications) {
	t.Helper()
	owner := store.OwnerID("", "u-"+uuid.NewString()[:8])
	_, err := s.UpdateNotificationSettings(t.Context(), owner, func(ns *store.NotificationSettings) error {
		ns.Channels, ns.Language = []string{store.ChannelApp, store.ChannelEmail}, "it"
		if verified {
			ns.Email, ns.EmailVerifiedAt = "ana@example.com", time.Now()
		} else {
			ns.Pending = &store.EmailCode{Address: "ana@example.com", Hash: "h", Expires: time.Now().Add(time.Hour)}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := mailtest.Start(t)
	m, err := mailer.New(mailer.Config{Addr: srv.Addr, User: mailtest.User, Password: mailtest.Password,
		From: "Lexflow <notify@lexflow.example>", TLS: srv.TLS})
	if err != nil {
		t.Fatal(err)
	}
	return owner, srv, &Notifications{Store: s, Mail: m, DefaultLanguage: "ro"}
}

func reminder(owner string) schemas.Notification {
	return schemas.Notification{Key: "deadline:" + uuid.NewString() + ":reminder:48h", Kind: schemas.NotifyDeadlineReminder, Owner: owner,
		CaseID: "c-" + uuid.NewString()[:8], DeadlineID: "d1", Due: time.Date(2026, 12, 3, 23, 0, 0, 0, time.UTC), Language: "ro",
		Params: map[string]string{schemas.ParamOffset: "48h0m0s", schemas.ParamSource: "hearing"}}
}

// TestNotifyInTheAppOnce: a user who chose nothing gets the notification in the
// app, in the case's language; Notify again stores nothing more and says Duplicate.
func TestNotifyInTheAppOnce(t *testing.T) {
	owner := store.OwnerID("", "u-"+uuid.NewString()[:8])
	a := &Notifications{Store: st, DefaultLanguage: "en"}
	n := reminder(owner)
	res, err := notify(t, a, n)
	if err != nil || !slices.Equal(res.Sent, []string{store.ChannelApp}) || res.Duplicate {
		t.Fatalf("Notify = %+v, %v; want sent in the app", res, err)
	}
	if res, err = notify(t, a, n); err != nil || len(res.Sent) != 0 || !res.Duplicate {
		t.Errorf("Notify again = %+v, %v; want Duplicate", res, err)
	}
	list, err := st.ListNotifications(t.Context(), owner, "", 10)
	if err != nil || len(list) != 1 {
		t.Fatalf("notifications = %+v, %v; want one", list, err)
	}
	if got := list[0]; got.ID != AppNotificationID(n.Key) || got.CaseID != n.CaseID || !strings.HasPrefix(got.Title, "Termen peste 2 zile") ||
		!strings.Contains(got.Body, "termen de judecată") {
		t.Errorf("notification = %+v, want the Romanian reminder", got)
	}
	rec, err := st.GetSend(t.Context(), n.Key, store.ChannelApp)
	if err != nil || rec.MessageID != AppNotificationID(n.Key) || rec.Outcome != store.SendSent {
		t.Errorf("send record = %+v, %v", rec, err)
	}
}

// TestNotifyByEmail: a verified address gets one mail in the user's language, with its
// Message-ID recorded; a Notify retried after the recorded send sends nothing.
func TestNotifyByEmail(t *testing.T) {
	owner, srv, a := mailUser(t, st, true)
	n := reminder(owner)
	res, err := notify(t, a, n)
	if err != nil || !slices.Equal(res.Sent, []string{store.ChannelApp, store.ChannelEmail}) {
		t.Fatalf("Notify = %+v, %v; want sent in the app and by e-mail", res, err)
	}
	mails := srv.Wait(t, 1, 5*time.Second)
	m := mails[0]
	if m.To[0] != "ana@example.com" || !strings.HasPrefix(m.Subject, "Scadenza tra 2 giorni: pratica "+n.CaseID) ||
		!strings.Contains(m.Body, "03/12/2026 24:00 (Europe/Rome)") || m.Header.Get("Content-Language") != "it" {
		t.Errorf("mail = %q to %v: %q", m.Subject, m.To, m.Body)
	}
	rec, err := st.GetSend(t.Context(), n.Key, store.ChannelEmail)
	if err != nil || rec.MessageID != m.Header.Get("Message-ID") || rec.Outcome != store.SendSent {
		t.Errorf("send record = %+v, %v; want the mail's Message-ID", rec, err)
	}
	if res, err = notify(t, a, n); err != nil || !res.Duplicate || len(res.Sent) != 0 {
		t.Errorf("Notify again = %+v, %v; want Duplicate", res, err)
	}
	if got := len(srv.Messages()); got != 1 {
		t.Errorf("%d mails after the retry, want 1", got)
	}
}

// TestNotifyUnverifiedGetsNoMail: an address waiting for its code gets nothing, and
// nothing is recorded for e-mail.
func TestNotifyUnverifiedGetsNoMail(t *testing.T) {
	owner, srv, a := mailUser(t, st, false)
	n := reminder(owner)
	res, err := notify(t, a, n)
	if err != nil || !slices.Equal(res.Sent, []string{store.ChannelApp}) {
		t.Fatalf("Notify = %+v, %v; want the app alone", res, err)
	}
	if _, err := st.GetSend(t.Context(), n.Key, store.ChannelEmail); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("e-mail send record = %v, want none", err)
	}
	if got := len(srv.Messages()); got != 0 {
		t.Errorf("%d mails to an unverified address, want 0", got)
	}
}

// failingRecords is a store whose first RecordSend of an e-mail fails, as a worker
// that crashed after sending and before recording.
type failingRecords struct {
	store.Notifications
	once sync.Once
}

func (f *failingRecords) RecordSend(ctx context.Context, s store.NotificationSend) (store.NotificationSend, error) {
	failed := false
	if s.Channel == store.ChannelEmail {
		f.once.Do(func() { failed = true })
	}
	if failed {
		return store.NotificationSend{}, errors.New("worker lost")
	}
	return f.Notifications.RecordSend(ctx, s)
}

// TestCrashBeforeRecordSharesMessageID: a send whose record was lost is sent again
// on retry, under the same Message-ID; the next retry sends nothing.
func TestCrashBeforeRecordSharesMessageID(t *testing.T) {
	owner, srv, a := mailUser(t, st, true)
	a.Store = &failingRecords{Notifications: st}
	n := reminder(owner)
	if _, err := notify(t, a, n); err == nil {
		t.Fatal("Notify whose record failed = nil error, want one to retry")
	}
	if res, err := notify(t, a, n); err != nil || !slices.Equal(res.Sent, []string{store.ChannelEmail}) {
		t.Fatalf("retried Notify = %+v, %v; want the mail sent again (the app's send was recorded)", res, err)
	}
	if res, err := notify(t, a, n); err != nil || !res.Duplicate {
		t.Errorf("third Notify = %+v, %v; want Duplicate", res, err)
	}
	mails := srv.Wait(t, 2, 5*time.Second)
	if len(mails) != 2 || mails[0].Header.Get("Message-ID") != mails[1].Header.Get("Message-ID") {
		t.Errorf("mails' Message-IDs = %v; want two copies sharing one", messageIDs(mails))
	}
}

// racingLookups is a store whose GetSend of an e-mail answers only once two callers
// asked: two Notifies both find no record before either records.
type racingLookups struct {
	store.Notifications
	arrived sync.WaitGroup
}

func (r *racingLookups) GetSend(ctx context.Context, key, channel string) (store.NotificationSend, error) {
	if channel == store.ChannelEmail {
		r.arrived.Done()
		r.arrived.Wait()
	}
	return r.Notifications.GetSend(ctx, key, channel)
}

// TestRacingNotifiesShareMessageID: two Notifies that both looked before either
// recorded both send, under one Message-ID, and one record is kept.
func TestRacingNotifiesShareMessageID(t *testing.T) {
	owner, srv, a := mailUser(t, st, true)
	race := &racingLookups{Notifications: st}
	race.arrived.Add(2)
	a.Store = race
	n := reminder(owner)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { _, errs[i] = notify(t, a, n) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	mails := srv.Wait(t, 2, 5*time.Second)
	if mails[0].Header.Get("Message-ID") != mails[1].Header.Get("Message-ID") {
		t.Errorf("racing copies' Message-IDs = %v, want one", messageIDs(mails))
	}
	rec, err := st.GetSend(t.Context(), n.Key, store.ChannelEmail)
	if err != nil || rec.MessageID != mails[0].Header.Get("Message-ID") {
		t.Errorf("send record = %+v, %v", rec, err)
	}
}

// TestRefusedAddressIsRecordedNotRetried: a 5xx from the mail server is recorded as
// rejected and is no error, so the activity is not retried.
func TestRefusedAddressIsRecordedNotRetried(t *testing.T) {
	owner, srv, a := mailUser(t, st, true)
	srv.Refuse()
	n := reminder(owner)
	res, err := notify(t, a, n)
	if err != nil || slices.Contains(res.Sent, store.ChannelEmail) {
		t.Fatalf("Notify to a refused address = %+v, %v; want no e-mail sent and no error", res, err)
	}
	rec, err := st.GetSend(t.Context(), n.Key, store.ChannelEmail)
	if err != nil || rec.Outcome != store.SendRejected || !strings.Contains(rec.Detail, "550") {
		t.Errorf("send record = %+v, %v; want rejected with the server's reply", rec, err)
	}
}

// TestNotifyRefusesBadInput: no key, or a kind without texts, is not retried.
func TestNotifyRefusesBadInput(t *testing.T) {
	a := &Notifications{Store: st}
	for _, n := range []schemas.Notification{
		{Kind: schemas.NotifyDeadlineMissed, Owner: "user:x", CaseID: "c"},
		{Key: "k-" + uuid.NewString(), Kind: "deadline.other", Owner: "user:x", CaseID: "c"},
	} {
		_, err := notify(t, a, n)
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != schemas.ErrInvalidArgs {
			t.Errorf("Notify(%+v) = %v, want a non-retryable ErrInvalidArgs", n, err)
		}
	}
}

func messageIDs(mails []mailtest.Received) []string {
	var ids []string
	for _, m := range mails {
		ids = append(ids, m.Header.Get("Message-ID"))
	}
	return ids
}
