package activities

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Lifecycle are the activities of a case's phases and of its support: the quota, the
// payment, support tickets, resumptions and the notices the case writes into its
// transcript.
type Lifecycle struct {
	Cases         store.Cases
	Subscriptions store.Subscriptions
	Tickets       store.Tickets
	Transcripts   store.Transcripts
}

// CheckQuota is check_quota: whether the organization's subscription, or the user's
// when the case has no organization, has a credit left for the tier. A missing
// subscription or an invalid tier is an answer, in seed 003's words; a store error is
// retried.
func (a *Lifecycle) CheckQuota(ctx context.Context, args schemas.CheckQuotaArgs) (schemas.CheckQuotaResult, error) {
	fail := func(msg string) (schemas.CheckQuotaResult, error) {
		return schemas.CheckQuotaResult{Status: schemas.ResultError, ErrorMessage: msg}, nil
	}
	if args.Tier < schemas.MinTier || args.Tier > schemas.MaxTier {
		return fail(schemas.QuotaInvalidTier)
	}
	if args.UserID == "" {
		return fail(schemas.QuotaUserNotFound)
	}
	org := ""
	if args.OrganizationID != nil {
		org = *args.OrganizationID
	}
	sub, err := a.Subscriptions.GetSubscription(ctx, store.SubscriptionID(args.UserID, org))
	if errors.Is(err, store.ErrNotFound) {
		return fail(schemas.QuotaSubscriptionNotFound)
	}
	if err != nil {
		return schemas.CheckQuotaResult{}, err
	}
	has := sub.Credits[strconv.Itoa(args.Tier)] > 0
	return schemas.CheckQuotaResult{Status: schemas.ResultSuccess, HasQuota: &has}, nil
}

// UseCredit uses one credit of the case's tier, once per case, and reports whether one
// was left.
func (a *Lifecycle) UseCredit(ctx context.Context, in schemas.UseCredit) (bool, error) {
	used, err := a.Subscriptions.UseCredit(ctx, store.SubscriptionID(in.UserID, in.OrgID), in.Tier, in.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return used, err
}

// RecordPayment is the payment record of a case: the first confirmed payment is kept
// and returned, so a confirmation sent twice changes nothing.
type RecordPayment struct {
	CaseID  string                   `json:"case_id"`
	Payment schemas.PaymentConfirmed `json:"payment"`
}

// RecordPayment stores a case's payment and returns the one stored.
func (a *Lifecycle) RecordPayment(ctx context.Context, in RecordPayment) (schemas.PaymentConfirmed, error) {
	p, err := a.Cases.SetPayment(ctx, in.CaseID, store.Payment(in.Payment))
	return schemas.PaymentConfirmed(p), err
}

// CreateSupportTicket is create_support_ticket, run by the SupportTicket workflow: it
// stores the ticket under its ID, once, and pauses the case for support.
func (a *Lifecycle) CreateSupportTicket(ctx context.Context, in schemas.SupportTicketInput) (schemas.TicketResult, error) {
	c, err := a.Cases.GetCase(ctx, in.Args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.TicketResult{Status: schemas.ResultError, ErrorMessage: schemas.CaseNotFound}, nil
	}
	if err != nil {
		return schemas.TicketResult{}, err
	}
	t, err := a.Tickets.CreateTicket(ctx, store.Ticket{ID: in.TicketID, CaseID: c.ID, UserID: in.UserID,
		Description: in.Args.IssueDescription, Snapshot: in.Args.AgentStateSnapshot})
	if err != nil {
		return schemas.TicketResult{}, fmt.Errorf("error creating ticket: %w", err)
	}
	if err := a.Cases.SetPhase(ctx, c.ID, c.Phase, schemas.StatusPausedSupport); err != nil {
		return schemas.TicketResult{}, err
	}
	return schemas.TicketResult{Status: schemas.ResultSuccess, TicketID: t.ID}, nil
}

// RecordResume is who resumed a case, how and why.
type RecordResume struct {
	CaseID string         `json:"case_id"`
	Resume schemas.Resume `json:"resume"`
}

// RecordResume resolves the case's open tickets with the resumption and appends it to
// case_details.support_log. The Case workflow then moves the case on.
func (a *Lifecycle) RecordResume(ctx context.Context, in RecordResume) error {
	r := store.Resolution{Action: in.Resume.Action, Note: in.Resume.Note, By: in.Resume.By, At: in.Resume.At}
	if _, err := a.Tickets.ResolveTickets(ctx, in.CaseID, r); err != nil {
		return err
	}
	entry := map[string]any{"action": r.Action, "note": r.Note, "by": r.By, "at": r.At}
	_, err := a.Cases.UpdateDetails(ctx, in.CaseID, 0, map[string]any{"support_log": []any{entry}})
	return err
}

// RecordNotice writes a notice into the case's transcript, after the turn it follows.
// Its ID comes from its number, so a retry stores it once.
func (a *Lifecycle) RecordNotice(ctx context.Context, n schemas.Notice) error {
	return a.Transcripts.AppendRecords(ctx, store.Record{
		ID: fmt.Sprintf("case:%s:notice:%d", n.CaseID, n.N), CaseID: n.CaseID, UserID: n.UserID,
		TurnNo: n.TurnNo, Seq: noticeSeq + n.N, Role: n.Role, Content: n.Text, CreatedAt: n.At,
	})
}

// noticeSeq places notices after the records of the turn they follow.
const noticeSeq = 1000
