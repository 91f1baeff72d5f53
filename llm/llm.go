// Package llm talks to OpenAI-compatible chat-completions endpoints with native tool
// calling, one Client per Endpoint; which endpoint serves which model role is the
// worker's wiring (worker.Models). The client library's own retries are off:
// Temporal's activity retry policy is the only one, and Retryable tells it what to retry.
package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

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
	api   openai.Client
	model string
}

// Endpoint is an OpenAI-compatible chat-completions endpoint and the model asked for
// there.
type Endpoint struct {
	// BaseURL is the API's root, such as http://localhost:4000/v1.
	BaseURL string
	Model   string
	// APIKey is sent as the bearer token; empty sends none worth the name, for local
	// servers such as Ollama and the offline model.
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
}

// New returns a client for endpoint e. Each request is bounded by e.Timeout and is
// sent exactly once.
func New(e Endpoint) *Client {
	key := e.APIKey
	if key == "" {
		key = "none" // local servers such as Ollama and the offline model need no key
	}
	return &Client{
		api: openai.NewClient(
			option.WithBaseURL(e.BaseURL),
			option.WithAPIKey(key),
			option.WithMaxRetries(0),
			option.WithRequestTimeout(e.Timeout),
		),
		model: e.Model,
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
	return response(resp)
}

// Stream is Complete with the reply streamed (stream: true, with the usage asked for
// at the end): text is called with each piece of the reply's content as it arrives,
// and the assembled reply is returned once the stream ends. A stream that breaks off,
// or ends before a finish reason, is a retryable error like a failed request: the
// call is tried again whole.
func (c *Client) Stream(ctx context.Context, msgs []schemas.ChatMessage, tools []Tool, text func(string)) (schemas.ModelResponse, error) {
	params, err := c.params(msgs, tools)
	if err != nil {
		return schemas.ModelResponse{}, err
	}
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := c.api.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		chunk := stream.Current()
		if acc.ID != "" {
			chunk.ID = acc.ID // some endpoints number a stream's chunks, or leave the usage chunk's ID empty
		}
		if !acc.AddChunk(chunk) {
			return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model stream sent a chunk out of order"}
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			text(chunk.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil {
		return schemas.ModelResponse{}, classify(err)
	}
	if len(acc.Choices) == 0 || acc.Choices[0].FinishReason == "" {
		return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model stream ended before its reply did"}
	}
	return response(&acc.ChatCompletion)
}

// params is the request for msgs and tools.
func (c *Client) params(msgs []schemas.ChatMessage, tools []Tool) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.model)}
	for _, m := range msgs {
		p, err := toParam(m)
		if err != nil {
			return params, err
		}
		params.Messages = append(params.Messages, p)
	}
	for _, t := range tools {
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  shared.FunctionParameters(t.Parameters),
		}))
	}
	return params, nil
}

// response is the reply of a completion: its first choice, the model and the usage.
func response(resp *openai.ChatCompletion) (schemas.ModelResponse, error) {
	if len(resp.Choices) == 0 {
		return schemas.ModelResponse{}, &APIError{StatusCode: http.StatusBadGateway, Message: "model returned no choices"}
	}
	choice := resp.Choices[0]
	out := schemas.ModelResponse{Content: choice.Message.Content, FinishReason: choice.FinishReason, Model: resp.Model,
		Usage: schemas.TokenUsage{Prompt: resp.Usage.PromptTokens, Completion: resp.Usage.CompletionTokens, Total: resp.Usage.TotalTokens}}
	for _, tc := range choice.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		out.ToolCalls = append(out.ToolCalls, schemas.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return out, nil
}

func toParam(m schemas.ChatMessage) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case schemas.MsgSystem:
		return openai.SystemMessage(m.Content), nil
	case schemas.MsgUser:
		return openai.UserMessage(m.Content), nil
	case schemas.MsgTool:
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case schemas.MsgAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" {
			a.Content.OfString = openai.String(m.Content)
		}
		for _, tc := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown message role %q", m.Role)
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
