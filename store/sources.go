package store

import (
	"context"
	"time"
)

// SourceFailure is one failure of a research source: a degrade-class tool whose call
// failed after its retries, in any case.
type SourceFailure struct {
	// ID names the failed call: recording the same ID twice counts it once.
	ID   string    `json:"id"`
	Tool string    `json:"tool"`
	At   time.Time `json:"at"`
}

// SourceFailures counts the research sources' failures across cases, so that a source
// that keeps failing is told to the operator.
type SourceFailures interface {
	// RecordSourceFailure stores f unless a failure with its ID is stored, forgets
	// f.Tool's failures from before f.At-window, and returns how many of f.Tool's
	// failures it holds after f.At-window, f among them. What it keeps of a tool is
	// bounded by the failures of one window.
	RecordSourceFailure(ctx context.Context, f SourceFailure, window time.Duration) (int, error)
}
