package wiring

import (
	"fmt"
	"strings"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/internal/auth"
)

// Outside `lexflow dev` a process takes its secrets from its environment and never
// writes one: a secret generated into the data directory would sit, in a deployment,
// on the volume that holds what it protects (the sealed blobs), and a process
// started without it would go on under a key no other process shares.

// RequireSecrets fails, naming each that is missing, unless cfg holds the master key
// and, with signs (the API, which signs and verifies tokens), the JWT secret.
func RequireSecrets(cfg config.Config, signs bool) error { return requireSecrets(cfg, true, signs) }

// requireSecrets fails unless cfg holds the master key, if master, and the JWT
// secret, if jwt.
func requireSecrets(cfg config.Config, master, jwt bool) error {
	var missing []string
	if master && cfg.MasterKey == "" {
		missing = append(missing, "LEXFLOW_MASTER_KEY (the same in every api and worker process, e.g. `openssl rand -hex 32`)")
	}
	if jwt && cfg.JWTSecret == "" {
		missing = append(missing, fmt.Sprintf("LEXFLOW_JWT_SECRET (at least %d bytes)", config.MinJWTSecret))
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s not set: outside `lexflow dev` no secret is generated; see docs/deployment.md", strings.Join(missing, " and "))
}

// DevSecrets fills in the master key and the JWT secret that cfg lacks from files in
// its data directory, generating each there the first time: `lexflow dev`, which runs
// everything on one machine.
func DevSecrets(cfg *config.Config) error {
	for _, s := range []struct {
		file string
		to   *string
	}{{"master-key", &cfg.MasterKey}, {"jwt-secret", &cfg.JWTSecret}} {
		if *s.to != "" {
			continue
		}
		raw, err := auth.LoadOrCreateSecret(cfg.Path(s.file))
		if err != nil {
			return fmt.Errorf("dev secret %s: %w", s.file, err)
		}
		*s.to = string(raw)
	}
	return nil
}

// RefuseModelRecordings fails when cfg records or replays model exchanges: a
// recording holds clients' texts in clear, and a replay answers clients with
// another conversation's answers, so only `lexflow dev` and the agent evaluation
// take them.
func RefuseModelRecordings(cfg config.Config) error {
	for _, v := range []struct{ name, dir string }{{"LEXFLOW_MODEL_RECORD", cfg.ModelRecord}, {"LEXFLOW_MODEL_REPLAY", cfg.ModelReplay}} {
		if v.dir != "" {
			return fmt.Errorf("%s is set (%s): recordings of model exchanges hold clients' texts in clear and are taken only by `lexflow dev`; unset it for `lexflow worker`", v.name, v.dir)
		}
	}
	return nil
}
