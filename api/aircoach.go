package api

import (
	"encoding/json"
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Stream dialects: ?events= on a stream. Lexflow's events always come; with
// aircoach, AIR Coach's (seed 002) come beside them.
const (
	dialectLexflow  = "lexflow"
	dialectAirCoach = "aircoach"
)

// streamDialect reads ?events=, refusing a value it does not know; aircoach is true
// when AIR Coach's events are wanted.
func streamDialect(c echo.Context) (aircoach bool, err error) {
	switch d := c.QueryParam("events"); d {
	case "", dialectLexflow:
		return false, nil
	case dialectAirCoach:
		return true, nil
	default:
		return false, problemf(errInvalidInput, fmt.Sprintf("events is %q or %q, not %q", dialectLexflow, dialectAirCoach, d))
	}
}

// AirCoachToolResult is AIR Coach's tool_result event: a tool's name and its output
// as Lexflow's tool.finished tells it.
type AirCoachToolResult struct {
	Type     string         `json:"type"`
	ToolName string         `json:"tool_name"`
	Data     map[string]any `json:"data"`
}

// AirCoachMessage is AIR Coach's agent_message event: a piece of the assistant's
// answer as it streams.
type AirCoachMessage struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

// airCoachEvent is the AIR Coach event an event of the log makes, if any: tool.finished
// makes tool_result, and the assistant's model.delta makes agent_message.
func airCoachEvent(e store.Event) (any, bool) {
	switch e.Type {
	case schemas.EventToolFinished:
		var b schemas.ToolFinishedEvent
		if json.Unmarshal(e.Body, &b) != nil {
			return nil, false
		}
		data := map[string]any{"status": b.Status, "latency_ms": b.LatencyMS}
		if b.Summary != "" {
			data["summary"] = b.Summary
		}
		if b.Error != "" {
			data["error"] = b.Error
		}
		return AirCoachToolResult{Type: "tool_result", ToolName: b.Tool, Data: data}, true
	case schemas.EventModelDelta:
		var b schemas.ModelDeltaEvent
		if json.Unmarshal(e.Body, &b) != nil || b.Role != schemas.ModelAssistant || b.Text == "" {
			return nil, false
		}
		return AirCoachMessage{Type: "agent_message", Content: b.Text}, true
	}
	return nil, false
}

// writeAirCoach writes an AIR Coach event as AIR Coach's stream does: a data line with
// no event name and no id, so that Last-Event-ID stays Lexflow's.
func (f *follower) writeAirCoach(v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	res := f.c.Response()
	httpserver.Stream(res.Writer, writeStall)
	if _, err := fmt.Fprintf(res, "data: %s\n\n", raw); err != nil {
		return err
	}
	res.Flush()
	return nil
}
