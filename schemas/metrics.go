package schemas

// The series that workflows and activities record through Temporal's metrics handler,
// which records nothing while a workflow replays. A process's /metrics shows each with
// the suffix Prometheus gives it: _total for a counter, _seconds for a timer.
const (
	// MetricTurns counts chat turns by how they ended (tag outcome: TurnOutcomes).
	MetricTurns = "lexflow_turns"
	// MetricTurnLatency times chat turns from the user's message to the answer.
	MetricTurnLatency = "lexflow_turn_latency"
	// MetricTurnSteps counts the tool loop's steps (model calls) of turns, by outcome:
	// its rate over MetricTurns' is the mean steps per turn.
	MetricTurnSteps = "lexflow_turn_steps"
	// MetricToolCalls counts tool calls by tool and status (ok, error, invalid, ...).
	MetricToolCalls = "lexflow_tool_calls"
	// MetricLadderRungs counts the escalation ladder's rungs that turns reached (tag
	// rung: the Rung* values).
	MetricLadderRungs = "lexflow_ladder_rungs"
	// MetricModelTokens counts the tokens model calls used, by role.
	MetricModelTokens = "lexflow_model_tokens"
)

// Turn outcomes, the MetricTurns tag.
const (
	TurnCompleted = "completed"
	TurnCancelled = "cancelled"
	TurnTimedOut  = "timed_out"
	TurnBudget    = "budget"
	TurnFailed    = "failed"
)

// TurnOutcomes are every outcome MetricTurns counts.
var TurnOutcomes = []string{TurnCompleted, TurnCancelled, TurnTimedOut, TurnBudget, TurnFailed}

// LadderRungs are every rung MetricLadderRungs counts.
var LadderRungs = []string{RungReasoner, RungAdvice, RungAskUser, RungAnswer, RungTicket}
