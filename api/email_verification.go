package api

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/mail"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/notifytext"
	"github.com/lexflow/lexflow/store"
)

// E-mail verification codes: six digits, valid for codeTTL, void after maxCodeAttempts
// wrong tries; a new one is sent at most once per codeResendAfter.
const (
	codeDigits      = 6
	codeTTL         = 15 * time.Minute
	maxCodeAttempts = 5
	codeResendAfter = time.Minute
	maxEmailLength  = 254
)

// EmailRequest is the body of PUT /v1/me/notifications/email.
type EmailRequest struct {
	Email string `json:"email"`
}

// CodeRequest is the body of POST /v1/me/notifications/email/verify.
type CodeRequest struct {
	Code string `json:"code"`
}

// putEmail sends a verification code to the address the caller gave, which waits as
// pending until the code comes back; the verified address, if any, stays until then.
// Answered 202 with the settings.
func (h *handlers) putEmail(c echo.Context) error {
	if h.Mail == nil {
		return problemf(errInvalidInput, "this server sends no e-mail (no mail server is configured)")
	}
	var req EmailRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	addr, err := mail.ParseAddress(req.Email)
	if err != nil || addr.Address != req.Email || addr.Name != "" || len(req.Email) > maxEmailLength {
		return problemf(errInvalidInput, "email is a bare address such as ana@example.com")
	}
	code, err := newCode()
	if err != nil {
		return err
	}
	salt := rand.Text()
	now := h.now().UTC()
	owner := me(c)
	ctx := c.Request().Context()
	var refusal error
	ns, err := h.Store.UpdateNotificationSettings(ctx, owner, func(ns *store.NotificationSettings) error {
		if p := ns.Pending; p != nil && now.Before(p.Expires.Add(-codeTTL+codeResendAfter)) {
			refusal = tooMany(fmt.Sprintf("a code was sent less than %s ago", codeResendAfter), p.Expires.Add(-codeTTL+codeResendAfter).Sub(now))
			return refusal
		}
		ns.Pending = &store.EmailCode{Address: addr.Address, Salt: salt, Hash: codeHash(salt, owner, code), Expires: now.Add(codeTTL)}
		return nil
	})
	if refusal != nil {
		return refusal
	}
	if err != nil {
		return fmt.Errorf("%w: store the code: %w", errUnavailable, err)
	}
	text, err := notifytext.Verification(cmp.Or(ns.Language, h.DefaultLanguage), code, codeTTL)
	if err != nil {
		return err
	}
	err = h.Mail.Send(ctx, mailer.Message{To: addr.Address, Subject: text.Subject, Body: text.Body,
		MessageID: h.Mail.MessageID("verify:" + owner + ":" + salt), Date: now, Language: cmp.Or(ns.Language, h.DefaultLanguage)})
	var rejected *mailer.RejectedError
	if errors.As(err, &rejected) {
		h.dropCode(c, salt)
		return problemf(errInvalidInput, "the mail server refused the address: "+rejected.Err.Msg)
	}
	if err != nil {
		h.dropCode(c, salt)
		return fmt.Errorf("%w: send the code: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusAccepted, h.settingsView(ns))
}

// dropCode forgets the code made with salt, which could not be sent, so that another
// can be asked for at once; a failure leaves it to expire.
func (h *handlers) dropCode(c echo.Context, salt string) {
	_, err := h.Store.UpdateNotificationSettings(c.Request().Context(), me(c), func(ns *store.NotificationSettings) error {
		if ns.Pending != nil && ns.Pending.Salt == salt {
			ns.Pending = nil
		}
		return nil
	})
	if err != nil {
		h.Log.Warn("Verification code not dropped", "error", err)
	}
}

// verifyEmail takes the code sent to the pending address: the right one, in time and
// within the attempts, makes it the verified address. A wrong one counts an attempt;
// the last attempt, or an expired code, voids it.
func (h *handlers) verifyEmail(c echo.Context) error {
	var req CodeRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	now, owner := h.now().UTC(), me(c)
	var outcome error
	ns, err := h.Store.UpdateNotificationSettings(c.Request().Context(), owner, func(ns *store.NotificationSettings) error {
		p := ns.Pending
		switch {
		case p == nil:
			outcome = problemf(errConflict, "no code is waiting: ask for one with PUT /v1/me/notifications/email")
		case !now.Before(p.Expires):
			ns.Pending = nil
			outcome = problemf(errInvalidInput, "the code expired: ask for another")
		case subtle.ConstantTimeCompare([]byte(codeHash(p.Salt, owner, req.Code)), []byte(p.Hash)) != 1:
			next := *p
			next.Attempts++
			ns.Pending = &next
			if left := maxCodeAttempts - next.Attempts; left > 0 {
				outcome = problemf(errInvalidInput, fmt.Sprintf("wrong code: %d attempts left", left))
			} else {
				ns.Pending = nil
				outcome = problemf(errInvalidInput, "wrong code, and too many: ask for another")
			}
		default:
			ns.Email, ns.EmailVerifiedAt, ns.Pending = p.Address, now, nil
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: store the verification: %w", errUnavailable, err)
	}
	if outcome != nil {
		return outcome
	}
	return c.JSON(http.StatusOK, h.settingsView(ns))
}

// deleteEmail forgets the caller's addresses, verified and pending, and turns the
// e-mail channel off.
func (h *handlers) deleteEmail(c echo.Context) error {
	ns, err := h.Store.UpdateNotificationSettings(c.Request().Context(), me(c), func(ns *store.NotificationSettings) error {
		ns.Email, ns.EmailVerifiedAt, ns.Pending = "", time.Time{}, nil
		channels := []string{}
		for _, ch := range ns.Channels {
			if ch != store.ChannelEmail {
				channels = append(channels, ch)
			}
		}
		ns.Channels = channels
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: forget the e-mail address: %w", errUnavailable, err)
	}
	return c.JSON(http.StatusOK, h.settingsView(ns))
}

// newCode returns a random code of codeDigits digits.
func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%0*d", codeDigits, n.Int64()), nil
}

// codeHash is what the store keeps of a code: a SHA-256 of a random salt, the owner
// and the code.
func codeHash(salt, owner, code string) string {
	sum := sha256.Sum256([]byte(salt + "\x00" + owner + "\x00" + code))
	return hex.EncodeToString(sum[:])
}
