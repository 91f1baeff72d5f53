package activities

import (
	"errors"

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
