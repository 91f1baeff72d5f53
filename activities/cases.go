package activities

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Cases are the activities on case documents, including the case tools of seed 003.
type Cases struct {
	Store store.Cases
	// Parties are listed, as placeholders, by get_case_details; nil lists none.
	Parties store.Parties
	// Events publishes the case's status moves.
	Events *Publisher
}

// GetCaseDetails is the get_case_details tool: case_details, but for the uploads'
// records (see schemas.DocumentsField), with the placeholders of the case's parties;
// or, with a path, the one part of case_details it names.
// A missing case or path is an answer for the model, not a failure; a store error is
// retried, named schemas.FailedStoreRead.
func (a *Cases) GetCaseDetails(ctx context.Context, args schemas.GetCaseDetailsArgs) (schemas.GetCaseDetailsResult, error) {
	c, err := a.Store.GetCase(ctx, args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.GetCaseDetailsResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	}
	if err != nil {
		return schemas.GetCaseDetailsResult{}, failed(schemas.FailedStoreRead, err)
	}
	details := maps.Clone(c.Details)
	// The uploads' records name the files as the client did; the models read documents
	// through list_documents, pseudonymized.
	delete(details, schemas.DocumentsField)
	if args.Path != "" {
		v, ok := detailsAt(details, args.Path)
		if !ok {
			return schemas.GetCaseDetailsResult{Status: schemas.ResultError,
				ErrorMessage: fmt.Sprintf("case_details has nothing at %q; leave path out to read the whole case file", args.Path)}, nil
		}
		return schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess, Path: args.Path, Value: v}, nil
	}
	res := schemas.GetCaseDetailsResult{Status: schemas.ResultSuccess, CaseDetails: details, Parties: []schemas.PartyPlaceholder{}}
	if a.Parties != nil {
		parties, err := a.Parties.ListParties(ctx, args.CaseID)
		if err != nil {
			return schemas.GetCaseDetailsResult{}, failed(schemas.FailedStoreRead, err)
		}
		for _, p := range parties {
			res.Parties = append(res.Parties, placeholdersOf(p))
		}
	}
	return res, nil
}

// detailsAt is the value at a dot path of case_details: a name picks an object's
// field, a number from 0 a list's item.
func detailsAt(details map[string]any, path string) (any, bool) {
	var v any = details
	for seg := range strings.SplitSeq(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// placeholdersOf are the placeholders a party's values fill in drafts
// (internal/reidentify), for the values it has.
func placeholdersOf(p store.Party) schemas.PartyPlaceholder {
	out := schemas.PartyPlaceholder{PartyID: p.ID, Placeholders: []string{}}
	for _, f := range []struct {
		field string
		has   bool
	}{{"name", true}, {"firstName", p.FirstName != ""}, {"lastName", p.LastName != ""},
		{"fullName", p.FirstName != "" || p.LastName != ""}, {"companyName", p.CompanyName != ""},
		{"cnp", p.CNP != ""}, {"cui", p.CUI != ""}, {"address", p.Address != ""}, {"email", p.Email != ""}} {
		if f.has {
			out.Placeholders = append(out.Placeholders, "{{"+p.ID+"."+f.field+"}}")
		}
	}
	return out
}

// UpdateCaseDetails is the update_case_details tool: dot-path updates of case_details,
// appending to log fields. Invalid fields, the fields the system owns unless a
// workflow writes them (args.System), and a tool's updates past case_details' size
// limits (store.CheckDetailsSize) are reported to the model; store errors retried,
// named schemas.FailedStoreUpdate. A case under a legal hold refuses every update but the workflow's own.
func (a *Cases) UpdateCaseDetails(ctx context.Context, args schemas.UpdateCaseDetailsArgs) (schemas.StatusResult, error) {
	if !args.System {
		for _, path := range slices.Sorted(maps.Keys(args.Updates)) {
			if field, _, _ := strings.Cut(path, "."); slices.Contains(schemas.SystemFields, field) {
				return schemas.StatusResult{Status: schemas.ResultError,
					ErrorMessage: fmt.Sprintf("Update failed due to invalid field: %q is written by Lexflow itself, not by tools", path)}, nil
			}
		}
		refusal, err := heldRefusal(ctx, a.Store, args.CaseID)
		if err != nil {
			return schemas.StatusResult{}, err
		}
		if refusal != "" {
			return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: refusal}, nil
		}
	}
	var err error
	if !args.System { // the workflow's own writes are not counted: no read before them
		err = a.checkSize(ctx, args)
	}
	if err == nil {
		_, err = a.Store.UpdateDetails(ctx, args.CaseID, args.ExpectedVersion, opID(ctx), args.Updates)
	}
	switch {
	case errors.Is(err, store.ErrDetailsTooLarge):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: "Update refused: " + err.Error()}, nil
	case errors.Is(err, store.ErrNotFound):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	case errors.Is(err, store.ErrInvalidField):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: "Update failed due to invalid field: " + err.Error()}, nil
	case errors.Is(err, store.ErrVersionConflict):
		return schemas.StatusResult{Status: schemas.ResultError, ErrorMessage: "Update refused: " + err.Error()}, nil
	case err != nil:
		return schemas.StatusResult{}, failed(schemas.FailedStoreUpdate, err)
	}
	return schemas.StatusResult{Status: schemas.ResultSuccess}, nil
}

// checkSize reads the case and refuses updates that would take its case_details past
// their limits (store.CheckDetailsSize), with store.ErrDetailsTooLarge.
func (a *Cases) checkSize(ctx context.Context, args schemas.UpdateCaseDetailsArgs) error {
	fields, err := store.ParseUpdates(args.Updates)
	if err != nil {
		return err
	}
	c, err := a.Store.GetCase(ctx, args.CaseID)
	if err != nil {
		return err
	}
	return store.CheckDetailsSize(c.Details, fields)
}

// SetCaseStatus records a case's CaseStatus, and with it its phase and status, in the
// store, where lists and the API read them, unless the store holds a later one; a move
// to another phase or status (Moved) is published to the case's events too.
func (a *Cases) SetCaseStatus(ctx context.Context, in schemas.SetCaseStatus) error {
	if err := permanent(a.Store.PutStatus(ctx, in.CaseID, in.Status)); err != nil {
		return err
	}
	if !in.Moved {
		return nil
	}
	return a.Events.Publish(ctx, schemas.EventStatus, schemas.EventStatus, "", schemas.StatusEvent{Phase: in.Status.Phase, Status: in.Status.Status})
}

// RecordEscalation appends escalation attempts to the case's case_details.escalation,
// which keeps the latest schemas.MaxEscalationRecords, as a system write. It writes
// only over the version it read, so a concurrent writer makes it try again; a retried
// activity's op applies once. A case no longer stored has nothing to record.
func (a *Cases) RecordEscalation(ctx context.Context, in schemas.RecordEscalation) error {
	c, err := a.Store.GetCase(ctx, in.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	kept, _ := c.Details["escalation"].([]any)
	for _, at := range in.Attempts {
		entry := map[string]any{"n": at.N, "rung": at.Rung, "tool": at.Tool, "error": at.Error, "at": at.At.UTC()}
		if at.TicketID != "" {
			entry["ticket_id"] = at.TicketID
		}
		kept = append(kept, entry)
	}
	kept = kept[max(len(kept)-schemas.MaxEscalationRecords, 0):]
	_, err = a.Store.UpdateDetails(ctx, in.CaseID, c.Version, opID(ctx), map[string]any{"escalation": kept})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
