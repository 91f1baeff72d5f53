package offline

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// streamed is an answer to send as a stream of chunks.
type streamed struct {
	id, model, finish string
	reply             reply
	usage             map[string]int
	withUsage         bool
}

// Chunk sizes of a streamed answer: words of its content, characters of a tool
// call's arguments.
const (
	wordsPerChunk = 3
	argsPerChunk  = 24
)

// stream sends the answer as a real endpoint streams one: Server-Sent Events of
// chat.completion.chunk objects (the role first, then the content a few words at a
// time, or each tool call's name and then its arguments in pieces), a last chunk with
// the finish reason, a usage chunk when stream_options.include_usage asks, and
// [DONE], with o.ChunkDelay between chunks. A client that goes away ends it.
func (o Options) stream(w http.ResponseWriter, r *http.Request, s streamed) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	first := true
	send := func(v any) bool {
		if !first && o.ChunkDelay > 0 {
			select {
			case <-r.Context().Done():
				return false
			case <-time.After(o.ChunkDelay):
			}
		}
		first = false
		raw, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", raw); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": s.id, "object": "chat.completion.chunk", "created": 0, "model": s.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if !send(chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	for _, piece := range contentPieces(s.reply.content) {
		if !send(chunk(map[string]any{"content": piece}, nil)) {
			return
		}
	}
	for i, c := range s.reply.calls {
		head := map[string]any{"index": i, "id": c.ID, "type": "function", "function": map[string]any{"name": c.Function.Name, "arguments": ""}}
		if !send(chunk(map[string]any{"tool_calls": []any{head}}, nil)) {
			return
		}
		for _, piece := range argPieces(c.Function.Arguments) {
			part := map[string]any{"index": i, "function": map[string]any{"arguments": piece}}
			if !send(chunk(map[string]any{"tool_calls": []any{part}}, nil)) {
				return
			}
		}
	}
	if !send(chunk(map[string]any{}, s.finish)) {
		return
	}
	if s.withUsage && !send(map[string]any{"id": s.id, "object": "chat.completion.chunk", "created": 0, "model": s.model,
		"choices": []any{}, "usage": s.usage}) {
		return
	}
	_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// contentPieces cuts text into pieces of a few words, each keeping the spaces after
// its words, so that the pieces joined are the text.
func contentPieces(text string) []string {
	var out []string
	words, start := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			if i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\n' {
				if words++; words == wordsPerChunk {
					out = append(out, text[start:i+1])
					start, words = i+1, 0
				}
			}
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// argPieces cuts a tool call's JSON arguments into pieces of argsPerChunk bytes, never
// inside a UTF-8 sequence.
func argPieces(args string) []string {
	var out []string
	for len(args) > 0 {
		n := min(argsPerChunk, len(args))
		for n < len(args) && !utf8Start(args[n]) {
			n++
		}
		out = append(out, args[:n])
		args = args[n:]
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
