package activities

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// permanent turns a store error that no retry can mend (a missing case, an update the
// document's shape does not allow) into a non-retryable ErrInvalidArgs, and leaves any
// other error for the activity's retry policy.
func permanent(err error) error {
	if errors.Is(err, store.ErrInvalidField) || errors.Is(err, store.ErrNotFound) {
		return temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	}
	return err
}

// failed names the step of a case tool that err failed (one of schemas.FailedSteps)
// before its reason, which the ladder shows the model and the reasoner, as seed 003
// words its errors ("Cloud Storage upload failed"). It wraps err, so errors.Is still
// finds what it wraps.
func failed(step string, err error) error {
	return fmt.Errorf("%s: %w", step, err)
}
