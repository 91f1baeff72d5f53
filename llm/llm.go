// Package llm talks to OpenAI-compatible chat-completions endpoints with native tool
// calling, one Client per Endpoint, its requests shaped by the endpoint's provider
// profile (provider.go) and its answers read the same tolerant way for every provider
// (reply.go, stream_fix.go); which endpoint serves which model role is the worker's
// wiring (worker.Models). The client library's own retries are off: Temporal's
// activity retry policy is the only one, and Retryable tells it what to retry.
package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/lexflow/lexflow/schemas"
)

// Tool is a function the model may call, with the JSON Schema of its arguments.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// Client calls one chat-completions endpoint.
type Client struct {
	api      openai.Client
	model    string
	provider Provider
	profile  profile
}

// Endpoint is an OpenAI-compatible chat-completions endpoint and the model asked for
// there.
type Endpoint struct {
	// BaseURL is the API's root, such as http://localhost:4000/v1.
	BaseURL string
	Model   string
	// APIKey is sent as the bearer token (in an api-key header to Azure); empty
	// sends none worth the name, for local servers such as Ollama and the offline
	// model.
	APIKey string
	// Timeout bounds each request.
	Timeout time.Duration
	// Provider is the kind of endpoint, whose profile shapes the requests (see
	// ProviderFor); empty is Generic.
	Provider Provider
	// APIVersion is Azure's api-version: with it, requests go to the deployment
	// Model names under BaseURL (https://<resource>.openai.azure.com/openai);
	// without it, to Azure's v1 API at BaseURL (…/openai/v1).
	APIVersion string
	// Record, when set, is a directory where each exchange is written as a
	// Recording (record.go); Replay, when set, one whose recordings answer every
	// request instead of the endpoint (replay.go). Neither holds an API key.
	Record string
	Replay string
}

// New returns a client for endpoint e. Each request is bounded by e.Timeout and is
// sent exactly once, or answered from e.Replay's recordings.
func New(e Endpoint) *Client {
	key := e.APIKey
	if key == "" {
		key = "none" // local servers such as Ollama and the offline model need no key
	}
	provider := cmp.Or(e.Provider, Generic)
	p := profiles[provider]
	base := e.BaseURL
	opts := []option.RequestOption{option.WithAPIKey(key), option.WithMaxRetries(0), option.WithRequestTimeout(e.Timeout)}
	if p.deployments {
		if e.APIVersion != "" {
			base = strings.TrimSuffix(base, "/") + "/deployments/" + url.PathEscape(e.Model)
			opts = append(opts, option.WithQuery("api-version", e.APIVersion))
		}
		opts = append(opts, option.WithMiddleware(apiKeyHeader(key)))
	}
	opts = append(opts, option.WithBaseURL(base))
	if e.Record != "" {
		opts = append(opts, option.WithMiddleware(record(e.Record)))
	}
	if e.Replay != "" {
		opts = append(opts, option.WithMiddleware(replay(e.Replay)))
	}
	return &Client{api: openai.NewClient(opts...), model: e.Model, provider: provider, profile: p}
}

// apiKeyHeader sends the key in an api-key header instead of a bearer token, as Azure
// takes it.
func apiKeyHeader(key string) option.Middleware {
	return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		r.Header.Del("Authorization")
		r.Header.Set("api-key", key)
		return next(r)
	}
}

// Complete sends the conversation and the tools on offer, and returns the model's reply:
// tool calls, or a final answer, with the tokens the endpoint says it used.
func (c *Client) Complete(ctx context.Context, msgs []schemas.ChatMessage, tools []Tool) (schemas.ModelResponse, error) {
	params, err := c.params(msgs, tools)
	if err != nil {
		return schemas.ModelResponse{}, err
	}
	resp, err := c.api.Chat.Completions.New(ctx, params)
	if err != nil {
		return schemas.ModelResponse{}, classify(err)
	}
	var w wireCompletion
	if err := json.Unmarshal([]byte(resp.RawJSON()), &w); err != nil {
		return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model returned a completion that is not one: " + err.Error()}
	}
	r, ok := fromCompletion(w, c.profile)
	if !ok {
		return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model returned no choices"}
	}
	return r.response(c.provider), nil
}

// Stream is Complete with the reply streamed (stream: true, with the usage asked for
// at the end): text is called with each piece of the reply's content as it arrives
// (never with the model's reasoning), and the assembled reply is returned once the
// stream ends. A stream that breaks off, ends before a finish reason, or reports an
// error after it began (OpenRouter) is a retryable error like a failed request,
// carrying the provider's message: the call is tried again whole.
func (c *Client) Stream(ctx context.Context, msgs []schemas.ChatMessage, tools []Tool, text func(string)) (schemas.ModelResponse, error) {
	params, err := c.params(msgs, tools)
	if err != nil {
		return schemas.ModelResponse{}, err
	}
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := c.api.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	a := assembly{profile: c.profile}
	for stream.Next() {
		var ch wireChunk
		if err := json.Unmarshal([]byte(stream.Current().RawJSON()), &ch); err != nil {
			return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model stream sent a chunk that is not one: " + err.Error()}
		}
		if piece := a.add(ch); piece != "" {
			text(piece)
		}
	}
	if err := stream.Err(); err != nil {
		return schemas.ModelResponse{}, streamError(err)
	}
	if a.finish == "" {
		return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model stream ended before its reply did"}
	}
	return a.result().response(c.provider), nil
}

// streamError is the error of a stream that failed: for an error event sent after
// the stream began, a retryable 502 with the provider's message and code.
func streamError(err error) error {
	var se *ssestream.StreamError
	if !errors.As(err, &se) {
		return classify(err)
	}
	var ev struct {
		Error struct {
			Message string          `json:"message"`
			Code    json.RawMessage `json:"code"`
		} `json:"error"`
	}
	msg := string(se.Event.Data)
	if json.Unmarshal(se.Event.Data, &ev) == nil && ev.Error.Message != "" {
		msg = ev.Error.Message
		if code := textOf(ev.Error.Code); code != "" {
			msg += " (" + code + ")"
		}
	}
	return &APIError{StatusCode: http.StatusBadGateway, Message: "model stream failed after it began: " + msg}
}

// APIError is an HTTP error answered by a model endpoint.
type APIError struct {
	StatusCode int
	Message    string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("model endpoint answered %d: %s", e.StatusCode, e.Message)
}

func classify(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		msg := apiErr.Message
		if msg == "" {
			msg = http.StatusText(apiErr.StatusCode)
		}
		return &APIError{StatusCode: apiErr.StatusCode, Message: msg}
	}
	return fmt.Errorf("call model: %w", err)
}

// Retryable reports whether sending the same request again may succeed: a timeout
// (408), a conflict (409), rate limiting (429), a server error (5xx), or no answer at
// all. A refused request (400, 401, 403, 404, 422, ...) is final.
func Retryable(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return true
	}
	switch c := apiErr.StatusCode; {
	case c == http.StatusRequestTimeout, c == http.StatusConflict, c == http.StatusTooManyRequests, c >= 500:
		return true
	default:
		return false
	}
}
