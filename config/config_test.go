package config

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDocTable checks that docs/configuration.md's table lists every variable with its
// default and meaning, as Vars declares them.
func TestDocTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	want := Table()
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/configuration.md's table is out of date; it should read:\n\n%s", want)
	}
}

func TestDefaults(t *testing.T) {
	for _, v := range Vars {
		t.Setenv(v.Name, v.Default)
		os.Unsetenv(v.Name)
	}
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPAddr != "127.0.0.1:8080" || c.TemporalAddress != "127.0.0.1:7233" || c.MaxSteps != 5 || !c.Assistant.Offline() || !c.Reasoner.Offline() {
		t.Errorf("defaults = %+v", c)
	}
	if c.PublicURL != "http://127.0.0.1:8080" || c.Prices != "1=49.00 EUR,2=149.00 EUR,3=399.00 EUR" || c.StripeKey != "" {
		t.Errorf("payment defaults: public URL %q, prices %q, Stripe key %q", c.PublicURL, c.Prices, c.StripeKey)
	}
	if p, err := c.TemporalPort(); err != nil || p != 7233 {
		t.Errorf("TemporalPort = %d, %v", p, err)
	}
}

func TestReasonerDefaultsToAssistant(t *testing.T) {
	t.Setenv("LEXFLOW_ASSISTANT_BASE_URL", "http://localhost:4000/v1")
	t.Setenv("LEXFLOW_ASSISTANT_MODEL", "gemini-2.5-flash")
	t.Setenv("LEXFLOW_ASSISTANT_API_KEY", "k")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if c.Reasoner != c.Assistant {
		t.Errorf("reasoner = %+v, want the assistant's endpoint", c.Reasoner)
	}
}

func TestBadSettings(t *testing.T) {
	for name, env := range map[string][2]string{
		"steps not a number":  {"LEXFLOW_MAX_STEPS", "many"},
		"steps zero":          {"LEXFLOW_MAX_STEPS", "0"},
		"timeout":             {"LEXFLOW_MODEL_TIMEOUT", "soon"},
		"UI port":             {"LEXFLOW_TEMPORAL_UI_PORT", "x"},
		"endpoint, no model":  {"LEXFLOW_ASSISTANT_BASE_URL", "http://localhost:4000/v1"},
		"empty task queue":    {"LEXFLOW_TASK_QUEUE", ""},
		"short JWT secret":    {"LEXFLOW_JWT_SECRET", "hunter2"},
		"compression":         {"LEXFLOW_COMPRESS_PAYLOADS", "maybe"},
		"negative case limit": {"LEXFLOW_CASES_PER_DAY", "-1"},
		"budget not a number": {"LEXFLOW_TOKENS_PER_DAY", "1e6"},
		"negative budget":     {"LEXFLOW_CASE_TOKENS_PER_DAY", "-5"},
		"Stripe, no secret":   {"LEXFLOW_STRIPE_KEY", "sk_test_123"},
		"OIDC, no audience":   {"LEXFLOW_OIDC_ISSUER", "https://lexflow.eu.auth0.com/"},
		"OIDC leeway":         {"LEXFLOW_OIDC_LEEWAY", "1h"},
		"key cache TTL":       {"LEXFLOW_KEY_CACHE_TTL", "2h"},
		"retention, no org":   {"LEXFLOW_RETENTION", "=30d"},
		"retention, no days":  {"LEXFLOW_RETENTION", "acme=forever"},
		"retention too short": {"LEXFLOW_RETENTION", "acme=1h"},
		"retention twice":     {"LEXFLOW_RETENTION", "acme=30d, acme=60d"},
		"retention, negative": {"LEXFLOW_RETENTION", "acme=-30d"},
		"retention overflows": {"LEXFLOW_RETENTION", "acme=213505d"},
		"CORS wildcard":       {"LEXFLOW_CORS_ORIGINS", "*"},
		"CORS with a path":    {"LEXFLOW_CORS_ORIGINS", "https://app.example.com/chat"},
		"CORS not http":       {"LEXFLOW_CORS_ORIGINS", "ftp://app.example.com"},
		"CORS no scheme":      {"LEXFLOW_CORS_ORIGINS", "app.example.com"},
		"SMTP, no sender":     {"LEXFLOW_SMTP_ADDR", "smtp.example.com:587"},
		"SMTP, no port":       {"LEXFLOW_SMTP_ADDR", "smtp.example.com"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(env[0], env[1])
			if _, err := FromEnv(); err == nil {
				t.Errorf("%s=%q accepted", env[0], env[1])
			}
		})
	}
}

// TestSMTPSettings: a complete mail server is read; a user without a password is
// refused.
func TestSMTPSettings(t *testing.T) {
	t.Setenv("LEXFLOW_SMTP_ADDR", "smtp.example.com:587")
	t.Setenv("LEXFLOW_SMTP_FROM", "Lexflow <notify@example.com>")
	t.Setenv("LEXFLOW_SMTP_USER", "lexflow")
	if _, err := FromEnv(); err == nil {
		t.Error("LEXFLOW_SMTP_USER without LEXFLOW_SMTP_PASSWORD accepted")
	}
	t.Setenv("LEXFLOW_SMTP_PASSWORD", "s3cret")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if want := (SMTP{Addr: "smtp.example.com:587", From: "Lexflow <notify@example.com>", User: "lexflow", Password: "s3cret"}); c.SMTP != want {
		t.Errorf("SMTP = %+v, want %+v", c.SMTP, want)
	}
}

func TestRetention(t *testing.T) {
	t.Setenv("LEXFLOW_RETENTION", " acme=365d , firm-b=2160h,")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{"acme": 365 * 24 * time.Hour, "firm-b": 90 * 24 * time.Hour}
	if !maps.Equal(c.Retention, want) {
		t.Errorf("Retention = %v, want %v", c.Retention, want)
	}
}

// TestBenchProfile checks deploy/bench.env against Vars: it sets every variable whose
// meaning ends "0 means no limit" to 0, so a limit added later must join it, and the
// configuration it makes is valid.
func TestReadEnvFileRefusesOtherLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.env")
	if err := os.WriteFile(path, []byte("# a comment\n\nA=1\nnot a setting\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEnvFile(path); err == nil || !strings.Contains(err.Error(), "bad.env:4: not KEY=VALUE") {
		t.Errorf("a line without = read as %v", err)
	}
}

func TestBenchProfile(t *testing.T) {
	profile, err := ReadEnvFile("../deploy/bench.env")
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range profile {
		t.Setenv(name, value)
	}
	for _, v := range Vars {
		if strings.HasSuffix(v.Doc, "0 means no limit") && profile[v.Name] != "0" {
			t.Errorf("the bench profile does not lift %s", v.Name)
		}
	}
	if _, err := FromEnv(); err != nil {
		t.Fatal(err)
	}
}

// TestTemporalAuthSettings: a client certificate needs its key, and a token endpoint
// its client's ID and secret; any TEMPORAL_TLS_* setting turns TLS on.
func TestTemporalAuthSettings(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		fail bool
	}{
		{env: map[string]string{"TEMPORAL_TLS_CLIENT_CERT_PATH": "c.pem"}, fail: true},
		{env: map[string]string{"LEXFLOW_TEMPORAL_TOKEN_URL": "https://idp/token", "LEXFLOW_TEMPORAL_CLIENT_ID": "lexflow"}, fail: true},
		{env: map[string]string{"LEXFLOW_TEMPORAL_CLIENT_ID": "lexflow", "LEXFLOW_TEMPORAL_CLIENT_SECRET": "s"}, fail: true},
		{env: map[string]string{"TEMPORAL_TLS_CLIENT_CERT_PATH": "c.pem", "TEMPORAL_TLS_CLIENT_KEY_PATH": "c.key",
			"LEXFLOW_TEMPORAL_TOKEN_URL": "https://idp/token", "LEXFLOW_TEMPORAL_CLIENT_ID": "lexflow", "LEXFLOW_TEMPORAL_CLIENT_SECRET": "s"}},
	} {
		c, err := From(func(name string) (string, bool) { v, ok := tc.env[name]; return v, ok })
		if (err != nil) != tc.fail {
			t.Errorf("%v: error %v, want failure %v", tc.env, err, tc.fail)
		}
		if err == nil && !c.TemporalAuth.TLS() {
			t.Errorf("%v: TLS off", tc.env)
		}
	}
}

// TestOIDCAudienceIsNotTheWebClient (issue 36, suspicion: ID tokens accepted as access
// tokens): an audience that is the web app's client would let its ID tokens through.
func TestOIDCAudienceIsNotTheWebClient(t *testing.T) {
	t.Setenv("LEXFLOW_OIDC_ISSUER", "https://lexflow.eu.auth0.com/")
	t.Setenv("LEXFLOW_OIDC_CLIENT_ID", "lexflow-web")
	t.Setenv("LEXFLOW_OIDC_AUDIENCE", "lexflow-web")
	if _, err := FromEnv(); err == nil {
		t.Error("an audience that is the web app's client was accepted")
	}
	t.Setenv("LEXFLOW_OIDC_AUDIENCE", "https://api.lexflow.example")
	if _, err := FromEnv(); err != nil {
		t.Errorf("the API's own audience: %v", err)
	}
}

func TestCORSOrigins(t *testing.T) {
	t.Setenv("LEXFLOW_CORS_ORIGINS", " https://coach.example.com/ , http://localhost:5173,")
	c, err := FromEnv()
	if err != nil || !slices.Equal(c.CORSOrigins, []string{"https://coach.example.com", "http://localhost:5173"}) {
		t.Errorf("CORSOrigins = %q, %v", c.CORSOrigins, err)
	}
}

// TestBlobSettings: the folder is the default blob store; the gcs store needs a
// bucket and takes an emulator's base URL; a bucket or an endpoint without it, an
// unknown store and a malformed endpoint are refused.
func TestBlobSettings(t *testing.T) {
	c, err := From(func(string) (string, bool) { return "", false })
	if err != nil || c.Blob != BlobDir || c.BlobBucket != "" {
		t.Fatalf("default blob store: %q, bucket %q, %v; want dir", c.Blob, c.BlobBucket, err)
	}
	env := func(kv ...string) func(string) (string, bool) {
		return func(name string) (string, bool) {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == name {
					return kv[i+1], true
				}
			}
			return "", false
		}
	}
	c, err = From(env("LEXFLOW_BLOB", "gcs", "LEXFLOW_BLOB_BUCKET", "lexflow-drafts", "LEXFLOW_GCS_ENDPOINT", "http://127.0.0.1:4443"))
	if err != nil || c.Blob != BlobGCS || c.BlobBucket != "lexflow-drafts" || c.GCSEndpoint != "http://127.0.0.1:4443" {
		t.Errorf("gcs settings: %q, %q, %q, %v", c.Blob, c.BlobBucket, c.GCSEndpoint, err)
	}
	for name, kv := range map[string][]string{
		"gcs, no bucket":           {"LEXFLOW_BLOB", "gcs"},
		"bucket, no gcs":           {"LEXFLOW_BLOB_BUCKET", "lexflow-drafts"},
		"endpoint, no gcs":         {"LEXFLOW_GCS_ENDPOINT", "http://127.0.0.1:4443"},
		"unknown store":            {"LEXFLOW_BLOB", "s3", "LEXFLOW_BLOB_BUCKET", "lexflow-drafts"},
		"endpoint, no scheme":      {"LEXFLOW_BLOB", "gcs", "LEXFLOW_BLOB_BUCKET", "b", "LEXFLOW_GCS_ENDPOINT", "127.0.0.1:4443"},
		"endpoint with its path":   {"LEXFLOW_BLOB", "gcs", "LEXFLOW_BLOB_BUCKET", "b", "LEXFLOW_GCS_ENDPOINT", "http://127.0.0.1:4443/storage/v1/"},
		"endpoint of another kind": {"LEXFLOW_BLOB", "gcs", "LEXFLOW_BLOB_BUCKET", "b", "LEXFLOW_GCS_ENDPOINT", "gs://lexflow-drafts"},
	} {
		if _, err := From(env(kv...)); err == nil {
			t.Errorf("%s: %q accepted", name, kv)
		}
	}
}
