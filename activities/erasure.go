package activities

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Erasure runs the steps of a case's erasure (the Erase workflow) and finds the cases
// that retention erases (the Retention workflow).
type Erasure struct {
	Store store.Erasures
	// Cases and Deadlines name the case's deadlines, whose workflows it stops.
	Cases     store.Cases
	Deadlines store.Deadlines
	// Notifications keeps every user's notifications and sends about the case.
	Notifications store.Notifications
	// Facts keeps the memory facts proposed from the case: those not kept go with it,
	// and the kept ones lose the values of its Parties (maskKeptFacts).
	Facts   store.MemoryFacts
	Parties store.Parties
	// Audit keeps the erasure's closing of the case, which the case verifies.
	Audit    store.Audit
	Blobs    blob.Store
	Keys     *keys.Keyring
	Temporal client.Client
	// Retention is how long each organization keeps its closed cases; an organization
	// without an entry keeps them until they are deleted.
	Retention map[string]time.Duration
}

// CloseWait is how long a case workflow has to close before its erasure terminates it.
const CloseWait = 20 * time.Second

// MaxExpiredPerRun bounds how many cases one run of the Retention workflow erases; the
// next run takes the rest.
const MaxExpiredPerRun = 100

// StalledAfter is how long after it began an unfinished erasure is taken up again by
// the Retention workflow: its Erase workflow failed, or its worker died before it
// started one. It is longer than a healthy erasure can take (its steps retry for an
// hour each, and it waits out the key cache, at most an hour); one still running is
// left to run.
const StalledAfter = 6 * time.Hour

// MaxStalledPerRun bounds the stalled erasures one run takes up, so that erasures
// that keep failing cannot crowd out the ones retention asks for.
const MaxStalledPerRun = 20

// BeginErasure records the erasure's start and returns its receipt. A case under a
// legal hold is a non-retryable ErrLegalHold, a case never stored ErrInvalidArgs.
func (a *Erasure) BeginErasure(ctx context.Context, in schemas.EraseInput) (schemas.Erasure, error) {
	if _, err := uuid.Parse(in.CaseID); err != nil {
		return schemas.Erasure{}, temporal.NewNonRetryableApplicationError("no case "+in.CaseID, schemas.ErrInvalidArgs, err)
	}
	e, err := a.Store.BeginErasure(ctx, schemas.Erasure{CaseID: in.CaseID, RequestedBy: in.By, Reason: in.Reason, RequestedAt: in.At})
	if errors.Is(err, store.ErrHeld) {
		return schemas.Erasure{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrLegalHold, err)
	}
	return e, permanent(err)
}

// CloseForErasure ends the case's workflow: the close-case update (the one the client's
// close sends), then, if the workflow has not finished within CloseWait, termination
// (its child workflows end with it). A case whose workflow has ended is left as it is.
// Its documents being read and its deadlines' workflows are terminated first, and the
// memory proposal its closing started (ProposeMemory) last.
func (a *Erasure) CloseForErasure(ctx context.Context, in schemas.EraseInput) error {
	if err := a.stopDocuments(ctx, in); err != nil {
		return err
	}
	if err := a.stopDeadlines(ctx, in); err != nil {
		return err
	}
	id := schemas.CaseWorkflowID(in.CaseID)
	waitCtx, cancel := context.WithTimeout(ctx, CloseWait)
	defer cancel()
	// The update's ID is the erasure's audited closing, which the case verifies; a
	// retried activity records and asks once. A case that is closed already rejects
	// it, and either way the wait below sees it end.
	record := store.AuditEntry{ID: "erasure-close-" + in.CaseID, At: time.Now().UTC(), Actor: in.By, Roles: []string{},
		Action: schemas.ActionClose, CaseID: in.CaseID, Detail: map[string]any{"note": "erasure", "reason": in.Reason}}
	if err := a.Audit.RecordAudit(ctx, record); err != nil {
		return err
	}
	handle, err := a.Temporal.UpdateWorkflow(waitCtx, client.UpdateWorkflowOptions{
		UpdateID: record.ID, WorkflowID: id, UpdateName: schemas.UpdateCloseCase,
		Args:         []any{schemas.CloseCase{Note: "erasure", By: in.By}},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = handle.Get(waitCtx, nil)
	}
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return a.stopMemoryProposal(ctx, in)
	}
	_ = a.Temporal.GetWorkflow(waitCtx, id, "").Get(waitCtx, nil) // its outcome does not matter, only that it ended
	d, err := a.Temporal.DescribeWorkflowExecution(ctx, id, "")
	if errors.As(err, &notFound) {
		return a.stopMemoryProposal(ctx, in)
	}
	if err != nil {
		return fmt.Errorf("describe the case workflow: %w", err)
	}
	if d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		err = a.Temporal.TerminateWorkflow(ctx, id, "", "case erased at the request of "+in.By)
		if err != nil && !errors.As(err, &notFound) {
			return fmt.Errorf("terminate the case workflow: %w", err)
		}
	}
	return a.stopMemoryProposal(ctx, in)
}

// stopMemoryProposal terminates the ProposeMemory workflow that the case's closing
// started, if it still runs, so that it proposes nothing from a case being erased
// (its store step refuses such a case too).
func (a *Erasure) stopMemoryProposal(ctx context.Context, in schemas.EraseInput) error {
	err := a.Temporal.TerminateWorkflow(ctx, schemas.MemoryWorkflowID(in.CaseID), "", "case erased at the request of "+in.By)
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return fmt.Errorf("stop the memory proposal: %w", err)
	}
	return nil
}

// stopDocuments terminates the case's Document workflows still reading an upload, as
// Temporal's visibility lists them, so that none starts another step. A step already
// running, or a workflow visibility does not list yet, finds the case gone, or its key
// destroyed, and writes nothing that opens.
func (a *Erasure) stopDocuments(ctx context.Context, in schemas.EraseInput) error {
	query := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND WorkflowId STARTS_WITH '%s:document:'",
		schemas.DocumentWorkflow, schemas.CaseWorkflowID(in.CaseID))
	var token []byte
	for {
		resp, err := a.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			return fmt.Errorf("list the case's documents being read: %w", err)
		}
		for _, e := range resp.GetExecutions() {
			err := a.Temporal.TerminateWorkflow(ctx, e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId(), "case erased at the request of "+in.By)
			var notFound *serviceerror.NotFound
			if err != nil && !errors.As(err, &notFound) {
				return fmt.Errorf("stop reading a document: %w", err)
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return nil
		}
	}
}

// stopDeadlines terminates the Deadline workflows of the case's deadlines, as the
// store lists them, so that no reminder of an erased case goes out. Their workflows
// outlive a closed case, not an erased one. A deadline set meanwhile finds its case
// gone, or its workflow's store reads fail, at its end.
func (a *Erasure) stopDeadlines(ctx context.Context, in schemas.EraseInput) error {
	org, subject, err := a.Cases.CaseOwner(ctx, in.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the case's owner: %w", err)
	}
	ds, err := a.Deadlines.ListDeadlines(ctx, in.CaseID)
	if err != nil {
		return fmt.Errorf("list the case's deadlines: %w", err)
	}
	for _, d := range ds {
		id := schemas.DeadlineWorkflowID(schemas.TenantKey(org, subject), in.CaseID, d.ID)
		err := a.Temporal.TerminateWorkflow(ctx, id, "", "case erased at the request of "+in.By)
		var notFound *serviceerror.NotFound
		if err != nil && !errors.As(err, &notFound) {
			return fmt.Errorf("stop deadline %s: %w", d.ID, err)
		}
	}
	return nil
}

// EraseCaseData deletes the case's data from the store (its notifications and their
// send records, and the memory facts proposed from it and not kept, among it) and its
// blobs, and counts them. The facts its owner kept stay, with its parties' values
// written out of them first, while the parties are still there to find them.
func (a *Erasure) EraseCaseData(ctx context.Context, caseID string) (schemas.Erased, error) {
	if err := a.maskKeptFacts(ctx, caseID); err != nil {
		return schemas.Erased{}, err
	}
	erased, err := a.Store.EraseCaseData(ctx, caseID)
	if err != nil {
		return schemas.Erased{}, err
	}
	if erased.Notifications, err = a.Notifications.EraseCaseNotifications(ctx, caseID); err != nil {
		return schemas.Erased{}, err
	}
	if erased.MemoryProposals, err = a.Facts.EraseCaseProposals(ctx, caseID); err != nil {
		return schemas.Erased{}, err
	}
	if erased.Blobs, err = a.Blobs.DeletePrefix(ctx, schemas.CaseBlobPrefix(caseID)); err != nil {
		return schemas.Erased{}, err
	}
	return erased, nil
}

// maskKeptFacts writes the case's parties out of the facts its owner kept from it:
// each of their values becomes "[…]", so that an erased case's parties reach neither
// the owner's page nor, through their memory, any model (which reads a fact
// pseudonymized with the parties of its case, gone once the case is erased). A fact
// with none of their values is left as it is.
func (a *Erasure) maskKeptFacts(ctx context.Context, caseID string) error {
	org, subject, err := a.Cases.CaseOwner(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the case's owner: %w", err)
	}
	owner := store.OwnerID(org, subject)
	facts, err := a.Facts.ListMemoryFacts(ctx, owner)
	if err != nil {
		return fmt.Errorf("list the owner's memory facts: %w", err)
	}
	parties, err := partiesOf(ctx, a.Parties, caseID)
	if err != nil {
		return err
	}
	for _, f := range facts {
		if f.CaseID != caseID || f.Status != store.FactKept {
			continue
		}
		masked, err := pseudonym.Mask(ctx, f.Text, parties, "[…]")
		if err != nil {
			return err
		}
		if masked == f.Text {
			continue
		}
		if _, err := a.Facts.UpdateMemoryFact(ctx, owner, f.ID, store.FactChange{Text: masked}); err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("mask memory fact %s: %w", f.ID, err)
		}
	}
	return nil
}

// DestroyedKey is when a case's data key was destroyed, and how long other processes
// may still hold it unwrapped in memory after that (keys.Keyring.CacheTTL, which every
// process of a deployment shares).
type DestroyedKey struct {
	At       time.Time     `json:"at"`
	CacheTTL time.Duration `json:"cache_ttl"`
}

// DestroyCaseKey destroys the case's data key. A case that never had a key gets a
// destroyed one, so that none is made for it later.
func (a *Erasure) DestroyCaseKey(ctx context.Context, caseID string) (DestroyedKey, error) {
	id := keys.CaseKeyID(caseID)
	if _, err := a.Keys.Ensure(ctx, id); err != nil && !errors.Is(err, keys.ErrDestroyed) {
		return DestroyedKey{}, err
	}
	dk, err := a.Keys.Destroy(ctx, id)
	if err != nil {
		return DestroyedKey{}, err
	}
	return DestroyedKey{At: *dk.DestroyedAt, CacheTTL: a.Keys.CacheTTL()}, nil
}

// FinishErasure records what the erasure deleted, and returns the receipt.
func (a *Erasure) FinishErasure(ctx context.Context, caseID string, erased schemas.Erased) (schemas.Erasure, error) {
	e, err := a.Store.FinishErasure(ctx, caseID, erased, time.Now().UTC())
	return e, permanent(err)
}

// ExpiredCases returns the cases to erase: those whose erasure stalled (see
// StalledAfter; at most MaxStalledPerRun, oldest first), then the closed cases that
// their organization's retention period has passed, organization by organization in
// name order; at most MaxExpiredPerRun in all.
func (a *Erasure) ExpiredCases(ctx context.Context) ([]string, error) {
	now := time.Now().UTC()
	out, err := a.Store.StalledErasures(ctx, now.Add(-StalledAfter), MaxStalledPerRun)
	if err != nil {
		return nil, err
	}
	for _, org := range slices.Sorted(maps.Keys(a.Retention)) {
		if len(out) >= MaxExpiredPerRun {
			break
		}
		ids, err := a.Store.ExpiredCases(ctx, org, now.Add(-a.Retention[org]), MaxExpiredPerRun-len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
	}
	return out, nil
}
