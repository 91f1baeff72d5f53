package modelctx

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
)

// Pseudonymize returns msgs as the model reads them: the text of every message and
// the arguments of every tool call pseudonymized at once with the case's parties
// (internal/pseudonym), so that a value has the same marker throughout the call. A
// call's arguments that a marker left no longer JSON (a number read as a phone
// number, say) become {}: the model reads that it called the tool, not what with.
func Pseudonymize(ctx context.Context, msgs []schemas.ChatMessage, parties []pseudonym.Party) ([]schemas.ChatMessage, error) {
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.Content)
		for _, c := range m.ToolCalls {
			texts = append(texts, c.Arguments)
		}
	}
	texts, err := pseudonym.Pages(ctx, texts, parties)
	if err != nil {
		return nil, err
	}
	out := make([]schemas.ChatMessage, len(msgs))
	i := 0
	next := func() string { i++; return texts[i-1] }
	for k, m := range msgs {
		m.Content = next()
		if len(m.ToolCalls) > 0 {
			calls := make([]schemas.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				if c.Arguments = next(); !json.Valid([]byte(c.Arguments)) {
					c.Arguments = "{}"
				}
				calls[j] = c
			}
			m.ToolCalls = calls
		}
		out[k] = m
	}
	return out, nil
}

// Pseudonymized is c as the model reads it: its messages pseudonymized
// (Pseudonymize) and its parts and total measured again, placeholders and all.
func (c Context) Pseudonymized(ctx context.Context, parties []pseudonym.Party) (Context, error) {
	msgs, err := Pseudonymize(ctx, c.Messages, parties)
	if err != nil {
		return c, err
	}
	out := c
	out.Messages, out.Parts, out.Tokens = msgs, slices.Clone(c.Parts), 0
	for i, m := range msgs {
		out.Parts[i].Chars, out.Parts[i].Tokens = measure(m)
		out.Tokens += out.Parts[i].Tokens
	}
	return out, nil
}
