// Package mailtest runs an SMTP server in-process on loopback for tests (and only
// tests: the product's binary never imports it): it offers
// STARTTLS with a self-signed certificate that the returned TLS configuration trusts,
// requires AUTH PLAIN (over TLS only) with one user, and keeps every message it
// accepts, parsed, for the test to read.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// User and Password are the only credentials the server accepts.
const (
	User     = "lexflow"
	Password = "mailtest-password"
)

// Received is one message the server accepted.
type Received struct {
	From string
	To   []string
	// Header is the message's header; Subject is its decoded Subject.
	Header  mail.Header
	Subject string
	// Body is the decoded body.
	Body string
	// TLS reports whether the message came over STARTTLS.
	TLS bool
}

// Server is a running server.
type Server struct {
	// Addr is its loopback host:port.
	Addr string
	// TLS is a client configuration that trusts the server's certificate, and CA
	// that certificate in PEM, for a process that reads it from a file.
	TLS *tls.Config
	CA  []byte

	srv *smtp.Server

	mu       sync.Mutex
	received []Received
	// arrived is closed, and replaced, when a message arrives: every waiter wakes.
	arrived chan struct{}
	// refuse, when set, is the error every RCPT is refused with.
	refuse *smtp.SMTPError
}

// Start starts a server on loopback, stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := Listen()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Listen starts a server on loopback, until Close.
func Listen() (*Server, error) {
	cert, pool, pemCA, err := selfSigned()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: ln.Addr().String(), TLS: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}, CA: pemCA,
		arrived: make(chan struct{})}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "127.0.0.1"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 1 << 20
	s.srv = srv
	go func() { _ = srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Refuse makes the server refuse every recipient with a permanent 550.
func (s *Server) Refuse() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
}

// Messages returns what the server accepted so far, in order.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Wait returns the messages once there are at least n, failing the test if they do not
// arrive within timeout.
func (s *Server) Wait(t testing.TB, n int, timeout time.Duration) []Received {
	t.Helper()
	return s.WaitTo(t, "", n, timeout)
}

// To returns what the server accepted for the address to, in order.
func (s *Server) To(to string) []Received {
	var out []Received
	for _, m := range s.Messages() {
		if slices.Contains(m.To, to) {
			out = append(out, m)
		}
	}
	return out
}

// WaitTo returns the messages to the address to (any, when empty) once there are at
// least n, failing the test if they do not arrive within timeout.
func (s *Server) WaitTo(t testing.TB, to string, n int, timeout time.Duration) []Received {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		arrived := s.arrived
		s.mu.Unlock()
		got := s.Messages()
		if to != "" {
			got = s.To(to)
		}
		if len(got) >= n {
			return got
		}
		select {
		case <-arrived:
		case <-deadline.C:
			t.Fatalf("%d mails arrived within %s, want %d", len(got), timeout, n)
		}
	}
}

// backend makes a session per connection.
type backend struct{ s *Server }

func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &session{s: b.s, conn: c}, nil
}

// session is one connection's transaction.
type session struct {
	s      *Server
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (se *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (se *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != User || pass != Password || (identity != "" && identity != user) {
			return errors.New("invalid credentials")
		}
		se.authed = true
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if !se.authed {
		return smtp.ErrAuthRequired
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	se.s.mu.Lock()
	refuse := se.s.refuse
	se.s.mu.Unlock()
	if refuse != nil {
		return refuse
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: "unparseable message: " + err.Error()}
	}
	var body io.Reader = msg.Body
	if msg.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
		body = quotedprintable.NewReader(msg.Body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return err
	}
	_, isTLS := se.conn.TLSConnectionState()
	se.s.mu.Lock()
	se.s.received = append(se.s.received, Received{From: se.from, To: se.to, Header: msg.Header, Subject: subject,
		Body: string(bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))), TLS: isTLS})
	close(se.s.arrived)
	se.s.arrived = make(chan struct{})
	se.s.mu.Unlock()
	return nil
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1, a pool that trusts it, and the
// certificate in PEM.
func selfSigned() (tls.Certificate, *x509.CertPool, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(7 * 24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	pemCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, pemCA, nil
}
