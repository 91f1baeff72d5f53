package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Notification channels: where a user is told.
const (
	// ChannelEmail is e-mail to the user's verified address.
	ChannelEmail = "email"
	// ChannelApp is the web app's notification list.
	ChannelApp = "app"
)

// NotificationSettings are how one user (by OwnerID) is told: the channels they chose,
// their language and time zone, and their e-mail address. Email counts only once
// verified; an address waiting for its code is in Pending.
type NotificationSettings struct {
	Owner string `json:"owner"`
	// Channels are the channels the user chose, maybe none; a user who stored no
	// settings has ChannelApp alone (DefaultNotificationSettings).
	Channels []string `json:"channels"`
	// Language is ro, it or en; empty means each case's language.
	Language string `json:"language,omitempty"`
	// TimeZone is an IANA zone name; empty means the language's own (see
	// notifytext.DefaultZone).
	TimeZone string `json:"time_zone,omitempty"`
	// Email is the verified address (personal data: sealed at rest), empty for none;
	// EmailVerifiedAt when it was verified.
	Email           string    `json:"email,omitempty"`
	EmailVerifiedAt time.Time `json:"email_verified_at,omitzero"`
	// Pending is the address waiting to be verified, with its code's hash.
	Pending *EmailCode `json:"pending,omitempty"`
	// Version counts the writes, for UpdateNotificationSettings.
	Version   int64     `json:"version"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// EmailCode is a code sent to an address to verify it: the address (personal data:
// sealed at rest), the code's salted hash, when it expires and how many wrong codes
// were tried.
type EmailCode struct {
	Address  string    `json:"address"`
	Salt     string    `json:"salt"`
	Hash     string    `json:"hash"`
	Expires  time.Time `json:"expires"`
	Attempts int       `json:"attempts"`
}

// DefaultNotificationSettings are the settings of a user who stored none: the app
// channel, each case's language and the language's time zone.
func DefaultNotificationSettings(owner string) NotificationSettings {
	return NotificationSettings{Owner: owner, Channels: []string{ChannelApp}}
}

// SettingsOrDefaults reads owner's notification settings from s, or their defaults
// (DefaultNotificationSettings) when they stored none.
func SettingsOrDefaults(ctx context.Context, s Notifications, owner string) (NotificationSettings, error) {
	ns, err := s.GetNotificationSettings(ctx, owner)
	if errors.Is(err, ErrNotFound) {
		return DefaultNotificationSettings(owner), nil
	}
	if err != nil {
		return ns, fmt.Errorf("read notification settings: %w", err)
	}
	return ns, nil
}

// InAppNotification is one notification in a user's list in the web app. Its ID is
// derived from the notification's key, so that storing it twice keeps one. Its texts
// name no party.
type InAppNotification struct {
	ID         string    `json:"id"`
	Owner      string    `json:"owner"`
	Key        string    `json:"key"`
	Kind       string    `json:"kind"`
	CaseID     string    `json:"case_id"`
	DeadlineID string    `json:"deadline_id,omitempty"`
	Due        time.Time `json:"due,omitzero"`
	Title      string    `json:"title"`
	Body       string    `json:"body"`
	CreatedAt  time.Time `json:"created_at"`
	// ReadAt is when the user marked it read; zero while it is unread.
	ReadAt time.Time `json:"read_at,omitzero"`
}

// Outcomes of a NotificationSend.
const (
	// SendSent means the channel took the message: the mail server accepted it, or the
	// notification was stored in the user's list.
	SendSent = "sent"
	// SendRejected means the mail server refused the message for good (a 5xx answer),
	// so it is not tried again.
	SendRejected = "rejected"
)

// NotificationSend records one send of a notification on one channel. Its ID is
// SendID(Key, Channel): one record per key and channel, the first kept.
type NotificationSend struct {
	ID      string `json:"id"`
	Key     string `json:"key"`
	Channel string `json:"channel"`
	Owner   string `json:"owner"`
	CaseID  string `json:"case_id"`
	// MessageID is the e-mail's Message-ID, or the in-app notification's ID.
	MessageID string    `json:"message_id"`
	Outcome   string    `json:"outcome"`
	Detail    string    `json:"detail,omitempty"`
	At        time.Time `json:"at"`
}

// SendID names the record of a key's send on a channel.
func SendID(key, channel string) string { return channel + ":" + key }

// Notifications keeps each user's notification settings, in-app notifications and the
// record of every send.
type Notifications interface {
	// GetNotificationSettings returns a user's settings, or ErrNotFound when they
	// stored none.
	GetNotificationSettings(ctx context.Context, owner string) (NotificationSettings, error)
	// UpdateNotificationSettings reads a user's settings (DefaultNotificationSettings
	// when they stored none), lets change alter them, and stores the result unless
	// change fails, whose error it returns; a concurrent update makes it read and
	// change again, so no update is lost. It returns what it stored.
	UpdateNotificationSettings(ctx context.Context, owner string, change func(*NotificationSettings) error) (NotificationSettings, error)
	// AddNotification stores n unless a notification with its ID exists, and reports
	// whether it stored it.
	AddNotification(ctx context.Context, n InAppNotification) (bool, error)
	// ListNotifications returns a user's notifications, newest first, at most limit:
	// those after the one with ID after, or the newest when after is "". An after
	// that is not one of the user's is ErrNotFound.
	ListNotifications(ctx context.Context, owner, after string, limit int) ([]InAppNotification, error)
	// CountUnread counts a user's unread notifications.
	CountUnread(ctx context.Context, owner string) (int, error)
	// MarkNotificationRead marks one of a user's notifications read at a time, unless
	// it is read already; one that is not theirs is ErrNotFound.
	MarkNotificationRead(ctx context.Context, owner, id string, at time.Time) error
	// MarkAllNotificationsRead marks every unread notification of a user read, and
	// counts them.
	MarkAllNotificationsRead(ctx context.Context, owner string, at time.Time) (int, error)
	// GetSend returns the record of a key's send on a channel, or ErrNotFound.
	GetSend(ctx context.Context, key, channel string) (NotificationSend, error)
	// RecordSend stores s under SendID(s.Key, s.Channel) unless a record is there, and
	// returns the stored one: the first send's record is kept.
	RecordSend(ctx context.Context, s NotificationSend) (NotificationSend, error)
	// NotifiedCases returns the IDs of the cases a user's notifications and sends are
	// about, each once, in no order.
	NotifiedCases(ctx context.Context, owner string) ([]string, error)
	// EraseNotifications deletes a user's settings, and their notifications and
	// sends about cases other than those in keep, and counts the notifications and
	// sends it deleted.
	EraseNotifications(ctx context.Context, owner string, keep []string) (int, error)
	// EraseCaseNotifications deletes every user's notifications and sends about a case,
	// and counts them.
	EraseCaseNotifications(ctx context.Context, caseID string) (int, error)
}
