package deploy_test

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
)

// verifyCert checks that the PEM certificate in certFile chains to the CA in caFile
// for use ("server", for the DNS name dns, or "client").
func verifyCert(caFile, certFile, dns, use string) error {
	roots := x509.NewCertPool()
	raw, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	if !roots.AppendCertsFromPEM(raw) {
		return errors.New("no CA certificate")
	}
	raw, err = os.ReadFile(certFile)
	if err != nil {
		return err
	}
	block, _ := pem.Decode(raw)
	if block == nil {
		return errors.New("no PEM certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return err
	}
	usage := x509.ExtKeyUsageClientAuth
	if use == "server" {
		usage = x509.ExtKeyUsageServerAuth
	}
	_, err = cert.Verify(x509.VerifyOptions{Roots: roots, DNSName: dns, KeyUsages: []x509.ExtKeyUsage{usage}})
	return err
}
