package activities

import "context"

// opID names the running activity's write. It is the same on every attempt of one
// activity execution, so a store given it applies the write once, even when an
// attempt's answer was lost and the activity ran again; withOp sets it for a call run
// again as a new activity. Outside an activity (a test calling the method) it is "".
func opID(ctx context.Context) string {
	if op, ok := ctx.Value(opKey{}).(string); ok {
		return op
	}
	r, ok := runOf(ctx)
	if !ok {
		return ""
	}
	return r.id()
}
