package temporalauth

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/config"
)

// Apply returns o with a's TLS settings and access tokens, those a sets: a client
// without either is o unchanged.
func Apply(o client.Options, a config.TemporalAuth) (client.Options, error) {
	if a.TLS() {
		cfg, err := TLSConfig(a)
		if err != nil {
			return o, err
		}
		o.ConnectionOptions.TLS = cfg
	}
	if a.TokenURL != "" {
		o.Credentials = client.NewAPIKeyDynamicCredentials(NewTokens(a).Token)
	}
	return o, nil
}

// TLSConfig is the TLS configuration a describes: the frontend's certificate checked
// against a.CA (the system's roots when empty) for a.ServerName, and a.Cert with a.Key
// presented as the client's, read from their files at each handshake so that a
// renewed certificate is taken up by the next connection.
func TLSConfig(a config.TemporalAuth) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: a.ServerName}
	if a.CA != "" {
		raw, err := os.ReadFile(a.CA)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_SERVER_CA_CERT_PATH: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(raw) {
			return nil, fmt.Errorf("TEMPORAL_TLS_SERVER_CA_CERT_PATH: no PEM certificate in %s", a.CA)
		}
	}
	if a.Cert != "" {
		if _, err := tls.LoadX509KeyPair(a.Cert, a.Key); err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH: %w", err)
		}
		cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			c, err := tls.LoadX509KeyPair(a.Cert, a.Key)
			if err != nil {
				return nil, fmt.Errorf("client certificate for Temporal: %w", err)
			}
			return &c, nil
		}
	}
	return cfg, nil
}
