package activities

import (
	"context"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// RecordSourceFailure counts a degrade-class tool's failure for its source, across
// cases, and answers how many failures of it the store holds within
// schemas.SourceFailureWindow: at schemas.SourceFailureLimit the turn opens the
// operator's ticket of the day.
func (a *Tickets) RecordSourceFailure(ctx context.Context, in schemas.RecordSourceFailure) (schemas.SourceFailures, error) {
	n, err := a.Sources.RecordSourceFailure(ctx, store.SourceFailure{ID: in.ID, Tool: in.Tool, At: in.At}, schemas.SourceFailureWindow)
	if err != nil {
		return schemas.SourceFailures{}, err
	}
	return schemas.SourceFailures{Failures: n}, nil
}
