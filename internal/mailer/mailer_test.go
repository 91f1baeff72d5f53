package mailer_test

import (
	"errors"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/mailer/mailtest"
)

func sender(t *testing.T, srv *mailtest.Server, password string) *mailer.Sender {
	t.Helper()
	s, err := mailer.New(mailer.Config{Addr: srv.Addr, User: mailtest.User, Password: password,
		From: "Lexflow <notify@lexflow.example>", TLS: srv.TLS, SendTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSendOverStartTLS: a mail goes over STARTTLS with AUTH PLAIN and arrives with
// its headers and its body, in UTF-8.
func TestSendOverStartTLS(t *testing.T) {
	srv := mailtest.Start(t)
	s := sender(t, srv, mailtest.Password)
	date := time.Date(2026, 12, 1, 9, 0, 0, 0, time.FixedZone("EET", 2*3600))
	id := s.MessageID("deadline:d1:reminder:48h")
	err := s.Send(t.Context(), mailer.Message{To: "ana@example.com", Subject: "Termen în 2 zile: dosarul c-1",
		Body: "Termenul se împlinește pe 03.12.2026.\nLexflow", MessageID: id, Date: date, Language: "ro"})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 5*time.Second)[0]
	if !got.TLS {
		t.Error("the mail came in clear, want STARTTLS")
	}
	if got.From != "notify@lexflow.example" || len(got.To) != 1 || got.To[0] != "ana@example.com" {
		t.Errorf("envelope from %q to %v", got.From, got.To)
	}
	if from, err := mail.ParseAddress(got.Header.Get("From")); err != nil || from.Address != "notify@lexflow.example" {
		t.Errorf("From = %q", got.Header.Get("From"))
	}
	if got.Header.Get("To") != "<ana@example.com>" || got.Subject != "Termen în 2 zile: dosarul c-1" ||
		got.Header.Get("Message-ID") != id || got.Header.Get("Content-Language") != "ro" {
		t.Errorf("headers = %v (subject %q)", got.Header, got.Subject)
	}
	if d, err := got.Header.Date(); err != nil || !d.Equal(date) {
		t.Errorf("Date = %v, %v; want %v", d, err, date)
	}
	if got.Body != "Termenul se împlinește pe 03.12.2026.\nLexflow\n" {
		t.Errorf("body = %q", got.Body)
	}
}

// TestMessageIDIsTheKeys: one key, one Message-ID at the sender's domain; another key,
// another.
func TestMessageIDIsTheKeys(t *testing.T) {
	s, err := mailer.New(mailer.Config{Addr: "127.0.0.1:25", From: "notify@lexflow.example"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.MessageID("k1"), s.MessageID("k2")
	if a != s.MessageID("k1") || a == b || !strings.HasPrefix(a, "<") || !strings.HasSuffix(a, "@lexflow.example>") {
		t.Errorf("MessageID(k1) = %s, MessageID(k2) = %s", a, b)
	}
}

// TestWrongPasswordFails: the server's refusal of the credentials is an error.
func TestWrongPasswordFails(t *testing.T) {
	srv := mailtest.Start(t)
	err := sender(t, srv, "wrong").Send(t.Context(), mailer.Message{To: "ana@example.com", Subject: "s", Body: "b", MessageID: "<x@y>", Date: time.Now()})
	if err == nil || len(srv.Messages()) != 0 {
		t.Errorf("Send with a wrong password = %v, %d mails; want an error and none", err, len(srv.Messages()))
	}
}

// TestRefusedRecipientIsPermanent: a 5xx reply is a RejectedError.
func TestRefusedRecipientIsPermanent(t *testing.T) {
	srv := mailtest.Start(t)
	srv.Refuse()
	err := sender(t, srv, mailtest.Password).Send(t.Context(), mailer.Message{To: "nobody@example.com", Subject: "s", Body: "b", MessageID: "<x@y>", Date: time.Now()})
	var rej *mailer.RejectedError
	if !errors.As(err, &rej) || rej.Err.Code != 550 {
		t.Errorf("Send to a refused recipient = %v, want a RejectedError 550", err)
	}
}

// TestHeaderInjectionRefused: a subject with a line break is not sent.
func TestHeaderInjectionRefused(t *testing.T) {
	srv := mailtest.Start(t)
	err := sender(t, srv, mailtest.Password).Send(t.Context(), mailer.Message{To: "ana@example.com", Subject: "s\r\nBcc: eve@example.com",
		Body: "b", MessageID: "<x@y>", Date: time.Now()})
	if err == nil || len(srv.Messages()) != 0 {
		t.Errorf("Send with a header in the subject = %v, want refused", err)
	}
}

// TestSilentServerTimesOut: a server that accepts the connection and says nothing
// does not hold a send past its timeout.
func TestSilentServerTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	s, err := mailer.New(mailer.Config{Addr: ln.Addr().String(), From: "notify@lexflow.example", SendTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.Send(t.Context(), mailer.Message{To: "ana@example.com", Subject: "s", Body: "b", MessageID: "<x@y>", Date: time.Now()})
	}()
	select {
	case err := <-done:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("Send to a silent server = %v, want a timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Send to a silent server did not return")
	}
}
