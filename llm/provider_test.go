package llm_test

import (
	"testing"

	"github.com/lexflow/lexflow/llm"
)

// TestProviderFor checks that a named provider is taken as named and an unnamed one
// guessed from its base URL, Generic when the URL tells nothing.
func TestProviderFor(t *testing.T) {
	for _, tc := range []struct {
		name, baseURL string
		want          llm.Provider
	}{
		{"", "https://api.openai.com/v1", llm.OpenAI},
		{"", "https://lexflow.openai.azure.com/openai", llm.Azure},
		{"", "https://lexflow.cognitiveservices.azure.com/openai/v1", llm.Azure},
		{"", "https://generativelanguage.googleapis.com/v1beta/openai/", llm.Gemini},
		{"", "https://api.x.ai/v1", llm.XAI},
		{"", "https://api.deepseek.com", llm.DeepSeek},
		{"", "https://openrouter.ai/api/v1", llm.OpenRouter},
		{"", "http://localhost:11434/v1", llm.Ollama},
		{"", "http://127.0.0.1:1234/v1", llm.LMStudio},
		{"", "http://localhost:4000/v1", llm.Generic},
		{"", "http://vllm:8000/v1", llm.Generic},
		{"vllm", "http://vllm:8000/v1", llm.VLLM},
		{" Gemini ", "http://localhost:4000/v1", llm.Gemini},
	} {
		got, err := llm.ProviderFor(tc.name, tc.baseURL)
		if err != nil || got != tc.want {
			t.Errorf("ProviderFor(%q, %q) = %q, %v; want %q", tc.name, tc.baseURL, got, err, tc.want)
		}
	}
	if p, err := llm.ProviderFor("anthropic", "https://api.anthropic.com/v1"); err == nil {
		t.Errorf("an unknown provider was taken as %q", p)
	}
}
