// Package modelctx assembles what a model call reads, in one place: the system
// prompt, the case's earlier turns (the client's messages, the assistant's answers,
// its tool calls with the texts their results showed the model, and support's notes)
// shaped by token budgets, newest first and summarized where they do not fit, then
// the turn's own messages. The worker's model calls (activities.Model.CallModel) and
// the admin's view of a case's next call (GET /v1/admin/cases/{id}/context) both
// assemble here, and both pseudonymize the result with Pseudonymize.
package modelctx

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// Shares of the assistant model's context, in percent.
const (
	// HistoryPercent is what the earlier turns may take at most.
	HistoryPercent = 40
	// ReservePercent is kept free of the system prompt, the earlier turns and the
	// turn's own messages, for the tools' definitions and the model's answer.
	ReservePercent = 15
)

// Bounds of what summarizes the turns left out.
const (
	// HistoryRecords is how many of a case's latest records a call reads for its
	// earlier turns; older ones are named by one line.
	HistoryRecords = 120
	// summaryLines is how many left-out turns get a line of their own, the newest.
	summaryLines = 10
	// summaryQuote caps what a line quotes of the client's question and the answer.
	summaryQuote = 160
)

// Record is what the assembly reads of a transcript record (store.Record).
type Record struct {
	ID      string
	TurnNo  int
	Seq     int
	Role    schemas.RecordRole
	Content string
	// Tool is a tool record's call; nil for any other.
	Tool *ToolCall
}

// ToolCall is what the assembly reads of a tool record's call (store.ToolRecord).
type ToolCall struct {
	Name, Args, Status string
	// Shown is the text the model read of the result; "" for records kept before it
	// was, which show their summary (the record's Content).
	Shown string
}

// Input is what a call is assembled from.
type Input struct {
	// System is the role's system prompt.
	System string
	// Earlier are the case's records before the turn, in turn order; More says the
	// case has older ones than these, so that the oldest turn here may lack some of
	// its records: it is left out, with the older ones, in a line.
	Earlier []Record
	More    bool
	// Turn are the turn's own messages so far: the client's message, the model's
	// steps and their tool results.
	Turn []schemas.ChatMessage
	// ContextTokens is the assistant model's context size (0: the default).
	ContextTokens int
}

// Part describes one message of the call: what it is and its size.
type Part struct {
	// Kind is system, summary, user, assistant, tool_calls, tool or support, and for
	// the turn's own messages turn_<role>.
	Kind string `json:"kind"`
	// TurnNo is the earlier turn the message comes from (0 for the system prompt,
	// the summary and the turn's own messages).
	TurnNo int    `json:"turn_no,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"`
	// Note says how the part was shaped: cut to its tool's budget, or shown as its
	// summary for the turn to fit.
	Note string `json:"note,omitempty"`
}

// Context is an assembled call: its messages and, for each, its part; the earlier
// turns left out, with the line that summarizes each; and the budgets they were
// measured against, in estimated tokens (tools.Tokens).
type Context struct {
	Messages      []schemas.ChatMessage `json:"messages"`
	Parts         []Part                `json:"parts"`
	Dropped       []Dropped             `json:"dropped"`
	ContextTokens int                   `json:"context_tokens"`
	HistoryBudget int                   `json:"history_budget"`
	Tokens        int                   `json:"tokens"`
}

// Dropped is an earlier turn left out of the call and the line that tells the model
// of it, "" when it is counted in the summary's last line instead.
type Dropped struct {
	TurnNo int    `json:"turn_no"`
	Line   string `json:"line,omitempty"`
}

// Assemble builds a call's messages: the system prompt; a system message
// summarizing the earlier turns left out, if any; the earlier turns kept; the turn's
// own messages. Earlier turns are kept newest first while they fit the history's
// budget (HistoryPercent of the context, less when the system prompt and the turn
// take more than their share); a turn that does not fit whole is tried with its
// tool results as their summaries; the first that fits in neither way is left out
// with every older one, each summarized by a line (summaryLines of them; the rest
// counted). A tool result is cut to its tool's budget (tools.Budget). Tool calls
// take the OpenAI shape: an assistant message with tool_calls, then a tool message
// for each with its tool_call_id, made from the record's ID (CallID).
func Assemble(in Input) Context {
	ctxTokens := tools.ContextTokens(in.ContextTokens)
	out := Context{ContextTokens: ctxTokens, Dropped: []Dropped{}}
	fixed := tools.Tokens(in.System)
	for _, m := range in.Turn {
		fixed += msgTokens(m)
	}
	out.HistoryBudget = max(min(ctxTokens*HistoryPercent/100, ctxTokens*(100-ReservePercent)/100-fixed), 0)

	turns := groupTurns(in.Earlier)
	if in.More && len(turns) > 1 {
		turns = turns[1:] // the oldest may have lost records to the read's limit
	}
	var kept [][]part // newest first
	used, cut := 0, 0 // turns[:cut] are left out
	for i := len(turns) - 1; i >= 0; i-- {
		whole := turns[i].parts(ctxTokens, false)
		if n := partsTokens(whole); used+n <= out.HistoryBudget {
			kept, used = append(kept, whole), used+n
			continue
		}
		short := turns[i].parts(ctxTokens, true)
		if n := partsTokens(short); used+n <= out.HistoryBudget {
			kept, used = append(kept, short), used+n
			continue
		}
		cut = i + 1
		break
	}

	add := func(m schemas.ChatMessage, p Part) {
		p.Chars, p.Tokens = measure(m)
		out.Messages, out.Parts = append(out.Messages, m), append(out.Parts, p)
		out.Tokens += p.Tokens
	}
	add(schemas.ChatMessage{Role: schemas.MsgSystem, Content: in.System}, Part{Kind: "system"})
	if summary := out.summarize(turns[:cut], in.More, earliest(turns)); summary != "" {
		add(schemas.ChatMessage{Role: schemas.MsgSystem, Content: summary}, Part{Kind: "summary"})
	}
	for _, ps := range slices.Backward(kept) {
		for _, p := range ps {
			add(p.msg, p.Part)
		}
	}
	for _, m := range in.Turn {
		add(m, Part{Kind: "turn_" + m.Role})
	}
	return out
}

// earliest is the number of the first turn read, 0 for none.
func earliest(turns []turn) int {
	if len(turns) == 0 {
		return 0
	}
	return turns[0].no
}

// summarize returns the message that tells the model of the turns left out, and
// records them in c.Dropped; "" when none was.
func (c *Context) summarize(dropped []turn, more bool, first int) string {
	if len(dropped) == 0 && !more {
		return ""
	}
	var lines []string
	for i, t := range dropped {
		d := Dropped{TurnNo: t.no}
		if i >= len(dropped)-summaryLines {
			d.Line = t.line()
			lines = append(lines, "- "+d.Line)
		}
		c.Dropped = append(c.Dropped, d)
	}
	head := "Earlier turns of this case not shown in full, to fit the model's context (oldest first):"
	if n := len(dropped) - summaryLines; n > 0 {
		lines = slices.Insert(lines, 0, fmt.Sprintf("- %d older turns.", n))
	}
	if more {
		lines = slices.Insert(lines, 0, fmt.Sprintf("- The turns before turn %d are not shown.", first))
	}
	return head + "\n" + strings.Join(lines, "\n")
}

// turn is an earlier turn's records, in their order.
type turn struct {
	no   int
	recs []Record
}

// groupTurns groups records, in turn order, by turn.
func groupTurns(recs []Record) []turn {
	var out []turn
	for _, r := range recs {
		if len(out) == 0 || out[len(out)-1].no != r.TurnNo {
			out = append(out, turn{no: r.TurnNo})
		}
		out[len(out)-1].recs = append(out[len(out)-1].recs, r)
	}
	return out
}

// part is a message of an earlier turn with its description.
type part struct {
	msg schemas.ChatMessage
	Part
}

// parts are the turn's messages; summaries shows its tool results as their
// summaries (the records' content) rather than the texts the model read.
func (t turn) parts(ctxTokens int, summaries bool) []part {
	var out []part
	for i := 0; i < len(t.recs); i++ {
		r := t.recs[i]
		switch {
		case r.Tool != nil:
			j := i
			for j < len(t.recs) && t.recs[j].Tool != nil {
				j++
			}
			out = append(out, toolParts(t.no, t.recs[i:j], ctxTokens, summaries)...)
			i = j - 1
		case r.Role == schemas.RecordUser:
			out = append(out, part{schemas.ChatMessage{Role: schemas.MsgUser, Content: r.Content}, Part{Kind: "user", TurnNo: t.no}})
		case r.Role == schemas.RecordAssistant:
			out = append(out, part{schemas.ChatMessage{Role: schemas.MsgAssistant, Content: r.Content}, Part{Kind: "assistant", TurnNo: t.no}})
		case r.Role == schemas.RecordSupport:
			out = append(out, part{schemas.ChatMessage{Role: schemas.MsgSystem, Content: "[Support note] " + r.Content},
				Part{Kind: "support", TurnNo: t.no}})
		}
	}
	return out
}

// toolParts are a run of tool records as the model made them: one assistant message
// with their calls, then each call's result, cut to its tool's budget.
func toolParts(no int, recs []Record, ctxTokens int, summaries bool) []part {
	calls := schemas.ChatMessage{Role: schemas.MsgAssistant}
	var results []part
	for _, r := range recs {
		id := CallID(r.ID)
		args := r.Tool.Args
		if !json.Valid([]byte(args)) {
			args = "{}"
		}
		calls.ToolCalls = append(calls.ToolCalls, schemas.ToolCall{ID: id, Name: r.Tool.Name, Arguments: args})
		text, note := r.Tool.Shown, ""
		if text == "" || summaries {
			text = r.Content
			if summaries && r.Tool.Shown != "" && r.Tool.Shown != r.Content {
				note = "shown as its summary, for the turn to fit"
			}
		}
		if tool, ok := tools.Get(r.Tool.Name); ok {
			if fit := tools.Fit(text, tool.Budget.Chars(ctxTokens)); fit != text {
				text, note = fit, "cut to the tool's budget"
			}
		}
		results = append(results, part{schemas.ChatMessage{Role: schemas.MsgTool, ToolCallID: id, Content: text},
			Part{Kind: "tool", TurnNo: no, Tool: r.Tool.Name, Note: note}})
	}
	return append([]part{{calls, Part{Kind: "tool_calls", TurnNo: no}}}, results...)
}

// line summarizes a turn left out: the client's question and the answer's start,
// clipped, and the tools it used.
func (t turn) line() string {
	var asked, answered string
	var used []string
	for _, r := range t.recs {
		switch {
		case r.Tool != nil:
			used = append(used, fmt.Sprintf("%s (%s)", r.Tool.Name, r.Tool.Status))
		case r.Role == schemas.RecordUser:
			asked = r.Content
		case r.Role == schemas.RecordAssistant:
			answered = r.Content
		}
	}
	parts := []string{fmt.Sprintf("Turn %d", t.no)}
	if asked != "" {
		parts = append(parts, "the client wrote «"+quote(asked)+"»")
	}
	if len(used) > 0 {
		parts = append(parts, "tools used: "+strings.Join(used, ", "))
	}
	if answered != "" {
		parts = append(parts, "the answer began «"+quote(answered)+"»")
	}
	return strings.Join(parts, "; ") + "."
}

// quote is s on one line, cut to summaryQuote characters.
func quote(s string) string { return tools.Clip(strings.Join(strings.Fields(s), " "), summaryQuote) }

// CallID is the tool_call_id of a tool record's call in later calls' history: made
// from the record's ID, so every call shows the same one, and short and plain enough
// for every provider.
func CallID(recordID string) string {
	sum := sha256.Sum256([]byte(recordID))
	return "call_" + hex.EncodeToString(sum[:12])
}

func partsTokens(ps []part) int {
	n := 0
	for _, p := range ps {
		n += msgTokens(p.msg)
	}
	return n
}

// measure is a message's size in characters and estimated tokens: its text and its
// calls' names and arguments.
func measure(m schemas.ChatMessage) (chars, tokens int) {
	return len([]rune(m.Content)) + argsChars(m), msgTokens(m)
}

// msgTokens estimates a message's tokens: its text and its calls' names and
// arguments.
func msgTokens(m schemas.ChatMessage) int {
	return tools.Tokens(m.Content) + (argsChars(m)+tools.CharsPerToken-1)/tools.CharsPerToken
}

func argsChars(m schemas.ChatMessage) int {
	n := 0
	for _, c := range m.ToolCalls {
		n += len([]rune(c.Name)) + len([]rune(c.Arguments))
	}
	return n
}
