package llm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Embedder calls an OpenAI-compatible /v1/embeddings endpoint: the vectors dense
// retrieval ranks articles by. Like Client, it sends each request once, bounded by the
// endpoint's timeout; Temporal or the caller decides what to retry.
type Embedder struct {
	api   openai.Client
	model string
}

// NewEmbedder returns an embedder for endpoint e (its BaseURL, Model, APIKey and
// Timeout; the other fields are for chat endpoints).
func NewEmbedder(e Endpoint) *Embedder {
	key := e.APIKey
	if key == "" {
		key = "none" // local servers need no key
	}
	return &Embedder{
		api: openai.NewClient(option.WithAPIKey(key), option.WithMaxRetries(0),
			option.WithRequestTimeout(e.Timeout), option.WithBaseURL(e.BaseURL)),
		model: e.Model,
	}
}

// Model names the model the embedder asks for: vectors of different models do not
// compare.
func (e *Embedder) Model() string { return e.model }

// Embed returns one vector per input, in the inputs' order, and the tokens the
// endpoint says it used. An answer with a vector missing, out of place or of another
// length than the others is an error: vectors that do not line up cannot be ranked.
func (e *Embedder) Embed(ctx context.Context, inputs []string) ([][]float32, int64, error) {
	if len(inputs) == 0 {
		return nil, 0, nil
	}
	resp, err := e.api.Embeddings.New(ctx, openai.EmbeddingNewParams{
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: inputs},
		Model:          openai.EmbeddingModel(e.model),
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	})
	if err != nil {
		return nil, 0, classify(err)
	}
	if len(resp.Data) != len(inputs) {
		return nil, 0, &APIError{StatusCode: http.StatusBadGateway,
			Message: fmt.Sprintf("embeddings endpoint answered %d vectors for %d inputs", len(resp.Data), len(inputs))}
	}
	out := make([][]float32, len(inputs))
	for _, d := range resp.Data {
		i := int(d.Index)
		if i < 0 || i >= len(out) || out[i] != nil || len(d.Embedding) == 0 || len(d.Embedding) != len(resp.Data[0].Embedding) {
			return nil, 0, &APIError{StatusCode: http.StatusBadGateway, Message: fmt.Sprintf("embeddings endpoint answered a bad vector at index %d", d.Index)}
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		out[i] = v
	}
	return out, resp.Usage.TotalTokens, nil
}
