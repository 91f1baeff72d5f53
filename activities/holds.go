package activities

import (
	"context"
	"errors"
	"time"

	"github.com/lexflow/lexflow/store"
)

// heldRefusal is the refusal of a write to a case under a legal hold, the tool's
// answer to the model or to the admin who ran it, or "" when the case has no hold (or
// is not found: the write says so). A hold freezes the case's content until it is
// lifted; it is checked before each write, so a write that started before the hold
// was set may still land.
func heldRefusal(ctx context.Context, cases store.Cases, caseID string) (string, error) {
	c, err := cases.GetCase(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if c.Hold == nil {
		return "", nil
	}
	return "Refused: the case is under a legal hold since " + c.Hold.At.UTC().Format(time.RFC3339) +
		"; its content cannot change until the hold is lifted", nil
}
