package testenv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// CA is a certificate authority made for a test: an ECDSA P-256 key and a
// self-signed certificate valid for a day, the certificate written to CertFile
// (<name>-ca.pem).
type CA struct {
	CertFile string
	dir      string
	cert     *x509.Certificate
	key      *ecdsa.PrivateKey
}

// CertFiles are a certificate's and its key's PEM files.
type CertFiles struct {
	Cert, Key string
}

// NewCA makes a certificate authority named name, writing its files into dir.
func NewCA(dir, name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	ca := &CA{CertFile: filepath.Join(dir, name+"-ca.pem"), dir: dir, cert: cert, key: key}
	return ca, writePEM(ca.CertFile, "CERTIFICATE", der)
}

// Issue signs a certificate for name, a server's for the DNS names and 127.0.0.1
// when server is set, and a client's (subject CN name) always, writing it and its
// key into the CA's directory as <name>.pem and <name>.key.
func (ca *CA) Issue(name string, server bool, dnsNames ...string) (CertFiles, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return CertFiles{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		tmpl.ExtKeyUsage = append(tmpl.ExtKeyUsage, x509.ExtKeyUsageServerAuth)
		tmpl.DNSNames, tmpl.IPAddresses = dnsNames, []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return CertFiles{}, err
	}
	rawKey, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return CertFiles{}, err
	}
	f := CertFiles{Cert: filepath.Join(ca.dir, name+".pem"), Key: filepath.Join(ca.dir, name+".key")}
	if err := writePEM(f.Cert, "CERTIFICATE", der); err != nil {
		return CertFiles{}, err
	}
	return f, writePEM(f.Key, "PRIVATE KEY", rawKey)
}

// serial is a random certificate serial number.
func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	return n
}

// writePEM writes one PEM block to path, readable by its owner alone.
func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}
