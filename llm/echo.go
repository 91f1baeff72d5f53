package llm

import (
	"encoding/json"

	"github.com/lexflow/lexflow/schemas"
)

// echo is what schemas.ModelResponse.Echo and schemas.ChatMessage.Echo hold: the
// fields of an assistant message (Message) and of its tool calls (ToolCalls, by call
// ID) that Provider wants sent back as it wrote them, such as DeepSeek's
// reasoning_content or Gemini's extra_content with its thought signature.
type echo struct {
	Provider  Provider                              `json:"provider"`
	Message   map[string]json.RawMessage            `json:"message,omitempty"`
	ToolCalls map[string]map[string]json.RawMessage `json:"tool_calls,omitempty"`
}

// echo is what r's provider wants back with r, or nil when it wants nothing.
func (r reply) echo(provider Provider) json.RawMessage {
	e := echo{Provider: provider, Message: r.fields}
	for _, c := range r.calls {
		if len(c.fields) > 0 {
			if e.ToolCalls == nil {
				e.ToolCalls = map[string]map[string]json.RawMessage{}
			}
			e.ToolCalls[c.id] = c.fields
		}
	}
	if len(e.Message) == 0 && len(e.ToolCalls) == 0 {
		return nil
	}
	out, _ := json.Marshal(e) // maps of raw JSON always marshal
	return out
}

// echoed is what m's echo asks to send back to provider: nothing unless provider
// wrote it, so that one provider's reasoning never reaches another.
func echoed(m schemas.ChatMessage, provider Provider) echo {
	var e echo
	if len(m.Echo) == 0 || json.Unmarshal(m.Echo, &e) != nil || e.Provider != provider {
		return echo{}
	}
	return e
}

// extra turns echoed fields into the extra fields of a request parameter.
func extra(fields map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		out[k] = v
	}
	return out
}
