package firestore

import (
	"context"
	"errors"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// notificationSettingsData is a user's notification settings, under their OwnerID.
type notificationSettingsData struct {
	Channels        []string         `firestore:"channels"`
	Language        string           `firestore:"language"`
	TimeZone        string           `firestore:"time_zone"`
	Email           string           `firestore:"email"`
	EmailVerifiedAt time.Time        `firestore:"email_verified_at"`
	Pending         *store.EmailCode `firestore:"pending"`
	Version         int64            `firestore:"version"`
	UpdatedAt       time.Time        `firestore:"updated_at"`
}

// notificationData is one in-app notification; ID repeats the document's, for paging.
type notificationData struct {
	ID         string    `firestore:"id"`
	Owner      string    `firestore:"owner"`
	Key        string    `firestore:"key"`
	Kind       string    `firestore:"kind"`
	CaseID     string    `firestore:"case_id"`
	DeadlineID string    `firestore:"deadline_id"`
	Due        time.Time `firestore:"due"`
	Title      string    `firestore:"title"`
	Body       string    `firestore:"body"`
	CreatedAt  time.Time `firestore:"created_at"`
	// Unread is true until the user reads it: what CountUnread selects by.
	Unread bool      `firestore:"unread"`
	ReadAt time.Time `firestore:"read_at"`
}

func (d notificationData) notification() store.InAppNotification {
	n := store.InAppNotification{ID: d.ID, Owner: d.Owner, Key: d.Key, Kind: d.Kind, CaseID: d.CaseID,
		DeadlineID: d.DeadlineID, Due: d.Due, Title: d.Title, Body: d.Body, CreatedAt: d.CreatedAt}
	if !d.Unread {
		n.ReadAt = d.ReadAt
	}
	return n
}

// sendData is the record of one send, under store.SendID.
type sendData struct {
	Key       string    `firestore:"key"`
	Channel   string    `firestore:"channel"`
	Owner     string    `firestore:"owner"`
	CaseID    string    `firestore:"case_id"`
	MessageID string    `firestore:"message_id"`
	Outcome   string    `firestore:"outcome"`
	Detail    string    `firestore:"detail"`
	At        time.Time `firestore:"at"`
}

// GetNotificationSettings reads a user's settings.
func (s *Store) GetNotificationSettings(ctx context.Context, owner string) (store.NotificationSettings, error) {
	d, err := read[notificationSettingsData](ctx, nil, s.doc(NotificationSettingsCollection, owner), "notification settings of "+owner)
	if err != nil {
		return store.NotificationSettings{}, err
	}
	return settingsOf(owner, d), nil
}

func settingsOf(owner string, d notificationSettingsData) store.NotificationSettings {
	return store.NotificationSettings{Owner: owner, Channels: d.Channels, Language: d.Language, TimeZone: d.TimeZone,
		Email: d.Email, EmailVerifiedAt: d.EmailVerifiedAt, Pending: d.Pending, Version: d.Version, UpdatedAt: d.UpdatedAt}
}

// UpdateNotificationSettings reads, changes and writes the settings in a transaction.
func (s *Store) UpdateNotificationSettings(ctx context.Context, owner string, change func(*store.NotificationSettings) error) (store.NotificationSettings, error) {
	ref := s.doc(NotificationSettingsCollection, owner)
	var out store.NotificationSettings
	err := s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := read[notificationSettingsData](ctx, tx, ref, "notification settings of "+owner)
		cur := settingsOf(owner, d)
		if errors.Is(err, store.ErrNotFound) {
			cur, err = store.DefaultNotificationSettings(owner), nil
		}
		if err != nil {
			return err
		}
		next := cur
		if err := change(&next); err != nil {
			return err
		}
		next.Owner, next.Version, next.UpdatedAt = owner, cur.Version+1, time.Now().UTC().Truncate(time.Millisecond)
		out = next
		return tx.Set(ref, notificationSettingsData{Channels: next.Channels, Language: next.Language, TimeZone: next.TimeZone,
			Email: next.Email, EmailVerifiedAt: next.EmailVerifiedAt, Pending: next.Pending, Version: next.Version, UpdatedAt: next.UpdatedAt})
	})
	if err != nil {
		return store.NotificationSettings{}, err
	}
	return out, nil
}

// AddNotification creates n's document unless it exists.
func (s *Store) AddNotification(ctx context.Context, n store.InAppNotification) (bool, error) {
	_, err := s.doc(NotificationsCollection, n.ID).Create(ctx, notificationData{ID: n.ID, Owner: n.Owner, Key: n.Key, Kind: n.Kind,
		CaseID: n.CaseID, DeadlineID: n.DeadlineID, Due: n.Due.UTC(), Title: n.Title, Body: n.Body, CreatedAt: n.CreatedAt.UTC(),
		Unread: n.ReadAt.IsZero(), ReadAt: n.ReadAt.UTC()})
	if exists(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store notification: %w", err)
	}
	return true, nil
}

// ListNotifications pages by (created_at, id), newest first.
func (s *Store) ListNotifications(ctx context.Context, owner, after string, limit int) ([]store.InAppNotification, error) {
	base := s.client.Collection(NotificationsCollection).Where("owner", "==", owner)
	queries := []fs.Query{base}
	if after != "" {
		from, err := read[notificationData](ctx, nil, s.doc(NotificationsCollection, after), "notification "+after)
		if err == nil && from.Owner != owner {
			err = fmt.Errorf("notification %s: %w", after, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		queries = []fs.Query{
			base.Where("created_at", "==", from.CreatedAt).Where("id", "<", after),
			base.Where("created_at", "<", from.CreatedAt),
		}
	}
	out := []store.InAppNotification{}
	for _, q := range queries {
		if len(out) >= limit {
			break
		}
		docs, err := all[notificationData](ctx, q.OrderBy("created_at", fs.Desc).OrderBy("id", fs.Desc).Limit(limit-len(out)))
		if err != nil {
			return nil, fmt.Errorf("list notifications: %w", err)
		}
		for _, d := range docs {
			out = append(out, d.notification())
		}
	}
	return out, nil
}

// CountUnread counts the user's notifications still marked unread.
func (s *Store) CountUnread(ctx context.Context, owner string) (int, error) {
	n, err := count(ctx, s.client.Collection(NotificationsCollection).Where("owner", "==", owner).Where("unread", "==", true))
	if err != nil {
		return 0, fmt.Errorf("count unread notifications: %w", err)
	}
	return n, nil
}

// MarkNotificationRead marks one of the user's notifications read in a transaction,
// keeping the first read time.
func (s *Store) MarkNotificationRead(ctx context.Context, owner, id string, at time.Time) error {
	ref := s.doc(NotificationsCollection, id)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		d, err := read[notificationData](ctx, tx, ref, "notification "+id)
		if err == nil && d.Owner != owner {
			err = fmt.Errorf("notification %s: %w", id, store.ErrNotFound)
		}
		if err != nil || !d.Unread {
			return err
		}
		return tx.Update(ref, []fs.Update{{Path: "unread", Value: false}, {Path: "read_at", Value: at.UTC()}})
	})
}

// MarkAllNotificationsRead marks each of the user's unread notifications read.
func (s *Store) MarkAllNotificationsRead(ctx context.Context, owner string, at time.Time) (int, error) {
	snaps, err := s.client.Collection(NotificationsCollection).Where("owner", "==", owner).Where("unread", "==", true).
		Documents(ctx).GetAll()
	if err != nil {
		return 0, fmt.Errorf("list unread notifications: %w", err)
	}
	for _, snap := range snaps {
		if err := s.MarkNotificationRead(ctx, owner, snap.Ref.ID, at); err != nil && !errors.Is(err, store.ErrNotFound) {
			return 0, err
		}
	}
	return len(snaps), nil
}

// GetSend reads a send's record.
func (s *Store) GetSend(ctx context.Context, key, channel string) (store.NotificationSend, error) {
	id := store.SendID(key, channel)
	d, err := read[sendData](ctx, nil, s.doc(NotificationSendsCollection, id), "send "+id)
	if err != nil {
		return store.NotificationSend{}, err
	}
	return store.NotificationSend{ID: id, Key: d.Key, Channel: d.Channel, Owner: d.Owner, CaseID: d.CaseID,
		MessageID: d.MessageID, Outcome: d.Outcome, Detail: d.Detail, At: d.At}, nil
}

// RecordSend creates the record's document unless it exists, and returns the stored one.
func (s *Store) RecordSend(ctx context.Context, r store.NotificationSend) (store.NotificationSend, error) {
	r.ID, r.At = store.SendID(r.Key, r.Channel), r.At.UTC()
	_, err := s.doc(NotificationSendsCollection, r.ID).Create(ctx, sendData{Key: r.Key, Channel: r.Channel, Owner: r.Owner,
		CaseID: r.CaseID, MessageID: r.MessageID, Outcome: r.Outcome, Detail: r.Detail, At: r.At})
	if exists(err) {
		return s.GetSend(ctx, r.Key, r.Channel)
	}
	if err != nil {
		return store.NotificationSend{}, fmt.Errorf("record send: %w", err)
	}
	return r, nil
}

// NotifiedCases reads the case IDs of the user's notifications and sends.
func (s *Store) NotifiedCases(ctx context.Context, owner string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, coll := range []string{NotificationsCollection, NotificationSendsCollection} {
		snaps, err := s.client.Collection(coll).Where("owner", "==", owner).Select("case_id").Documents(ctx).GetAll()
		if err != nil {
			return nil, fmt.Errorf("cases of %s: %w", coll, err)
		}
		for _, snap := range snaps {
			if id, _ := snap.Data()["case_id"].(string); id != "" && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// EraseNotifications deletes the user's settings, and their notifications and sends
// about cases not in keep.
func (s *Store) EraseNotifications(ctx context.Context, owner string, keep []string) (int, error) {
	if _, err := s.doc(NotificationSettingsCollection, owner).Delete(ctx); err != nil && !notFound(err) {
		return 0, fmt.Errorf("erase notification settings: %w", err)
	}
	kept := map[string]bool{}
	for _, id := range keep {
		kept[id] = true
	}
	return s.deleteNotifications(ctx, "owner", owner, func(caseID string) bool { return !kept[caseID] })
}

// EraseCaseNotifications deletes the notifications and sends about a case.
func (s *Store) EraseCaseNotifications(ctx context.Context, caseID string) (int, error) {
	return s.deleteNotifications(ctx, "case_id", caseID, func(string) bool { return true })
}

// deleteNotifications deletes the notifications and sends whose field is value and
// whose case erase accepts.
func (s *Store) deleteNotifications(ctx context.Context, field, value string, erase func(caseID string) bool) (int, error) {
	n := 0
	for _, coll := range []string{NotificationsCollection, NotificationSendsCollection} {
		snaps, err := s.client.Collection(coll).Where(field, "==", value).Documents(ctx).GetAll()
		if err != nil {
			return n, fmt.Errorf("list %s: %w", coll, err)
		}
		for _, snap := range snaps {
			caseID, _ := snap.Data()["case_id"].(string)
			if !erase(caseID) {
				continue
			}
			if _, err := snap.Ref.Delete(ctx); err != nil && !notFound(err) {
				return n, fmt.Errorf("erase %s: %w", snap.Ref.Path, err)
			}
			n++
		}
	}
	return n, nil
}
