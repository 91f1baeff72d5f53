package schemas

import "strings"

// Types of the events in a case's event log (store.Events). A turn's events, in the
// order a turn writes them: turn.started; for each model call, model.retry when it is
// tried again, model.delta with its text as it is generated, and model.step when it
// answered; tool.started and tool.finished around each tool call; escalation for each
// rung a failed tool climbs; citations; and turn.completed, turn.cancelled or
// turn.failed. The case's own: status (its phase and status moved), notice (a line it
// wrote into the transcript, such as tiering's answer), draft.ready, and escalation
// for a ticket opened when the client did not answer the ladder's question.
const (
	EventTurnStarted   = "turn.started"
	EventModelRetry    = "model.retry"
	EventModelDelta    = "model.delta"
	EventModelStep     = "model.step"
	EventToolStarted   = "tool.started"
	EventToolFinished  = "tool.finished"
	EventCitations     = "citations"
	EventTurnCompleted = "turn.completed"
	EventTurnCancelled = "turn.cancelled"
	EventTurnFailed    = "turn.failed"
	EventEscalation    = "escalation"
	EventStatus        = "status"
	EventNotice        = "notice"
	EventDraftReady    = "draft.ready"
	// The steps of an uploaded document: stored, read and summarized, or failed.
	EventDocumentReceived = "document.received"
	EventDocumentRead     = "document.read"
	EventDocumentFailed   = "document.failed"
)

// TurnStartedEvent is turn.started's body: the client's message, and the request that
// sent it (the API's update ID), by which a streaming request finds its turn.
type TurnStartedEvent struct {
	TurnNo    int    `json:"turn_no"`
	Message   string `json:"message"`
	RequestID string `json:"request_id,omitempty"`
}

// StatusEvent is status's body: where the case stands now.
type StatusEvent struct {
	Phase  string `json:"phase"`
	Status string `json:"status"`
}

// NoticeEvent is notice's body: a line the case wrote into the transcript.
type NoticeEvent struct {
	Role RecordRole `json:"role"`
	Text string     `json:"text"`
}

// CitationsEvent is citations' body: the reply's citations as the check found them.
type CitationsEvent struct {
	Citations []Citation `json:"citations"`
}

// DraftReadyEvent is draft.ready's body: a rendered revision and where to download it.
type DraftReadyEvent struct {
	DraftName string `json:"draft_name"`
	Revision  int    `json:"revision"`
	SHA256    string `json:"sha256"`
	Size      int64  `json:"size"`
	Download  string `json:"download"`
	// CitationsToCheck are the draft's citations listed on its last page (see
	// RenderedDraft.CitationsToCheck).
	CitationsToCheck []string `json:"citations_to_check,omitempty"`
}

// ModelStepEvent is model.step's body: the model role that answered, the tools it
// chose (none: it answered in text) and why it stopped.
type ModelStepEvent struct {
	Role         ModelRole `json:"role"`
	ToolCalls    []string  `json:"tool_calls"`
	FinishReason string    `json:"finish_reason"`
}

// ModelDeltaEvent is model.delta's body: a piece of the text the model role is
// generating, in its attempt; the pieces of an attempt joined are its text.
type ModelDeltaEvent struct {
	Role    ModelRole `json:"role"`
	Attempt int32     `json:"attempt"`
	Text    string    `json:"text"`
}

// ModelRetryEvent is model.retry's body: the attempt that starts; a client drops the
// text the failed attempt streamed.
type ModelRetryEvent struct {
	Role    ModelRole `json:"role"`
	Attempt int32     `json:"attempt"`
}

// ToolStartedEvent is tool.started's body.
type ToolStartedEvent struct {
	Tool string `json:"tool"`
	Args any    `json:"args"`
}

// ToolFinishedEvent is tool.finished's body (AIR Coach's tool_result): the tool, how it
// went, how long it took, and the text the model reads of its result, bounded.
type ToolFinishedEvent struct {
	Tool      string `json:"tool"`
	Status    string `json:"status"`
	LatencyMS int64  `json:"latency_ms"`
	Summary   string `json:"summary,omitempty"`
	Error     string `json:"error,omitempty"`
	ResultRef string `json:"result_ref,omitempty"`
}

// EscalationEvent is escalation's body: a rung of the ladder that a failed tool call
// reached (RungReasoner with the reasoner's advice, RungAskUser with the question
// put to the client, RungTicket with the ticket opened).
type EscalationEvent struct {
	Rung     string `json:"rung"`
	Tool     string `json:"tool"`
	Error    string `json:"error"`
	Advice   string `json:"advice,omitempty"`
	Question string `json:"question,omitempty"`
	TicketID string `json:"ticket_id,omitempty"`
}

// EscalationEventOf is the event of the rung e has reached.
func EscalationEventOf(e Escalation) EscalationEvent {
	return EscalationEvent{Rung: e.Rung, Tool: e.Tool, Error: e.Error, Advice: e.Advice, Question: e.Question, TicketID: e.TicketID}
}

// TurnFailedEvent is turn.failed's body: why the turn failed (a model that refused the
// request or stayed down through its retries, a store write out of retries).
type TurnFailedEvent struct {
	Reason string `json:"reason"`
}

// EventSummaryChars bounds the summary a tool.finished event carries.
const EventSummaryChars = 2000

// TurnOfWorkflow is the turn workflow ID that a workflow of a turn (the turn, or a
// ticket its model opened) runs under, or "".
func TurnOfWorkflow(workflowID string) string {
	i := strings.Index(workflowID, ":turn:")
	if i < 0 {
		return ""
	}
	rest := workflowID[i+len(":turn:"):]
	if j := strings.IndexByte(rest, ':'); j >= 0 {
		rest = rest[:j]
	}
	return workflowID[:i] + ":turn:" + rest
}
