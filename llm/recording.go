package llm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Recording is one model exchange as a file under a recordings directory holds it:
// the request's body as sent and the answer's body as it came (a streamed answer's
// server-sent events whole), with no header of either, so that no API key is ever
// written. Role, Step and Tools are what a replay matches it by; Asked tells apart
// the turns of one role that share them.
type Recording struct {
	// Role is the model role that asked: the system prompt's "Role: <role>" line.
	Role string `json:"role"`
	// Step counts the model calls before this one in its turn, and Tools names the
	// tools they called, in order.
	Step  int      `json:"step"`
	Tools []string `json:"tools"`
	// Asked is the message that opened the turn: the client's, or the tiering's
	// description.
	Asked       string          `json:"asked"`
	Request     json.RawMessage `json:"request"`
	Status      int             `json:"status"`
	ContentType string          `json:"content_type"`
	Response    string          `json:"response"`
}

// key is what a request is matched by: its role, its step and the tools called so
// far in its turn.
type key struct {
	role  string
	step  int
	tools string
}

func (r Recording) key() key { return key{r.Role, r.Step, strings.Join(r.Tools, ",")} }

func (k key) String() string {
	tools := k.tools
	if tools == "" {
		tools = "none"
	}
	return fmt.Sprintf("role %s, step %d, tools so far %s", k.role, k.step, tools)
}

// exchangeOf reads from a chat-completions request's body what a recording is
// matched by: the role from the first system message's "Role: " line, and the turn,
// everything after the last user message: its assistant messages are its earlier
// steps, and their tool calls the tools called so far.
func exchangeOf(body []byte) (Recording, error) {
	var req struct {
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Recording{}, fmt.Errorf("read the model request: %w", err)
	}
	r := Recording{Role: "unknown", Tools: []string{}, Request: json.RawMessage(slices.Clone(body))}
	turn := 0
	for i, m := range req.Messages {
		switch m.Role {
		case "system":
			if r.Role == "unknown" {
				if role, ok := roleLine(contentText(m.Content)); ok {
					r.Role = role
				}
			}
		case "user":
			turn, r.Asked = i+1, contentText(m.Content)
		}
	}
	for _, m := range req.Messages[turn:] {
		if m.Role != "assistant" {
			continue
		}
		r.Step++
		for _, c := range m.ToolCalls {
			r.Tools = append(r.Tools, c.Function.Name)
		}
	}
	return r, nil
}

// roleLine finds the "Role: <role>" line that every system prompt ends its header
// with (internal/prompts).
func roleLine(system string) (string, bool) {
	for line := range strings.Lines(system) {
		if role, ok := strings.CutPrefix(strings.TrimSpace(line), "Role: "); ok && role != "" {
			return role, true
		}
	}
	return "", false
}

// contentText is a message's content, sent as a string or as text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
