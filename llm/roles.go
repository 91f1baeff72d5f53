package llm

import (
	"context"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

// Roles returns a client for each model role. Roles without a configured endpoint talk
// to the offline model, which Roles then serves on a loopback port, streaming with
// cfg.OfflineChunkDelay between chunks, until stop is called.
func Roles(cfg config.Config) (clients map[schemas.ModelRole]*Client, stop func(), err error) {
	stop = func() {}
	var srv *offline.Server
	endpoint := func(m config.Model) (config.Model, error) {
		if !m.Offline() {
			return m, nil
		}
		if srv == nil {
			if srv, err = offline.StartWith("127.0.0.1:0", offline.Options{ChunkDelay: cfg.OfflineChunkDelay}); err != nil {
				return m, err
			}
			stop = func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = srv.Stop(ctx)
			}
		}
		return config.Model{BaseURL: srv.BaseURL, Model: offline.ModelName}, nil
	}
	clients = map[schemas.ModelRole]*Client{}
	for role, m := range map[schemas.ModelRole]config.Model{schemas.ModelAssistant: cfg.Assistant, schemas.ModelReasoner: cfg.Reasoner} {
		if m, err = endpoint(m); err != nil {
			stop()
			return nil, func() {}, err
		}
		clients[role] = New(m, cfg.ModelTimeout)
	}
	return clients, stop, nil
}
