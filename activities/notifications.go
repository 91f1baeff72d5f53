package activities

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/notifytext"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Notifications tells users what happened in their cases, on the channels each
// chose: e-mail to a verified address, and the web app's list.
type Notifications struct {
	Store store.Notifications
	// Mail sends e-mails; nil when no mail server is configured, when the e-mail
	// channel sends nothing.
	Mail *mailer.Sender
	// DefaultLanguage is the language of a notification whose user and case chose
	// none.
	DefaultLanguage string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Notify sends n on each channel its user chose, at most once per channel: a channel
// whose send under n.Key is recorded is skipped, and when every channel was, the
// result is Duplicate. Each channel records its send after it sent; a crash between
// the two sends again, under the same Message-ID (e-mail) or notification ID (app).
// An address refused for good by the mail server is recorded as rejected and not
// tried again. A send is bounded by the mailer's timeouts and the activity's
// deadline; the workflow that notifies declares the retry policy.
func (a *Notifications) Notify(ctx context.Context, n schemas.Notification) (schemas.NotificationResult, error) {
	if n.Key == "" || n.Owner == "" || n.CaseID == "" {
		return schemas.NotificationResult{}, temporal.NewNonRetryableApplicationError("a notification needs a key, an owner and a case", schemas.ErrInvalidArgs, nil)
	}
	settings, err := store.SettingsOrDefaults(ctx, a.Store, n.Owner)
	if err != nil {
		return schemas.NotificationResult{}, err
	}
	lang := cmp.Or(settings.Language, n.Language, a.DefaultLanguage, "ro")
	loc, err := time.LoadLocation(cmp.Or(settings.TimeZone, notifytext.DefaultZone(lang)))
	if err != nil {
		loc = time.UTC // a zone stored valid that this binary no longer knows
	}
	text, err := notifytext.Render(lang, loc, n)
	if err != nil {
		return schemas.NotificationResult{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	}
	var res schemas.NotificationResult
	recorded := 0
	for _, ch := range settings.Channels {
		var sent bool
		switch ch {
		case store.ChannelApp:
			sent, err = a.toApp(ctx, n, text)
		case store.ChannelEmail:
			sent, err = a.byEmail(ctx, n, settings.Email, lang, loc, text)
		default:
			continue
		}
		if err != nil {
			return schemas.NotificationResult{}, err
		}
		if sent {
			res.Sent = append(res.Sent, ch)
		} else {
			recorded++
		}
	}
	res.Duplicate = len(res.Sent) == 0 && recorded > 0
	return res, nil
}

// AppNotificationID is the ID of the in-app notification sent under key.
func AppNotificationID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "n-" + hex.EncodeToString(sum[:16])
}

// toApp stores n in its user's list unless its send there is recorded, then records
// it; it reports whether it stored it now.
func (a *Notifications) toApp(ctx context.Context, n schemas.Notification, text notifytext.Text) (bool, error) {
	if done, err := a.recorded(ctx, n.Key, store.ChannelApp); done || err != nil {
		return false, err
	}
	id := AppNotificationID(n.Key)
	_, err := a.Store.AddNotification(ctx, store.InAppNotification{ID: id, Owner: n.Owner, Key: n.Key, Kind: n.Kind, CaseID: n.CaseID,
		DeadlineID: n.DeadlineID, Due: n.Due, Title: text.Subject, Body: text.Body, CreatedAt: a.now()})
	if err != nil {
		return false, fmt.Errorf("store in-app notification: %w", err)
	}
	return true, a.record(ctx, n, store.ChannelApp, id, store.SendSent, "")
}

// byEmail mails n to the verified address unless its send is recorded, there is no
// address or no mail server; it reports whether it sent it now.
func (a *Notifications) byEmail(ctx context.Context, n schemas.Notification, to, lang string, loc *time.Location, text notifytext.Text) (bool, error) {
	log := activity.GetLogger(ctx)
	if done, err := a.recorded(ctx, n.Key, store.ChannelEmail); done || err != nil {
		return false, err
	}
	if to == "" || a.Mail == nil {
		log.Warn("E-mail channel without a verified address or a mail server", "key", n.Key, "verified", to != "", "server", a.Mail != nil)
		return false, nil
	}
	id := a.Mail.MessageID(n.Key)
	err := a.Mail.Send(ctx, mailer.Message{To: to, Subject: text.Subject, Body: text.Body, MessageID: id, Date: a.now().In(loc), Language: lang})
	var refused *mailer.RejectedError
	if errors.As(err, &refused) {
		log.Warn("Mail server refused a notification", "key", n.Key, "error", err)
		return false, a.record(ctx, n, store.ChannelEmail, id, store.SendRejected, refused.Error())
	}
	if err != nil {
		return false, fmt.Errorf("send notification mail: %w", err)
	}
	return true, a.record(ctx, n, store.ChannelEmail, id, store.SendSent, "")
}

// recorded reports whether a send of key on channel is recorded.
func (a *Notifications) recorded(ctx context.Context, key, channel string) (bool, error) {
	_, err := a.Store.GetSend(ctx, key, channel)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read send record: %w", err)
	}
	return true, nil
}

// record records a send.
func (a *Notifications) record(ctx context.Context, n schemas.Notification, channel, messageID, outcome, detail string) error {
	_, err := a.Store.RecordSend(ctx, store.NotificationSend{Key: n.Key, Channel: channel, Owner: n.Owner, CaseID: n.CaseID,
		MessageID: messageID, Outcome: outcome, Detail: detail, At: a.now()})
	if err != nil {
		return fmt.Errorf("record send: %w", err)
	}
	return nil
}

func (a *Notifications) now() time.Time {
	if a.Now != nil {
		return a.Now().UTC()
	}
	return time.Now().UTC()
}
