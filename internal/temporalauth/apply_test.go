package temporalauth_test

import (
	"crypto/x509"
	"testing"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/temporalauth"
	"github.com/lexflow/lexflow/internal/testenv"
)

// TestClientCertificateReadAtEachHandshake: a certificate renewed in place (the same
// files, as cert-manager or make-certs.sh rewrite them) is the one the next
// connection shows, without a restart.
func TestClientCertificateReadAtEachHandshake(t *testing.T) {
	ca, err := testenv.NewCA(t.TempDir(), "clients")
	if err != nil {
		t.Fatal(err)
	}
	files, err := ca.Issue("lexflow", false)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := temporalauth.TLSConfig(config.TemporalAuth{CA: ca.CertFile, Cert: files.Cert, Key: files.Key, ServerName: "temporal"})
	if err != nil {
		t.Fatal(err)
	}
	serial := func() string {
		t.Helper()
		c, err := cfg.GetClientCertificate(nil)
		if err != nil {
			t.Fatal(err)
		}
		leaf, err := x509.ParseCertificate(c.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return leaf.SerialNumber.String()
	}
	before := serial()
	if _, err := ca.Issue("lexflow", false); err != nil {
		t.Fatal(err)
	}
	if after := serial(); after == before {
		t.Error("the renewed certificate is not the one shown")
	}
	if cfg.ServerName != "temporal" || cfg.RootCAs == nil {
		t.Errorf("server name %q, roots %v; want temporal and the CA", cfg.ServerName, cfg.RootCAs)
	}
}

// TestTLSConfigRefusesMissingFiles: a process whose certificate, key or CA cannot be
// read stops at start with the variable's name, not at its first call.
func TestTLSConfigRefusesMissingFiles(t *testing.T) {
	for _, a := range []config.TemporalAuth{
		{CA: "/nonexistent/ca.pem"},
		{Cert: "/nonexistent/c.pem", Key: "/nonexistent/c.key"},
	} {
		if _, err := temporalauth.TLSConfig(a); err == nil {
			t.Errorf("%+v: no error", a)
		}
	}
}
