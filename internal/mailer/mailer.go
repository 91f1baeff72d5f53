// Package mailer sends Lexflow's e-mails over SMTP: STARTTLS (required, except to a
// loopback server), AUTH PLAIN, every step bounded by a deadline, and a Message-ID
// that a caller derives from the message's own key so that copies of one message
// share it.
package mailer

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strings"
	"time"
)

// Default bounds of a send.
const (
	// DefaultDialTimeout bounds connecting to the server.
	DefaultDialTimeout = 10 * time.Second
	// DefaultSendTimeout bounds a whole send, from the greeting to QUIT.
	DefaultSendTimeout = 30 * time.Second
)

// Config is how to reach the mail server and whom mails are from.
type Config struct {
	// Addr is the server's host:port (submission, usually port 587).
	Addr string
	// User and Password authenticate with AUTH PLAIN; an empty User sends without
	// authenticating.
	User, Password string
	// From is the sender's address, optionally with a name ("Lexflow
	// <notify@example.com>"); its domain names the Message-IDs.
	From string
	// DialTimeout and SendTimeout bound a send (zero: the defaults).
	DialTimeout, SendTimeout time.Duration
	// TLS is the STARTTLS configuration; nil trusts the system's roots for Addr's
	// host. Tests set RootCAs to trust their server's certificate.
	TLS *tls.Config
}

// Sender sends mails as its Config says.
type Sender struct {
	cfg    Config
	from   *mail.Address
	domain string
	host   string
}

// New checks cfg and returns its Sender.
func New(cfg Config) (*Sender, error) {
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("mail server address %q: %w", cfg.Addr, err)
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail sender %q: %w", cfg.From, err)
	}
	_, domain, _ := strings.Cut(from.Address, "@")
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	if cfg.SendTimeout <= 0 {
		cfg.SendTimeout = DefaultSendTimeout
	}
	return &Sender{cfg: cfg, from: from, domain: domain, host: host}, nil
}

// MessageID is the Message-ID of the message named key: a hash of the key at the
// sender's domain, the same for every copy sent under key.
func (s *Sender) MessageID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "<" + hex.EncodeToString(sum[:16]) + "@" + s.domain + ">"
}

// Message is one plain-text mail.
type Message struct {
	To        string
	Subject   string
	Body      string
	MessageID string
	Date      time.Time
	// Language is the Content-Language (ro, it, en).
	Language string
}

// RejectedError is the server's permanent refusal (a 5xx reply): sending again
// would be refused again.
type RejectedError struct{ Err *textproto.Error }

func (e *RejectedError) Error() string { return "mail server refused the message: " + e.Err.Error() }
func (e *RejectedError) Unwrap() error { return e.Err }

// ErrInsecure means the server offers no STARTTLS and is not on loopback, so
// nothing is sent to it in clear.
var ErrInsecure = errors.New("mail server offers no STARTTLS")

// Send sends m, within SendTimeout and ctx's deadline. A 5xx reply is a
// *RejectedError; any other failure may pass if tried again.
func (s *Sender) Send(ctx context.Context, m Message) error {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return fmt.Errorf("recipient %q: %w", m.To, err)
	}
	msg, err := s.compose(to, m)
	if err != nil {
		return err
	}
	dialer := net.Dialer{Timeout: s.cfg.DialTimeout}
	conn, err := dialer.DialContext(ctx, "tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("connect to mail server: %w", err)
	}
	defer conn.Close()
	deadline := time.Now().Add(s.cfg.SendTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	return rejected(s.converse(conn, to.Address, msg))
}

// converse speaks SMTP on conn: STARTTLS, AUTH, one message, QUIT.
func (s *Sender) converse(conn net.Conn, to string, msg []byte) error {
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		return fmt.Errorf("mail server greeting: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok {
		cfg := &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
		if s.cfg.TLS != nil {
			cfg = s.cfg.TLS.Clone()
			if cfg.ServerName == "" {
				cfg.ServerName = s.host
			}
		}
		if err := c.StartTLS(cfg); err != nil {
			return fmt.Errorf("STARTTLS: %w", err)
		}
	} else if !loopback(s.host) {
		return ErrInsecure
	}
	if s.cfg.User != "" {
		if err := c.Auth(smtp.PlainAuth("", s.cfg.User, s.cfg.Password, s.host)); err != nil {
			return fmt.Errorf("AUTH PLAIN: %w", err)
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return fmt.Errorf("MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("DATA: %w", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("end of message: %w", err)
	}
	return c.Quit()
}

// rejected turns a 5xx reply in err into a *RejectedError.
func rejected(err error) error {
	var tp *textproto.Error
	if errors.As(err, &tp) && tp.Code >= 500 && tp.Code < 600 {
		return &RejectedError{Err: tp}
	}
	return err
}

// loopback reports whether host is a loopback name or address.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// compose writes m's headers and quoted-printable body, which ends with a line break. A header value with a line
// break is refused: it would add headers of its own.
func (s *Sender) compose(to *mail.Address, m Message) ([]byte, error) {
	for _, v := range []string{m.Subject, m.MessageID, m.Language} {
		if strings.ContainsAny(v, "\r\n") {
			return nil, errors.New("a mail header holds a line break")
		}
	}
	var b strings.Builder
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", s.from.String())
	header("To", to.String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", m.Date.Format(time.RFC1123Z))
	header("Message-ID", m.MessageID)
	if m.Language != "" {
		header("Content-Language", m.Language)
	}
	header("Auto-Submitted", "auto-generated")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	body := strings.TrimSuffix(m.Body, "\n") + "\n"
	if _, err := qp.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n"))); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
