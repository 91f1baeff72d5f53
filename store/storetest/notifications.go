package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// notificationTests check store.Notifications.
var notificationTests = []subtest{
	{"SettingsDefaultThenStored", testSettingsStored},
	{"SettingsUpdatesAreNotLost", testSettingsConcurrent},
	{"SettingsChangeErrorStoresNothing", testSettingsChangeError},
	{"AddIsIdempotent", testAddNotificationIdempotent},
	{"ListNewestFirstPagedAndOwned", testListNotifications},
	{"MarkReadIsTheOwnersAlone", testMarkNotificationRead},
	{"MarkAllRead", testMarkAllRead},
	{"RecordSendKeepsTheFirst", testRecordSend},
	{"EraseKeepsHeldCases", testEraseNotifications},
	{"EraseCase", testEraseCaseNotifications},
}

func testSettingsStored(t *testing.T, s store.Store) {
	owner := newID("user")
	if _, err := s.GetNotificationSettings(t.Context(), owner); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetNotificationSettings of a user without settings = %v, want ErrNotFound", err)
	}
	var seen store.NotificationSettings
	expires := time.Now().Add(10 * time.Minute).UTC().Truncate(time.Millisecond)
	got, err := s.UpdateNotificationSettings(t.Context(), owner, func(ns *store.NotificationSettings) error {
		seen = *ns
		ns.Channels = []string{store.ChannelApp, store.ChannelEmail}
		ns.Language, ns.TimeZone, ns.Email = "it", "Europe/Rome", "ana@example.com"
		ns.Pending = &store.EmailCode{Address: "nou@example.com", Salt: "s", Hash: "h", Expires: expires, Attempts: 2}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen.Channels, []string{store.ChannelApp}) || seen.Version != 0 {
		t.Errorf("a first update saw %+v, want the defaults (the app channel, version 0)", seen)
	}
	read, err := s.GetNotificationSettings(t.Context(), owner)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []store.NotificationSettings{got, read} {
		if ns.Owner != owner || ns.Language != "it" || ns.TimeZone != "Europe/Rome" || ns.Email != "ana@example.com" ||
			!slices.Equal(ns.Channels, []string{store.ChannelApp, store.ChannelEmail}) || ns.Version != 1 {
			t.Errorf("settings = %+v, want what was stored at version 1", ns)
		}
		if p := ns.Pending; p == nil || p.Address != "nou@example.com" || p.Hash != "h" || p.Salt != "s" || p.Attempts != 2 || !sameTime(p.Expires, expires) {
			t.Errorf("pending = %+v, want the code stored", p)
		}
	}
	got, err = s.UpdateNotificationSettings(t.Context(), owner, func(ns *store.NotificationSettings) error {
		ns.Pending = nil
		return nil
	})
	if err != nil || got.Pending != nil || got.Version != 2 || got.Email != "ana@example.com" {
		t.Errorf("clearing the code = %+v, %v; want version 2 without a code", got, err)
	}
}

func testSettingsConcurrent(t *testing.T, s store.Store) {
	owner := newID("user")
	const writers = 6
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Go(func() {
			_, err := s.UpdateNotificationSettings(t.Context(), owner, func(ns *store.NotificationSettings) error {
				ns.Channels = append(ns.Channels, fmt.Sprint(i))
				return nil
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GetNotificationSettings(t.Context(), owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Channels) != writers+1 || got.Version != writers {
		t.Errorf("after %d concurrent updates: channels %v, version %d; want every update kept", writers, got.Channels, got.Version)
	}
}

func testSettingsChangeError(t *testing.T, s store.Store) {
	owner := newID("user")
	refused := errors.New("refused")
	_, err := s.UpdateNotificationSettings(t.Context(), owner, func(ns *store.NotificationSettings) error {
		ns.Language = "en"
		return refused
	})
	if !errors.Is(err, refused) {
		t.Fatalf("UpdateNotificationSettings = %v, want the change's error", err)
	}
	if _, err := s.GetNotificationSettings(t.Context(), owner); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after a refused change GetNotificationSettings = %v, want ErrNotFound", err)
	}
}

// notification returns an unread notification of owner about a case, made at.
func notification(owner, caseID string, at time.Time) store.InAppNotification {
	id := newID("n")
	return store.InAppNotification{ID: id, Owner: owner, Key: "key:" + id, Kind: "deadline.reminder", CaseID: caseID,
		DeadlineID: "d1", Due: at.Add(48 * time.Hour), Title: "t", Body: "b", CreatedAt: at}
}

func addNotification(t *testing.T, s store.Store, n store.InAppNotification) {
	t.Helper()
	if _, err := s.AddNotification(t.Context(), n); err != nil {
		t.Fatal(err)
	}
}

func testAddNotificationIdempotent(t *testing.T, s store.Store) {
	owner := newID("user")
	n := notification(owner, newID("case"), time.Now().UTC().Truncate(time.Millisecond))
	for i, want := range []bool{true, false} {
		again := n
		again.Title = fmt.Sprint("title ", i)
		added, err := s.AddNotification(t.Context(), again)
		if err != nil || added != want {
			t.Fatalf("AddNotification #%d = %v, %v; want %v", i+1, added, err, want)
		}
	}
	got, err := s.ListNotifications(t.Context(), owner, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Title != "title 0" || got[0].Kind != n.Kind || got[0].DeadlineID != "d1" ||
		!sameTime(got[0].Due, n.Due) || !got[0].ReadAt.IsZero() {
		t.Errorf("notifications = %+v, want the first one stored, unread", got)
	}
}

func testListNotifications(t *testing.T, s store.Store) {
	owner, other := newID("user"), newID("user")
	base := time.Now().UTC().Truncate(time.Millisecond)
	var ids []string
	for i := range 5 {
		n := notification(owner, newID("case"), base.Add(time.Duration(i)*time.Second))
		addNotification(t, s, n)
		ids = append([]string{n.ID}, ids...)
	}
	addNotification(t, s, notification(other, newID("case"), base.Add(time.Hour)))
	var got []string
	after := ""
	for range 3 {
		page, err := s.ListNotifications(t.Context(), owner, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range page {
			got = append(got, n.ID)
		}
		if len(page) < 2 {
			break
		}
		after = page[len(page)-1].ID
	}
	if !slices.Equal(got, ids) {
		t.Errorf("pages = %v, want %v (newest first, the owner's alone)", got, ids)
	}
	if _, err := s.ListNotifications(t.Context(), other, ids[0], 2); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("listing after another user's notification = %v, want ErrNotFound", err)
	}
	if n, err := s.CountUnread(t.Context(), owner); err != nil || n != 5 {
		t.Errorf("CountUnread = %d, %v; want 5", n, err)
	}
}

func testMarkNotificationRead(t *testing.T, s store.Store) {
	owner, other := newID("user"), newID("user")
	now := time.Now().UTC().Truncate(time.Millisecond)
	n := notification(owner, newID("case"), now)
	addNotification(t, s, n)
	if err := s.MarkNotificationRead(t.Context(), other, n.ID, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another user marking it read = %v, want ErrNotFound", err)
	}
	if c, _ := s.CountUnread(t.Context(), owner); c != 1 {
		t.Errorf("after another user's attempt, unread = %d, want 1", c)
	}
	if err := s.MarkNotificationRead(t.Context(), owner, n.ID, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkNotificationRead(t.Context(), owner, n.ID, now.Add(time.Minute)); err != nil {
		t.Errorf("marking it read again = %v, want nil", err)
	}
	got, err := s.ListNotifications(t.Context(), owner, "", 1)
	if err != nil || len(got) != 1 || !sameTime(got[0].ReadAt, now.Add(time.Second)) {
		t.Errorf("read notification = %+v, %v; want the first read time kept", got, err)
	}
	if c, _ := s.CountUnread(t.Context(), owner); c != 0 {
		t.Errorf("unread = %d, want 0", c)
	}
	if err := s.MarkNotificationRead(t.Context(), owner, newID("n"), now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("marking a missing notification read = %v, want ErrNotFound", err)
	}
}

func testMarkAllRead(t *testing.T, s store.Store) {
	owner, other := newID("user"), newID("user")
	now := time.Now().UTC().Truncate(time.Millisecond)
	for range 3 {
		addNotification(t, s, notification(owner, newID("case"), now))
	}
	addNotification(t, s, notification(other, newID("case"), now))
	if n, err := s.MarkAllNotificationsRead(t.Context(), owner, now); err != nil || n != 3 {
		t.Errorf("MarkAllNotificationsRead = %d, %v; want 3", n, err)
	}
	if c, _ := s.CountUnread(t.Context(), owner); c != 0 {
		t.Errorf("owner's unread = %d, want 0", c)
	}
	if c, _ := s.CountUnread(t.Context(), other); c != 1 {
		t.Errorf("another user's unread = %d, want 1 (untouched)", c)
	}
}

func testRecordSend(t *testing.T, s store.Store) {
	key := newID("key")
	if _, err := s.GetSend(t.Context(), key, store.ChannelEmail); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetSend before any = %v, want ErrNotFound", err)
	}
	at := time.Now().UTC().Truncate(time.Millisecond)
	first := store.NotificationSend{Key: key, Channel: store.ChannelEmail, Owner: "u", CaseID: "c", MessageID: "<a@x>", Outcome: store.SendSent, At: at}
	got, err := s.RecordSend(t.Context(), first)
	if err != nil || got.ID != store.SendID(key, store.ChannelEmail) {
		t.Fatalf("RecordSend = %+v, %v", got, err)
	}
	second := first
	second.MessageID, second.At = "<b@x>", at.Add(time.Minute)
	if got, err = s.RecordSend(t.Context(), second); err != nil || got.MessageID != "<a@x>" || !sameTime(got.At, at) {
		t.Errorf("RecordSend again = %+v, %v; want the first record", got, err)
	}
	read, err := s.GetSend(t.Context(), key, store.ChannelEmail)
	if err != nil || read.MessageID != "<a@x>" || read.Outcome != store.SendSent || read.Owner != "u" || read.CaseID != "c" {
		t.Errorf("GetSend = %+v, %v; want the first record", read, err)
	}
	if _, err := s.GetSend(t.Context(), key, store.ChannelApp); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetSend on another channel = %v, want ErrNotFound", err)
	}
}

func testEraseNotifications(t *testing.T, s store.Store) {
	owner, other := newID("user"), newID("user")
	held, free := newID("case"), newID("case")
	now := time.Now().UTC()
	for _, c := range []string{held, free} {
		n := notification(owner, c, now)
		addNotification(t, s, n)
		if _, err := s.RecordSend(t.Context(), store.NotificationSend{Key: n.Key, Channel: store.ChannelApp, Owner: owner, CaseID: c,
			MessageID: n.ID, Outcome: store.SendSent, At: now}); err != nil {
			t.Fatal(err)
		}
	}
	addNotification(t, s, notification(other, free, now))
	if _, err := s.UpdateNotificationSettings(t.Context(), owner, func(ns *store.NotificationSettings) error { ns.Language = "ro"; return nil }); err != nil {
		t.Fatal(err)
	}
	cases, err := s.NotifiedCases(t.Context(), owner)
	slices.Sort(cases)
	want := []string{held, free}
	slices.Sort(want)
	if err != nil || !slices.Equal(cases, want) {
		t.Errorf("NotifiedCases = %v, %v; want %v", cases, err, want)
	}
	if n, err := s.EraseNotifications(t.Context(), owner, []string{held}); err != nil || n != 2 {
		t.Errorf("EraseNotifications = %d, %v; want 2 (the free case's notification and send)", n, err)
	}
	if _, err := s.GetNotificationSettings(t.Context(), owner); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("settings after erasure = %v, want ErrNotFound", err)
	}
	left, _ := s.ListNotifications(t.Context(), owner, "", 10)
	if len(left) != 1 || left[0].CaseID != held {
		t.Errorf("notifications left = %+v, want the held case's alone", left)
	}
	if others, _ := s.ListNotifications(t.Context(), other, "", 10); len(others) != 1 {
		t.Errorf("another user's notifications = %d, want 1 (untouched)", len(others))
	}
}

func testEraseCaseNotifications(t *testing.T, s store.Store) {
	a, b := newID("user"), newID("user")
	caseID := newID("case")
	now := time.Now().UTC()
	n := notification(a, caseID, now)
	addNotification(t, s, n)
	addNotification(t, s, notification(b, caseID, now))
	addNotification(t, s, notification(a, newID("case"), now))
	if _, err := s.RecordSend(t.Context(), store.NotificationSend{Key: n.Key, Channel: store.ChannelEmail, Owner: a, CaseID: caseID,
		MessageID: "<m@x>", Outcome: store.SendSent, At: now}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.EraseCaseNotifications(t.Context(), caseID); err != nil || got != 3 {
		t.Errorf("EraseCaseNotifications = %d, %v; want 3", got, err)
	}
	if _, err := s.GetSend(t.Context(), n.Key, store.ChannelEmail); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the case's send after erasure = %v, want ErrNotFound", err)
	}
	if left, _ := s.ListNotifications(t.Context(), a, "", 10); len(left) != 1 || left[0].CaseID == caseID {
		t.Errorf("a's notifications left = %+v, want the other case's alone", left)
	}
}
