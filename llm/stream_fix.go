package llm

import (
	"encoding/json"
	"strings"
)

// assembly builds a reply from a stream's chunks, as every provider streams it:
// chunks with no choices (Azure's prompt filter results, a usage chunk) add what they
// carry; a chunk whose choice has no finish reason (Azure's filter offsets,
// OpenRouter's usage chunk) does not undo an earlier one; usage is taken from
// whichever chunk brings it; reasoning never joins the content.
type assembly struct {
	reply
	content strings.Builder
	profile profile
}

// add takes in one chunk and returns the piece of the reply's content it carried.
func (a *assembly) add(ch wireChunk) string {
	if a.id == "" {
		a.id = ch.ID
	}
	if a.model == "" {
		a.model = ch.Model
	}
	if ch.Usage != nil {
		a.usage = *ch.Usage
	}
	var piece string
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue // Lexflow asks for one choice
		}
		piece += textOf(choice.Delta.Content)
		a.fields = accumulate(a.fields, choice.Delta.Fields, a.profile.echoMessage)
		for _, tc := range choice.Delta.ToolCalls {
			a.stitch(tc)
		}
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
		}
	}
	a.content.WriteString(piece)
	return piece
}

// stitch adds a tool-call delta to the call it continues, or starts a call with it.
// A delta continues the call with its ID; without one, the latest call at its index,
// or with no index (Gemini) the latest call. It starts a call when there is none, when
// it brings an ID the call lacks, or when it names a function and the call already has
// a name and whole arguments (Gemini sends each parallel call whole, every one at
// index 0).
func (a *assembly) stitch(tc wireToolCall) {
	index := -1
	if tc.Index != nil && *tc.Index >= 0 {
		index = *tc.Index
	}
	c := a.continued(tc.ID, index)
	if c == nil || (tc.ID != "" && c.id != "" && c.id != tc.ID) ||
		(tc.Function.Name != "" && c.name != "" && json.Valid([]byte(c.args))) {
		c = &call{index: index}
		a.calls = append(a.calls, c)
	}
	if c.id == "" {
		c.id = tc.ID
	}
	if c.name == "" {
		c.name = tc.Function.Name
	}
	c.args += textOf(tc.Function.Arguments)
	c.fields = accumulate(c.fields, tc.Fields, a.profile.echoToolCall)
}

// continued is the call a delta with this ID and index continues, or nil.
func (a *assembly) continued(id string, index int) *call {
	if id != "" {
		for _, c := range a.calls {
			if c.id == id {
				return c
			}
		}
	}
	for i := len(a.calls) - 1; i >= 0; i-- {
		if index < 0 || a.calls[i].index == index {
			return a.calls[i]
		}
	}
	return nil
}

// result is the assembled reply.
func (a *assembly) result() reply {
	r := a.reply
	r.content = a.content.String()
	return r
}
