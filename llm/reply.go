package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/lexflow/lexflow/schemas"
)

// wireCompletion and wireChunk are a completion and a streamed chunk as providers
// write them, read apart from openai-go's types so that the fields some providers
// add (reasoning, reasoning_content, reasoning_details, extra_content) and the ones
// they leave out (a tool call's index, its id) can be seen.
type wireCompletion struct {
	Model   string `json:"model"`
	ID      string `json:"id"`
	Choices []struct {
		Index        int         `json:"index"`
		Message      wireMessage `json:"message"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *schemas.TokenUsage `json:"usage"`
}

type wireChunk struct {
	Model   string `json:"model"`
	ID      string `json:"id"`
	Choices []struct {
		Index        int         `json:"index"`
		Delta        wireMessage `json:"delta"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *schemas.TokenUsage `json:"usage"`
}

// wireMessage is a message, or a delta of one. Fields holds every field as written,
// for those the provider wants echoed.
type wireMessage struct {
	Content   json.RawMessage `json:"content"`
	ToolCalls []wireToolCall  `json:"tool_calls"`
	Fields    map[string]json.RawMessage
}

func (m *wireMessage) UnmarshalJSON(b []byte) error {
	type plain wireMessage
	if err := json.Unmarshal(b, (*plain)(m)); err != nil {
		return err
	}
	return json.Unmarshal(b, &m.Fields)
}

// wireToolCall is a tool call, or a delta of one; Index is nil where the provider
// leaves it out (Gemini).
type wireToolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
	Fields map[string]json.RawMessage
}

func (c *wireToolCall) UnmarshalJSON(b []byte) error {
	type plain wireToolCall
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return json.Unmarshal(b, &c.Fields)
}

// textOf is a JSON string's text, or for any other value (an object some servers
// write for arguments) its JSON; null is "".
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// reply is a model's answer, assembled from a completion or a stream.
type reply struct {
	id, model, content, finish string
	usage                      schemas.TokenUsage
	calls                      []*call
	// fields are the assistant message's fields the provider wants echoed.
	fields map[string]json.RawMessage
}

// call is one tool call of a reply; fields are those the provider wants echoed with it.
type call struct {
	index          int // -1 when the provider gave none
	id, name, args string
	fields         map[string]json.RawMessage
}

// fromCompletion is the reply of an unstreamed completion: its first choice.
func fromCompletion(w wireCompletion, p profile) (reply, bool) {
	if len(w.Choices) == 0 {
		return reply{}, false
	}
	choice := w.Choices[0]
	r := reply{id: w.ID, model: w.Model, content: textOf(choice.Message.Content), finish: choice.FinishReason}
	if w.Usage != nil {
		r.usage = *w.Usage
	}
	r.fields = accumulate(r.fields, choice.Message.Fields, p.echoMessage)
	for i, tc := range choice.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		r.calls = append(r.calls, &call{index: i, id: tc.ID, name: tc.Function.Name, args: textOf(tc.Function.Arguments),
			fields: accumulate(nil, tc.Fields, p.echoToolCall)})
	}
	return r, true
}

// response is the reply as Lexflow's workflows take it. Every call gets an ID of its
// own (Gemini leaves them empty), so that each gets its own tool message; a reply that
// calls tools finishes as "tool_calls" even where the provider said "stop" (Gemini
// streamed); what the provider wants back goes in Echo; Provider names the profile
// the request was shaped by.
func (r reply) response(provider Provider) schemas.ModelResponse {
	out := schemas.ModelResponse{Content: r.content, FinishReason: r.finish, Model: r.model, Provider: string(provider), Usage: r.usage}
	seen := map[string]bool{}
	for i, c := range r.calls {
		if c.id == "" || seen[c.id] {
			c.id = callID(r.id, i, c)
		}
		seen[c.id] = true
		out.ToolCalls = append(out.ToolCalls, schemas.ToolCall{ID: c.id, Name: c.name, Arguments: c.args})
	}
	if len(out.ToolCalls) > 0 && out.FinishReason == "stop" {
		out.FinishReason = "tool_calls"
	}
	out.Echo = r.echo(provider)
	return out
}

// callID names a call that came without an ID of its own, the same way each time the
// same reply is read.
func callID(replyID string, i int, c *call) string {
	sum := sha256.Sum256([]byte(replyID + "\x00" + strconv.Itoa(i) + "\x00" + c.name + "\x00" + c.args))
	return fmt.Sprintf("call_%d_%s", i, hex.EncodeToString(sum[:6]))
}

// accumulate adds the named fields of a message or a delta to acc, as a stream
// spreads them: strings are joined, arrays appended, anything else replaced; null
// adds nothing.
func accumulate(acc, fields map[string]json.RawMessage, names []string) map[string]json.RawMessage {
	for _, n := range names {
		v, ok := fields[n]
		if !ok || string(v) == "null" {
			continue
		}
		if acc == nil {
			acc = map[string]json.RawMessage{}
		}
		acc[n] = joined(acc[n], v)
	}
	return acc
}

// joined is a field's value so far followed by its next piece.
func joined(prev, next json.RawMessage) json.RawMessage {
	if prev == nil {
		return next
	}
	var a, b string
	if json.Unmarshal(prev, &a) == nil && json.Unmarshal(next, &b) == nil {
		out, _ := json.Marshal(a + b)
		return out
	}
	var la, lb []json.RawMessage
	if json.Unmarshal(prev, &la) == nil && json.Unmarshal(next, &lb) == nil {
		out, _ := json.Marshal(append(la, lb...))
		return out
	}
	return next
}
