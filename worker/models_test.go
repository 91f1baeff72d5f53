package worker

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/schemas"
)

// TestModelsWireTheRoles checks the role wiring: a role with an endpoint asks it for
// its model with its key, and a role without one is answered by the offline model.
func TestModelsWireTheRoles(t *testing.T) {
	asked := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		asked <- req.Model + " " + r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"1","object":"chat.completion","created":1,"model":"big","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}]}`)
	}))
	defer srv.Close()
	clients, stop, err := Models(config.Config{ModelTimeout: 10 * time.Second,
		Reasoner: config.Model{BaseURL: srv.URL + "/v1", Model: "big", APIKey: "sk-r"}})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	hi := []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}}
	if _, err := clients[schemas.ModelReasoner].Complete(t.Context(), hi, nil); err != nil {
		t.Fatal(err)
	}
	if got := <-asked; got != "big Bearer sk-r" {
		t.Errorf("the reasoner's endpoint was asked %q, want model big with key sk-r", got)
	}
	resp, err := clients[schemas.ModelAssistant].Complete(t.Context(), hi, nil)
	if err != nil || resp.Content == "" {
		t.Fatalf("the offline assistant answered %+v, %v", resp, err)
	}
	if len(asked) > 0 {
		t.Error("the assistant, which has no endpoint, asked the reasoner's")
	}
}

// TestModelsWireTheProvider checks that a role's provider reaches its client: an
// Azure deployment is called at its path with its api-version and api-key, and a
// provider Lexflow has no profile for stops the worker.
func TestModelsWireTheProvider(t *testing.T) {
	asked := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked <- r.URL.Path + "?" + r.URL.RawQuery + " " + r.Header.Get("api-key")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"1","object":"chat.completion","created":1,"model":"big","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}]}`)
	}))
	defer srv.Close()
	azure := config.Model{BaseURL: srv.URL + "/openai", Model: "big", APIKey: "k", Provider: "azure", APIVersion: "2024-10-21"}
	clients, stop, err := Models(config.Config{ModelTimeout: 10 * time.Second, Assistant: azure, Reasoner: azure})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := clients[schemas.ModelAssistant].Complete(t.Context(), []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "hi"}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := <-asked, "/openai/deployments/big/chat/completions?api-version=2024-10-21 k"; got != want {
		t.Errorf("the endpoint was asked %q, want %q", got, want)
	}
	azure.Provider = "azur"
	if _, _, err := Models(config.Config{ModelTimeout: time.Second, Assistant: azure, Reasoner: azure}); err == nil ||
		!strings.Contains(err.Error(), "_PROVIDER") {
		t.Errorf("an unknown provider: error %v, want one naming the setting", err)
	}
}

// TestModelsRecordThenReplay: with ModelRecord, every role's exchanges are written
// into the directory, which Models makes; with ModelReplay, they answer instead of
// the endpoint, which is gone by then.
func TestModelsRecordThenReplay(t *testing.T) {
	dir := t.TempDir() + "/recordings"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"1","object":"chat.completion","created":1,"model":"big","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"recorded answer"}}]}`)
	}))
	endpoint := config.Model{BaseURL: srv.URL + "/v1", Model: "big", APIKey: "sk-secret"}
	hi := []schemas.ChatMessage{{Role: schemas.MsgSystem, Content: "Role: reasoner"}, {Role: schemas.MsgUser, Content: "hi"}}
	clients, stop, err := Models(config.Config{ModelTimeout: 10 * time.Second, Assistant: endpoint, Reasoner: endpoint, ModelRecord: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clients[schemas.ModelReasoner].Complete(t.Context(), hi, nil); err != nil {
		t.Fatal(err)
	}
	stop()
	srv.Close()
	clients, stop, err = Models(config.Config{ModelTimeout: 10 * time.Second, Assistant: endpoint, Reasoner: endpoint, ModelReplay: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r, err := clients[schemas.ModelReasoner].Complete(t.Context(), hi, nil)
	if err != nil || r.Content != "recorded answer" {
		t.Fatalf("replayed %q, %v; want the recorded answer", r.Content, err)
	}
}
