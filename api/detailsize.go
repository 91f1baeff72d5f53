package api

import (
	"errors"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// detailsFit refuses, as 413 too-large, an admin's run of update_case_details whose
// updates would take the case's details past their limits (store.CheckDetailsSize),
// before the run starts. The run checks again against the case as it is then; updates
// that are invalid otherwise are the run's to refuse, as the model's are.
func detailsFit(tool string, details map[string]any, args map[string]any) error {
	updates, ok := args["updates"].(map[string]any)
	if tool != schemas.ToolUpdateCaseDetails || !ok {
		return nil
	}
	fields, err := store.ParseUpdates(updates)
	if err == nil {
		err = store.CheckDetailsSize(details, fields)
	}
	if errors.Is(err, store.ErrDetailsTooLarge) {
		return problemf(errTooLarge, err.Error())
	}
	return nil
}
