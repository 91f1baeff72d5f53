package wiring

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/mailer"
)

// Mailer is the mail server cfg.SMTP names, trusting the certificate authority in
// cfg.SMTP.CA (the system's roots when empty) for its STARTTLS; nil when none is
// configured.
func Mailer(cfg config.Config) (*mailer.Sender, error) {
	m := cfg.SMTP
	if m.Addr == "" {
		return nil, nil
	}
	c := mailer.Config{Addr: m.Addr, From: m.From, User: m.User, Password: m.Password}
	if m.CA != "" {
		pem, err := os.ReadFile(m.CA)
		if err != nil {
			return nil, fmt.Errorf("LEXFLOW_SMTP_CA_CERT_PATH: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("LEXFLOW_SMTP_CA_CERT_PATH %s holds no PEM certificate", m.CA)
		}
		c.TLS = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return mailer.New(c)
}
