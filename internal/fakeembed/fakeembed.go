// Package fakeembed serves OpenAI's /v1/embeddings wire format on loopback for tests:
// a hosted embeddings model cannot run here, so tests talk to this instead, through the
// same client and decoding as production. Its vectors are hashed bags of words, so texts
// that share words have close vectors.
package fakeembed

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"unicode"
)

// Server is a loopback embeddings endpoint.
type Server struct {
	*httptest.Server
	// Dim is the length of the vectors it answers.
	Dim int

	mu       sync.Mutex
	requests int
	inputs   int
	failFrom int // the request number from which it answers 500; 0 never
}

// New starts a server answering vectors of dim floats; Close stops it.
func New(dim int) *Server {
	s := &Server{Dim: dim}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the API root to configure a client with (…/v1).
func (s *Server) URL() string { return s.Server.URL + "/v1" }

// FailFrom makes the n-th request and every later one fail with a 500.
func (s *Server) FailFrom(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failFrom = n
}

// Counts returns how many requests and inputs it has served.
func (s *Server) Counts() (requests, inputs int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.inputs
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Input json.RawMessage `json:"input"`
		Model string          `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			http.Error(w, `{"error":{"message":"input must be strings","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	s.requests++
	fail := s.failFrom > 0 && s.requests >= s.failFrom
	if !fail {
		s.inputs += len(inputs)
	}
	s.mu.Unlock()
	if fail {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"message":"overloaded","type":"server_error"}}`))
		return
	}
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	resp := struct {
		Object string  `json:"object"`
		Data   []datum `json:"data"`
		Model  string  `json:"model"`
		Usage  struct {
			PromptTokens int `json:"prompt_tokens"`
			TotalTokens  int `json:"total_tokens"`
		} `json:"usage"`
	}{Object: "list", Model: req.Model}
	for i, in := range inputs {
		resp.Data = append(resp.Data, datum{Object: "embedding", Index: i, Embedding: s.vector(in)})
		n := len(strings.Fields(in))
		resp.Usage.PromptTokens += n
		resp.Usage.TotalTokens += n
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// vector hashes each lower-cased word of text to one of Dim buckets.
func (s *Server) vector(text string) []float64 {
	v := make([]float64, s.Dim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[int(h.Sum32())%s.Dim]++
	}
	return v
}
