package offline_test

import (
	"context"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/lexflow/lexflow/llm/offline"
)

// TestStreamedAnswersReassemble asks the offline model for the same answers with and
// without stream: true, through OpenAI's own Go client: its stream accumulator puts
// the chunks back together into the very answer, text or tool call, with the same
// finish reason and usage, and a stream comes in several chunks.
func TestStreamedAnswersReassemble(t *testing.T) {
	srv, err := offline.StartWith("127.0.0.1:0", offline.Options{ChunkDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	client := openai.NewClient(option.WithBaseURL(srv.BaseURL), option.WithAPIKey("none"), option.WithMaxRetries(0))
	tool := openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_case_details",
		Parameters: shared.FunctionParameters{"type": "object"}})
	for name, params := range map[string]openai.ChatCompletionNewParams{
		"text": {Model: offline.ModelName, Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("Case ID: c-9\nLanguage: en"), openai.UserMessage("Hello, who are you?")}},
		"tool call": {Model: offline.ModelName, Tools: []openai.ChatCompletionToolUnionParam{tool}, Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("Case ID: c-9\nLanguage: ro"), openai.UserMessage("Arată-mi detaliile cazului, te rog")}},
	} {
		t.Run(name, func(t *testing.T) {
			plain, err := client.Chat.Completions.New(t.Context(), params)
			if err != nil {
				t.Fatal(err)
			}
			params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
			stream := client.Chat.Completions.NewStreaming(t.Context(), params)
			var acc openai.ChatCompletionAccumulator
			chunks := 0
			for stream.Next() {
				if !acc.AddChunk(stream.Current()) {
					t.Fatalf("chunk %d does not follow the ones before: %s", chunks, stream.Current().RawJSON())
				}
				chunks++
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			want, got := plain.Choices[0], acc.Choices[0]
			if chunks < 3 || got.Message.Content != want.Message.Content || got.FinishReason != want.FinishReason {
				t.Errorf("%d chunks gave %q (%s), want %q (%s)", chunks, got.Message.Content, got.FinishReason, want.Message.Content, want.FinishReason)
			}
			if len(got.Message.ToolCalls) != len(want.Message.ToolCalls) {
				t.Fatalf("tool calls %+v, want %+v", got.Message.ToolCalls, want.Message.ToolCalls)
			}
			for i, c := range got.Message.ToolCalls {
				if w := want.Message.ToolCalls[i]; c.ID != w.ID || c.Function.Name != w.Function.Name || c.Function.Arguments != w.Function.Arguments {
					t.Errorf("tool call %d = %+v, want %+v", i, c, w)
				}
			}
			if acc.Usage.TotalTokens == 0 || acc.Usage.TotalTokens != plain.Usage.TotalTokens {
				t.Errorf("usage %+v, want %+v", acc.Usage, plain.Usage)
			}
		})
	}
}
