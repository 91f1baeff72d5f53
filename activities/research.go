package activities

import (
	"context"
	"errors"
	"slices"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
)

// Research are the activities that read the legal corpus.
type Research struct {
	Corpus *corpus.Store
}

// LegalSQL is the legal_sql tool, seed 003's query_bigquery: one read-only SELECT over
// legislatie or jurisprudenta, at most corpus.MaxRows rows. A refused or failing query
// is an answer for the model, with seed 003's error texts; only an unreadable corpus is
// an activity failure.
func (a *Research) LegalSQL(ctx context.Context, args schemas.LegalSQLArgs) (schemas.LegalSQLResult, error) {
	if !slices.Contains(corpus.QueryTables, args.TableName) {
		return schemas.LegalSQLResult{Status: schemas.ResultError, ErrorMessage: "Invalid table name"}, nil
	}
	res, err := a.Corpus.Query(ctx, args.QueryString, args.TableName, corpus.DefaultQueryTimeout)
	switch {
	case errors.Is(err, corpus.ErrRefused):
		return schemas.LegalSQLResult{Status: schemas.ResultError, ErrorMessage: "Unauthorized access: " + err.Error()}, nil
	case err != nil && ctx.Err() == nil:
		return schemas.LegalSQLResult{Status: schemas.ResultError, ErrorMessage: "Query execution failed: " + err.Error()}, nil
	case err != nil:
		return schemas.LegalSQLResult{}, err
	}
	return schemas.LegalSQLResult{Status: schemas.ResultSuccess, Results: res.Rows, Truncated: res.Truncated}, nil
}
