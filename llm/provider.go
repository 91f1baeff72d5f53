package llm

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Provider is the kind of OpenAI-compatible endpoint a Client talks to. Each speaks
// the same wire format with its own quirks, which its profile answers
// (docs/providers.md).
type Provider string

// The providers Lexflow has a profile for.
const (
	OpenAI     Provider = "openai"
	Azure      Provider = "azure"
	Gemini     Provider = "gemini"
	XAI        Provider = "xai"
	DeepSeek   Provider = "deepseek"
	VLLM       Provider = "vllm"
	Ollama     Provider = "ollama"
	OpenRouter Provider = "openrouter"
	LMStudio   Provider = "lmstudio"
	// Generic is any other endpoint: requests as OpenAI shapes them, answers read
	// as tolerantly as for every provider.
	Generic Provider = "generic"
)

// profile is how Lexflow speaks to one provider. Answers are read the same way for
// every provider (tool-call deltas stitched with or without an index, finish reasons
// and call IDs made whole, reasoning kept apart from the reply), since each of those
// repairs is harmless where it is not needed; a profile says what differs in the
// requests.
type profile struct {
	// parameters rewrites a tool's JSON Schema into what the provider accepts; nil
	// sends it as it is.
	parameters func(map[string]any) map[string]any
	// echoMessage names the fields of an assistant message, and echoToolCall those
	// of its tool calls, that the provider wants sent back as it wrote them.
	echoMessage, echoToolCall []string
	// deployments puts the model's deployment in the path, as api-version asks, and
	// authenticates with an api-key header (Azure).
	deployments bool
}

// profiles holds each provider's profile.
var profiles = map[Provider]profile{
	OpenAI: {},
	Azure:  {deployments: true},
	// Gemini refuses schema keywords it does not know, and validates the thought
	// signatures of the current turn's function calls
	// (https://ai.google.dev/gemini-api/docs/thought-signatures).
	Gemini: {parameters: geminiParameters, echoToolCall: []string{"extra_content"}},
	XAI:    {},
	// In thinking mode with tools, DeepSeek refuses an assistant message with tool
	// calls that lacks its reasoning_content
	// (https://api-docs.deepseek.com/guides/thinking_mode).
	DeepSeek: {echoMessage: []string{"reasoning_content"}},
	VLLM:     {},
	Ollama:   {},
	// OpenRouter asks for reasoning_details back with tool calls, so that the
	// model it routes to keeps its reasoning
	// (https://openrouter.ai/docs/use-cases/reasoning-tokens).
	OpenRouter: {echoMessage: []string{"reasoning_details"}},
	LMStudio:   {},
	Generic:    {},
}

// Providers lists the providers' names, as LEXFLOW_<ROLE>_PROVIDER takes them.
func Providers() []Provider {
	out := make([]Provider, 0, len(profiles))
	for p := range profiles {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ProviderFor returns the provider name names, or when name is empty the one
// baseURL's host tells (Generic when it tells none).
func ProviderFor(name, baseURL string) (Provider, error) {
	if name == "" {
		return guessProvider(baseURL), nil
	}
	p := Provider(strings.ToLower(strings.TrimSpace(name)))
	if _, ok := profiles[p]; !ok {
		return "", fmt.Errorf("unknown model provider %q: want one of %v", name, Providers())
	}
	return p, nil
}

// guessProvider tells a provider by its API's well-known host, or by the default port
// of a local server (Ollama's 11434, LM Studio's 1234).
func guessProvider(baseURL string) Provider {
	u, err := url.Parse(baseURL)
	if err != nil {
		return Generic
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "api.openai.com":
		return OpenAI
	case strings.HasSuffix(host, ".openai.azure.com"), strings.HasSuffix(host, ".cognitiveservices.azure.com"),
		strings.HasSuffix(host, ".services.ai.azure.com"):
		return Azure
	case host == "generativelanguage.googleapis.com":
		return Gemini
	case host == "api.x.ai":
		return XAI
	case host == "api.deepseek.com":
		return DeepSeek
	case host == "openrouter.ai":
		return OpenRouter
	case u.Port() == "11434":
		return Ollama
	case u.Port() == "1234":
		return LMStudio
	}
	return Generic
}
