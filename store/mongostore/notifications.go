package mongostore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// notificationSettingsDoc is a user's notification settings, under their OwnerID.
type notificationSettingsDoc struct {
	ID              string           `bson:"_id"`
	Channels        []string         `bson:"channels"`
	Language        string           `bson:"language,omitempty"`
	TimeZone        string           `bson:"time_zone,omitempty"`
	Email           string           `bson:"email,omitempty"`
	EmailVerifiedAt time.Time        `bson:"email_verified_at,omitempty"`
	Pending         *store.EmailCode `bson:"pending,omitempty"`
	Version         int64            `bson:"version"`
	UpdatedAt       time.Time        `bson:"updated_at"`
}

func (d notificationSettingsDoc) settings() store.NotificationSettings {
	return store.NotificationSettings{Owner: d.ID, Channels: d.Channels, Language: d.Language, TimeZone: d.TimeZone,
		Email: d.Email, EmailVerifiedAt: d.EmailVerifiedAt, Pending: d.Pending, Version: d.Version, UpdatedAt: d.UpdatedAt}
}

// notificationDoc is one in-app notification.
type notificationDoc struct {
	ID         string    `bson:"_id"`
	Owner      string    `bson:"owner"`
	Key        string    `bson:"key"`
	Kind       string    `bson:"kind"`
	CaseID     string    `bson:"case_id"`
	DeadlineID string    `bson:"deadline_id,omitempty"`
	Due        time.Time `bson:"due,omitempty"`
	Title      string    `bson:"title"`
	Body       string    `bson:"body"`
	CreatedAt  time.Time `bson:"created_at"`
	// Unread is true until the user reads it: what CountUnread selects by.
	Unread bool      `bson:"unread"`
	ReadAt time.Time `bson:"read_at,omitempty"`
}

func (d notificationDoc) notification() store.InAppNotification {
	return store.InAppNotification{ID: d.ID, Owner: d.Owner, Key: d.Key, Kind: d.Kind, CaseID: d.CaseID,
		DeadlineID: d.DeadlineID, Due: d.Due, Title: d.Title, Body: d.Body, CreatedAt: d.CreatedAt, ReadAt: d.ReadAt}
}

// sendDoc is the record of one send, under store.SendID.
type sendDoc struct {
	ID        string    `bson:"_id"`
	Key       string    `bson:"key"`
	Channel   string    `bson:"channel"`
	Owner     string    `bson:"owner"`
	CaseID    string    `bson:"case_id"`
	MessageID string    `bson:"message_id"`
	Outcome   string    `bson:"outcome"`
	Detail    string    `bson:"detail,omitempty"`
	At        time.Time `bson:"at"`
}

func (d sendDoc) send() store.NotificationSend {
	return store.NotificationSend{ID: d.ID, Key: d.Key, Channel: d.Channel, Owner: d.Owner, CaseID: d.CaseID,
		MessageID: d.MessageID, Outcome: d.Outcome, Detail: d.Detail, At: d.At}
}

// GetNotificationSettings reads a user's settings.
func (s *Store) GetNotificationSettings(ctx context.Context, owner string) (store.NotificationSettings, error) {
	d, err := findOne[notificationSettingsDoc](ctx, s.notifySettings, bson.M{"_id": owner}, "notification settings of "+owner)
	if err != nil {
		return store.NotificationSettings{}, err
	}
	return d.settings(), nil
}

// maxSettingsTries bounds how often UpdateNotificationSettings reads again after a
// concurrent write.
const maxSettingsTries = 16

// UpdateNotificationSettings changes the settings by compare-and-swap on their version:
// the first write inserts (a concurrent insert is a duplicate key), later ones replace
// the version they read. This process's writers also take turns (see lock), since
// FerretDB does not compare and swap atomically.
func (s *Store) UpdateNotificationSettings(ctx context.Context, owner string, change func(*store.NotificationSettings) error) (store.NotificationSettings, error) {
	defer s.lock("notification-settings:" + owner)()
	for range maxSettingsTries {
		cur, err := s.GetNotificationSettings(ctx, owner)
		if errors.Is(err, store.ErrNotFound) {
			cur, err = store.DefaultNotificationSettings(owner), nil
		}
		if err != nil {
			return store.NotificationSettings{}, err
		}
		next := cur
		if err := change(&next); err != nil {
			return store.NotificationSettings{}, err
		}
		next.Owner, next.Version, next.UpdatedAt = owner, cur.Version+1, time.Now().UTC().Truncate(time.Millisecond)
		d := notificationSettingsDoc{ID: owner, Channels: next.Channels, Language: next.Language, TimeZone: next.TimeZone,
			Email: next.Email, EmailVerifiedAt: next.EmailVerifiedAt, Pending: next.Pending, Version: next.Version, UpdatedAt: next.UpdatedAt}
		if cur.Version == 0 {
			_, err = s.notifySettings.InsertOne(ctx, d)
			if mongo.IsDuplicateKeyError(err) {
				continue
			}
			if err != nil {
				return store.NotificationSettings{}, fmt.Errorf("store notification settings: %w", err)
			}
			return next, nil
		}
		res, err := s.notifySettings.ReplaceOne(ctx, bson.M{"_id": owner, "version": cur.Version}, d)
		if err != nil {
			return store.NotificationSettings{}, fmt.Errorf("store notification settings: %w", err)
		}
		if res.MatchedCount == 1 {
			return next, nil
		}
	}
	return store.NotificationSettings{}, fmt.Errorf("notification settings of %s: %w", owner, store.ErrVersionConflict)
}

// AddNotification inserts n unless its ID is stored.
func (s *Store) AddNotification(ctx context.Context, n store.InAppNotification) (bool, error) {
	_, err := s.notifications.InsertOne(ctx, notificationDoc{ID: n.ID, Owner: n.Owner, Key: n.Key, Kind: n.Kind, CaseID: n.CaseID,
		DeadlineID: n.DeadlineID, Due: n.Due.UTC(), Title: n.Title, Body: n.Body, CreatedAt: n.CreatedAt.UTC(),
		Unread: n.ReadAt.IsZero(), ReadAt: n.ReadAt.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store notification: %w", err)
	}
	return true, nil
}

// ListNotifications pages by (created_at, _id), newest first.
func (s *Store) ListNotifications(ctx context.Context, owner, after string, limit int) ([]store.InAppNotification, error) {
	filter := bson.M{"owner": owner}
	if after != "" {
		from, err := findOne[notificationDoc](ctx, s.notifications, bson.M{"_id": after, "owner": owner}, "notification "+after)
		if err != nil {
			return nil, err
		}
		filter["$or"] = bson.A{
			bson.M{"created_at": bson.M{"$lt": from.CreatedAt}},
			bson.M{"created_at": from.CreatedAt, "_id": bson.M{"$lt": after}},
		}
	}
	opts := options.Find().SetSort(bson.D{{Key: "created_at", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(int64(limit))
	docs, err := findAll[notificationDoc](ctx, s.notifications, filter, "notifications", opts)
	if err != nil {
		return nil, err
	}
	out := make([]store.InAppNotification, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.notification())
	}
	return out, nil
}

// CountUnread counts the user's notifications still marked unread.
func (s *Store) CountUnread(ctx context.Context, owner string) (int, error) {
	n, err := s.notifications.CountDocuments(ctx, bson.M{"owner": owner, "unread": true})
	if err != nil {
		return 0, fmt.Errorf("count unread notifications: %w", err)
	}
	return int(n), nil
}

// MarkNotificationRead marks one of the user's notifications read if it is unread
// (the filter keeps the first read time), and otherwise finds whether it is theirs.
func (s *Store) MarkNotificationRead(ctx context.Context, owner, id string, at time.Time) error {
	res, err := s.notifications.UpdateOne(ctx, bson.M{"_id": id, "owner": owner, "unread": true},
		bson.M{"$set": bson.M{"read_at": at.UTC(), "unread": false}})
	if err != nil {
		return fmt.Errorf("mark notification read: %w", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	_, err = findOne[notificationDoc](ctx, s.notifications, bson.M{"_id": id, "owner": owner}, "notification "+id)
	return err
}

// MarkAllNotificationsRead marks the user's unread notifications read.
func (s *Store) MarkAllNotificationsRead(ctx context.Context, owner string, at time.Time) (int, error) {
	res, err := s.notifications.UpdateMany(ctx, bson.M{"owner": owner, "unread": true},
		bson.M{"$set": bson.M{"read_at": at.UTC(), "unread": false}})
	if err != nil {
		return 0, fmt.Errorf("mark notifications read: %w", err)
	}
	return int(res.ModifiedCount), nil
}

// GetSend reads a send's record.
func (s *Store) GetSend(ctx context.Context, key, channel string) (store.NotificationSend, error) {
	id := store.SendID(key, channel)
	d, err := findOne[sendDoc](ctx, s.sends, bson.M{"_id": id}, "send "+id)
	if err != nil {
		return store.NotificationSend{}, err
	}
	return d.send(), nil
}

// RecordSend inserts the record unless one is stored, and returns the stored one.
func (s *Store) RecordSend(ctx context.Context, r store.NotificationSend) (store.NotificationSend, error) {
	r.ID, r.At = store.SendID(r.Key, r.Channel), r.At.UTC()
	_, err := s.sends.InsertOne(ctx, sendDoc{ID: r.ID, Key: r.Key, Channel: r.Channel, Owner: r.Owner, CaseID: r.CaseID,
		MessageID: r.MessageID, Outcome: r.Outcome, Detail: r.Detail, At: r.At})
	if mongo.IsDuplicateKeyError(err) {
		return s.GetSend(ctx, r.Key, r.Channel)
	}
	if err != nil {
		return store.NotificationSend{}, fmt.Errorf("record send: %w", err)
	}
	return r, nil
}

// NotifiedCases reads the case IDs of the user's notifications and sends (FerretDB's
// distinct does not decode, so they are found and deduplicated here).
func (s *Store) NotifiedCases(ctx context.Context, owner string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, coll := range []*mongo.Collection{s.notifications, s.sends} {
		docs, err := findAll[struct {
			CaseID string `bson:"case_id"`
		}](ctx, coll, bson.M{"owner": owner}, coll.Name(), options.Find().SetProjection(bson.M{"case_id": 1}))
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if !seen[d.CaseID] {
				seen[d.CaseID] = true
				out = append(out, d.CaseID)
			}
		}
	}
	return out, nil
}

// EraseNotifications deletes the user's settings, and their notifications and sends
// about cases not in keep.
func (s *Store) EraseNotifications(ctx context.Context, owner string, keep []string) (int, error) {
	if _, err := s.notifySettings.DeleteOne(ctx, bson.M{"_id": owner}); err != nil {
		return 0, fmt.Errorf("erase notification settings: %w", err)
	}
	filter := bson.M{"owner": owner}
	if len(keep) > 0 {
		filter["case_id"] = bson.M{"$nin": keep}
	}
	return s.deleteNotifications(ctx, filter)
}

// EraseCaseNotifications deletes the notifications and sends about a case.
func (s *Store) EraseCaseNotifications(ctx context.Context, caseID string) (int, error) {
	return s.deleteNotifications(ctx, bson.M{"case_id": caseID})
}

// deleteNotifications deletes the notifications and sends filter selects.
func (s *Store) deleteNotifications(ctx context.Context, filter bson.M) (int, error) {
	n := 0
	for _, coll := range []*mongo.Collection{s.notifications, s.sends} {
		res, err := coll.DeleteMany(ctx, filter)
		if err != nil {
			return n, fmt.Errorf("erase %s: %w", coll.Name(), err)
		}
		n += int(res.DeletedCount)
	}
	return n, nil
}
