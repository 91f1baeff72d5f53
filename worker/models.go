package worker

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

// Models returns a client for each model role: the assistant talks to cfg.Assistant's
// endpoint, the reasoner to cfg.Reasoner's, each request bounded by cfg.ModelTimeout and
// shaped by the endpoint's provider profile (named, or guessed from its base URL).
// Roles without a configured endpoint talk to the offline model, which Models then
// serves on a loopback port, streaming with cfg.OfflineChunkDelay between chunks,
// until stop is called. With cfg.ModelRecord every exchange is recorded there (the
// directory is made if missing); with cfg.ModelReplay the recordings there answer
// instead of the endpoints.
func Models(cfg config.Config) (clients map[schemas.ModelRole]*llm.Client, stop func(), err error) {
	stop = func() {}
	var srv *offline.Server
	endpoint := func(role schemas.ModelRole, m config.Model) (llm.Endpoint, error) {
		if !m.Offline() {
			provider, err := llm.ProviderFor(m.Provider, m.BaseURL)
			if err != nil {
				return llm.Endpoint{}, fmt.Errorf("LEXFLOW_%s_PROVIDER: %w", strings.ToUpper(string(role)), err)
			}
			return llm.Endpoint{BaseURL: m.BaseURL, Model: m.Model, APIKey: m.APIKey, Timeout: cfg.ModelTimeout,
				Provider: provider, APIVersion: m.APIVersion}, nil
		}
		if srv == nil {
			started, err := offline.StartWith("127.0.0.1:0", offline.Options{ChunkDelay: cfg.OfflineChunkDelay})
			if err != nil {
				return llm.Endpoint{}, err
			}
			srv = started
			stop = func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = srv.Stop(ctx)
			}
		}
		return llm.Endpoint{BaseURL: srv.BaseURL, Model: offline.ModelName, Timeout: cfg.ModelTimeout}, nil
	}
	if cfg.ModelRecord != "" {
		if err := os.MkdirAll(cfg.ModelRecord, 0o700); err != nil {
			return nil, func() {}, fmt.Errorf("LEXFLOW_MODEL_RECORD: %w", err)
		}
	}
	clients = map[schemas.ModelRole]*llm.Client{}
	for role, m := range map[schemas.ModelRole]config.Model{schemas.ModelAssistant: cfg.Assistant, schemas.ModelReasoner: cfg.Reasoner} {
		e, err := endpoint(role, m)
		if err != nil {
			stop()
			return nil, func() {}, err
		}
		e.Record, e.Replay = cfg.ModelRecord, cfg.ModelReplay
		clients[role] = llm.New(e)
	}
	return clients, stop, nil
}
