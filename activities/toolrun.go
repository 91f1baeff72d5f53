package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/tools"
)

// ClaimCheckBytes is the raw result size from which the raw result is kept in the
// blob store and only a reference travels with the text the model reads.
const ClaimCheckBytes = 32 << 10

// ToolRunner runs a tool's activity method and formats its result inside the one
// activity (the claim-check pattern): the raw result, which may be many megabytes,
// never becomes an activity result that Temporal must carry. Large raw results are kept
// in the blob store under the call's key.
type ToolRunner struct {
	Blobs blob.Store
	// ContextTokens is the assistant model's context size, which each tool's budget
	// is a share of (tools.Budget); 0 means schemas.DefaultContextTokens.
	ContextTokens int
	// Events publishes tool.started and tool.finished for each attempt.
	Events  *Publisher
	methods map[string]reflect.Value
}

// NewToolRunner indexes the methods of the activity structs that tools name.
func NewToolRunner(blobs blob.Store, acts ...any) *ToolRunner {
	r := &ToolRunner{Blobs: blobs, methods: map[string]reflect.Value{}}
	for _, a := range acts {
		v := reflect.ValueOf(a)
		for i := range v.NumMethod() {
			r.methods[v.Type().Method(i).Name] = v.Method(i)
		}
	}
	return r
}

var contextType = reflect.TypeFor[context.Context]()

// RunTool runs one call of a tool that an activity runs and returns the text the
// model reads of it, shaped to the tool's budget (tools.Tool.Show),
// its failure, and, for a result of ClaimCheckBytes or more, the key the raw result is
// kept under. The tool's own error is returned as it is, so its policy decides the
// retries; an unknown tool or arguments it cannot decode are not retried. It
// heartbeats while the tool runs, so that a worker lost mid-call shows as a heartbeat
// timeout, not as the tool's.
func (r *ToolRunner) RunTool(ctx context.Context, in schemas.RunToolInput) (schemas.ToolOutput, error) {
	tool, ok := tools.Get(in.Tool)
	var method reflect.Value
	if ok {
		method, ok = r.methods[tool.Activity]
	}
	if !ok {
		return schemas.ToolOutput{}, temporal.NewNonRetryableApplicationError("no activity runs tool "+in.Tool, schemas.ErrInvalidArgs, nil)
	}
	var args map[string]any
	if err := json.Unmarshal(in.Args, &args); err != nil {
		return schemas.ToolOutput{}, temporal.NewNonRetryableApplicationError("tool arguments: "+err.Error(), schemas.ErrInvalidArgs, err)
	}
	typed, err := tool.Decode(args)
	if err != nil {
		return schemas.ToolOutput{}, temporal.NewNonRetryableApplicationError("tool arguments: "+err.Error(), schemas.ErrInvalidArgs, err)
	}
	mt := method.Type()
	if mt.NumIn() != 2 || mt.In(0) != contextType || mt.In(1) != reflect.TypeOf(typed) || mt.NumOut() != 2 {
		return schemas.ToolOutput{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("activity %s does not take %T", tool.Activity, typed), schemas.ErrInvalidArgs, nil)
	}
	defer heartbeat(ctx)()
	if in.Op != "" {
		ctx = withOp(ctx, in.Op)
	}
	attempt := attemptOf(ctx)
	r.Events.Tell(ctx, fmt.Sprintf("%s#%d", schemas.EventToolStarted, attempt), schemas.EventToolStarted,
		schemas.ToolStartedEvent{Tool: tool.Name, Args: args})
	start := time.Now()
	o, err := r.call(ctx, tool, method, typed, in.ResultKey, in.Raw)
	finished := schemas.ToolFinishedEvent{Tool: tool.Name, Status: schemas.ToolOK, LatencyMS: time.Since(start).Milliseconds(),
		Summary: tools.Clip(o.Text, schemas.EventSummaryChars), ResultRef: o.Ref}
	switch {
	case err != nil:
		logRetry(ctx, tool, err)
		finished.Status, finished.Error, finished.Summary = schemas.ToolFailed, err.Error(), ""
	case o.Failure != "":
		finished.Status, finished.Error = schemas.ToolFailed, o.Failure
	}
	r.Events.Tell(ctx, fmt.Sprintf("%s#%d", schemas.EventToolFinished, attempt), schemas.EventToolFinished, finished)
	return o, err
}

// call runs the tool's method and shapes, and when large keeps, its result;
// a small one is returned as it is too when wantRaw.
func (r *ToolRunner) call(ctx context.Context, tool *tools.Tool, method reflect.Value, typed any, resultKey string, wantRaw bool) (schemas.ToolOutput, error) {
	out := method.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(typed)})
	if e, _ := out[1].Interface().(error); e != nil {
		return schemas.ToolOutput{}, e
	}
	raw, err := json.Marshal(out[0].Interface())
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	text, failure := tool.Show(raw, r.ContextTokens)
	o := schemas.ToolOutput{Text: text, Failure: failure}
	if len(raw) >= ClaimCheckBytes {
		if err := r.Blobs.Put(ctx, resultKey, raw); err != nil {
			return schemas.ToolOutput{}, fmt.Errorf("keep the result: %w", err)
		}
		o.Ref = resultKey
	} else if wantRaw {
		o.Raw = raw
	}
	return o, nil
}
