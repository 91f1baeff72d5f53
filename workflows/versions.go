package workflows

// Change IDs of workflow.GetVersion: each names one change to workflow code that
// running cases must replay around (see docs/workflows.md, "Changing workflow code"). A
// change stays here as long as histories recorded before it may still be running.
const (
	// changeSignalsInMainLoop (version 1): the Case's main loop takes its signals
	// from their channels itself, where before a goroutine received them and could
	// hold one, not yet queued, when the case continued as new: that signal was lost.
	// While the Case waits for its handlers before continuing as new, a signal that
	// arrives is handled at once rather than after them (a settle update among them
	// may be waiting for it).
	changeSignalsInMainLoop = "signals-in-main-loop"

	// changeTurnDeadline (version 1): a ChatTurn has a deadline timer
	// (ChatTurnInput.Timeout), and the cancel signal or the deadline cancels the step
	// the turn waits for, where before a cancel waited for the step to finish.
	changeTurnDeadline = "turn-deadline"

	// changeToolResultsClaimCheck (version 1): a tool that an activity runs is called
	// through the RunTool activity, which formats and bounds its result and keeps a
	// large raw result in the blob store (ToolUse.ResultRef), where before the raw
	// result came back to the workflow and could pass Temporal's payload limit.
	changeToolResultsClaimCheck = "tool-results-claim-check"

	// changeTokenBudgets (version 1): a model call refused because the case's or its
	// tenant's model-token budget for the day is used up ends the turn, or tiering,
	// with what it has, and the Case waits in waiting_budget until the day turns or an
	// admin raises the budget (signal budget-raised), where before the refusal failed
	// the turn. The version is recorded where the first refusal arrives.
	changeTokenBudgets = "token-budgets"

	// changeStallForSupport (version 1): a step of the Case's own that fails for good
	// (a store write out of retries or refused, a phase's child workflow, the tier's
	// record refused) pauses the case for support, keeping the step for support's
	// resume to run again, where before the Case workflow failed; support's retry that
	// fails no longer fails the Case either. The version is recorded where the first
	// failure arrives.
	changeStallForSupport = "stall-for-support"

	// changeTenantKey (version 1): each run of a Case also sets the Tenant search
	// attribute, its TenantKey, where TenantID alone ("acme", or a user's subject)
	// could not tell an organization from a user of the same name.
	changeTenantKey = "tenant-key"

	// changeTurnFailedEvent (version 1): a ChatTurn that fails runs the
	// RecordTurnFailed activity, which publishes turn.failed to the case's event log,
	// before it fails, where before a failed turn left no event. The version is
	// recorded where the failure arrives.
	changeTurnFailedEvent = "turn-failed-event"

	// changeDraftCitations (version 1): a Draft checks its draft's citations (the
	// CheckText activity) before rendering; those the corpus disproves, finds misquoted
	// or repealed are listed on a last "Citations to check" page, recorded with the
	// revision and answered to the model, where before a draft was rendered unchecked.
	changeDraftCitations = "draft-citations"

	// changeLocalTurnSteps (version 1): a ChatTurn records the user's message, checks
	// its reply's citations and records the turn as local activities, run within the
	// workflow task that asks for them, where before each was an activity dispatched
	// through the task queue: two fewer workflow tasks and three fewer activity
	// dispatches a turn. Model calls and tools stay activities. A local step that
	// fails for localStepBudget runs as an activity.
	changeLocalTurnSteps = "local-turn-steps"

	// changeRerunLostSteps (version 1): a ChatTurn's model call, reasoner consultation
	// or tool run by RunTool (whose policy allows retries) whose last attempt's worker
	// was lost (a heartbeat timeout) is run again, with its retry policy's attempts
	// anew, up to maxLostSteps times a turn, where before the step failed: a worker
	// killed four times under a model call failed the turn. RunTool heartbeats for
	// this, and a tool's writes carry the call's op (RunToolInput.Op), the same on a
	// run again. The version is recorded where the first such failure arrives.
	changeRerunLostSteps = "rerun-lost-steps"
)
