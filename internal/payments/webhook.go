package payments

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header that carries a webhook's signature.
const SignatureHeader = "Stripe-Signature"

// Tolerance is how far a webhook's signed time may be from now.
const Tolerance = 5 * time.Minute

// Reasons a webhook is refused; each wraps ErrSignature.
var (
	ErrSignature = errors.New("webhook signature refused")
	errNoHeader  = fmt.Errorf("%w: no %s header", ErrSignature, SignatureHeader)
	errBadHeader = fmt.Errorf("%w: the header is not t=<unix time>,v1=<hex>", ErrSignature)
	errNoMatch   = fmt.Errorf("%w: no v1 signature matches the payload", ErrSignature)
	errStale     = fmt.Errorf("%w: the signed time is more than %v from now", ErrSignature, Tolerance)
)

// Sign returns the signature header of payload sent at t, as Stripe writes it:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by secret>".
func Sign(payload, secret []byte, t time.Time) string {
	return fmt.Sprintf("t=%d,v1=%s", t.Unix(), hex.EncodeToString(mac(payload, secret, t.Unix())))
}

// Verify checks a webhook's signature header against payload and secret, as Stripe's
// libraries do: one of its v1 signatures must match, and its time must be within
// Tolerance of now, before or after. Every failure wraps ErrSignature.
func Verify(payload []byte, header string, secret []byte, now time.Time) error {
	sig, err := ParseSignature(header, now)
	if err != nil {
		return err
	}
	return sig.Verify(payload, secret)
}

// Signature is a webhook's signature header, read: its signed time and its v1
// signatures.
type Signature struct {
	t    int64
	sigs [][]byte
}

// ParseSignature reads a webhook's signature header and checks its time, before
// anything of the body is read: a header that is missing, malformed, or signed more
// than Tolerance from now, before or after, is refused. Every failure wraps
// ErrSignature.
func ParseSignature(header string, now time.Time) (Signature, error) {
	if header == "" {
		return Signature{}, errNoHeader
	}
	if len(header) > 4096 {
		return Signature{}, errBadHeader
	}
	s := Signature{t: -1}
	for part := range strings.SplitSeq(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Signature{}, errBadHeader
		}
		switch k {
		case "t":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return Signature{}, errBadHeader
			}
			s.t = n
		case "v1":
			if sig, err := hex.DecodeString(v); err == nil && len(sig) == sha256.Size {
				s.sigs = append(s.sigs, sig)
			}
		}
	}
	if s.t < 0 || len(s.sigs) == 0 {
		return Signature{}, errBadHeader
	}
	if d := now.Sub(time.Unix(s.t, 0)); d > Tolerance || d < -Tolerance {
		return Signature{}, errStale
	}
	return s, nil
}

// Verify checks that one of the signatures is payload's, signed with secret at the
// signed time; the failure wraps ErrSignature.
func (s Signature) Verify(payload, secret []byte) error {
	want := mac(payload, secret, s.t)
	matched := false
	for _, sig := range s.sigs {
		matched = hmac.Equal(sig, want) || matched
	}
	if !matched {
		return errNoMatch
	}
	return nil
}

func mac(payload, secret []byte, ts int64) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(strconv.FormatInt(ts, 10)))
	m.Write([]byte("."))
	m.Write(payload)
	return m.Sum(nil)
}
