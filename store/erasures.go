package store

import (
	"context"
	"errors"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Errors of legal holds and erasures.
var (
	// ErrHeld means a case is under a legal hold, so it is not erased.
	ErrHeld = errors.New("case under legal hold")
	// ErrErasing means a case's erasure has begun, so nothing may hold it any more.
	ErrErasing = errors.New("case being erased")
	// ErrOthersHold means a case's hold was set by the operator's staff, or another
	// organization's, whom it is left to.
	ErrOthersHold = errors.New("hold set by others")
)

// Hold is a legal hold on a case: while it stands, the case is not erased, at its
// owner's request or by retention. By and Org are the admin who set it and their
// organization (empty: the operator's staff).
type Hold struct {
	By     string    `json:"by,omitempty"`
	Org    string    `json:"org,omitempty"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// Erasures keeps legal holds and the receipts of erasures, and deletes a case's data.
type Erasures interface {
	// SetHold puts a legal hold on a case, replacing one it has, or lifts it (h nil),
	// for an admin of organization org (empty: the operator's staff, who may change
	// any hold; an organization's admin changes only a hold of its own, else
	// ErrOthersHold). It returns ErrNotFound, or ErrErasing once the case's erasure has
	// begun.
	SetHold(ctx context.Context, caseID, org string, h *Hold) error
	// BeginErasure records that a case's erasure has begun (at e.RequestedAt, or now
	// if it is zero), taking the case's owner and creation time from the store, unless the case is under a legal hold
	// (ErrHeld). Beginning again returns the first receipt, with the first requester
	// and reason, even once the case's data is gone; a case never stored is
	// ErrNotFound. A case being erased is left out of ListCases, and an erased one
	// still counts in CountCases.
	BeginErasure(ctx context.Context, e schemas.Erasure) (schemas.Erasure, error)
	// EraseCaseData deletes what the store keeps of a case (the case, its transcript,
	// parties, tickets, events, deadlines and linked court files), all but its
	// erasure's receipt, and counts it.
	// Erasing again deletes what was written since and counts that.
	EraseCaseData(ctx context.Context, caseID string) (schemas.Erased, error)
	// FinishErasure records what an erasure deleted and when it finished, unless it
	// finished before, and returns the receipt; a case whose erasure never began is
	// ErrNotFound.
	FinishErasure(ctx context.Context, caseID string, erased schemas.Erased, at time.Time) (schemas.Erasure, error)
	// GetErasure returns a case's erasure receipt, or ErrNotFound.
	GetErasure(ctx context.Context, caseID string) (schemas.Erasure, error)
	// ExpiredCases returns the IDs of an organization's closed cases (org empty: of
	// users of none) last updated before a time, neither held nor being erased,
	// oldest first, at most limit.
	ExpiredCases(ctx context.Context, org string, before time.Time, limit int) ([]string, error)
	// StalledErasures returns the IDs of cases whose erasure began before a time and
	// has not finished, oldest first, at most limit.
	StalledErasures(ctx context.Context, before time.Time, limit int) ([]string, error)
}
