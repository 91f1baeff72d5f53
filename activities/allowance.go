package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/lexflow/lexflow/internal/doctext"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// unpaidPagesLeft is, for a case yet to be paid (schemas.BeforePayment), how many
// pages of a document Lexflow still reads for it: schemas.UnpaidPages less the pages
// read of its other documents, deleted ones included. unpaid is false for a case that
// is paid, covered, or gone.
func (a *Documents) unpaidPagesLeft(ctx context.Context, caseID, docID string) (left int, unpaid bool, err error) {
	c, err := a.Cases.GetCase(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if !schemas.BeforePayment(c.Phase, c.Payment != nil) {
		return 0, false, nil
	}
	_, read := schemas.DocumentsRead(c.Details, docID)
	return max(schemas.UnpaidPages-read, 0), true, nil
}

// unpaidLimits narrows a read's limits for a case yet to be paid to the pages it has
// left, so that no page past them is read or OCRed; ok is false when none is left.
func unpaidLimits(lim doctext.Limits, left int) (doctext.Limits, bool) {
	lim.MaxPages = min(lim.MaxPages, left)
	lim.MaxOCRPages = min(lim.MaxOCRPages, left)
	return lim, left > 0
}

// unpaidRefusal is the reason a document is not read for a case yet to be paid: it
// would take the case past schemas.UnpaidPages.
func unpaidRefusal(left int, why error) schemas.DocumentRead {
	reason := fmt.Sprintf("before the case is paid, Lexflow reads %d pages of its documents in all, %d more for this one; pay for the case and upload it again", schemas.UnpaidPages, left)
	if why != nil {
		reason += " (" + why.Error() + ")"
	}
	return schemas.DocumentRead{Cause: schemas.CauseUnpaid, Reason: reason}
}
