package activities

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/llm"
)

// chatServer answers every chat completion with status and, on 200, content, as an
// OpenAI-compatible endpoint does; it keeps the last request's body.
func chatServer(t *testing.T, status int, content string, body *string) *llm.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*body = string(b)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status != http.StatusOK {
			w.Write([]byte(`{"error":{"message":"nope","type":"x"}}`))
			return
		}
		c, _ := json.Marshal(content)
		w.Write([]byte(`{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,` +
			`"message":{"role":"assistant","content":` + string(c) + `},"finish_reason":"stop"}],` +
			`"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`))
	}))
	t.Cleanup(srv.Close)
	return llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second})
}

func TestRewriteReadsTheModelsJSON(t *testing.T) {
	var body string
	r := &Rewriter{Model: chatServer(t, 200, "```json\n{\"ro\": \"locator garanție locațiune\", \"it\": \"locatore deposito cauzionale\"}\n```", &body)}
	got, err := r.Rewrite(context.Background(), "my landlord keeps my deposit", []string{"ro", "it"})
	if err != nil || got["ro"] != "locator garanție locațiune" || got["it"] != "locatore deposito cauzionale" {
		t.Fatalf("Rewrite = %v, %v", got, err)
	}
	if !strings.Contains(body, "ro, it") || !strings.Contains(body, "my landlord keeps my deposit") {
		t.Errorf("the request did not name the languages and the question: %s", body)
	}
}

func TestRewriteFailsClosed(t *testing.T) {
	var body string
	for name, content := range map[string]string{
		"not JSON":           "Here is the rewrite: locator",
		"a language unasked": `{"ro": "locator", "fr": "bailleur"}`,
		"a value too long":   `{"ro": "` + strings.Repeat("a", maxRewriteLanguage+1) + `"}`,
		"an answer too long": `{"ro": "locator"}` + strings.Repeat(" ", maxRewriteAnswer),
		"not strings":        `{"ro": ["locator"]}`,
		"empty":              `{}`,
	} {
		r := &Rewriter{Model: chatServer(t, 200, content, &body)}
		if got, err := r.Rewrite(context.Background(), "q", []string{"ro"}); err != nil || got != nil {
			t.Errorf("%s: Rewrite = %v, %v; want nothing", name, got, err)
		}
	}
	if got, err := (&Rewriter{}).Rewrite(context.Background(), "q", []string{"ro"}); err != nil || got != nil {
		t.Errorf("without a model: %v, %v", got, err)
	}
	if got, err := (&Rewriter{Model: chatServer(t, 400, "", &body)}).Rewrite(context.Background(), "q", []string{"ro"}); err != nil || got != nil {
		t.Errorf("a refused request: %v, %v; want no rewrite and no error", got, err)
	}
	if _, err := (&Rewriter{Model: chatServer(t, 503, "", &body)}).Rewrite(context.Background(), "q", []string{"ro"}); err == nil || !llm.Retryable(err) {
		t.Errorf("an overloaded endpoint: %v; want a retryable error", err)
	}
}
