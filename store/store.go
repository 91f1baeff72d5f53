// Package store defines where Lexflow keeps its data (cases, transcripts, memories,
// parties, subscriptions, support tickets, the prompts version, payment checkouts, the
// audit log of staff actions, model-token use and budgets, the cases' event logs, the
// wrapped data keys that encrypt clients' data, legal holds and erasure receipts, the
// research sources' recent failures, the current texts of articles an official
// service gave, the cases' deadlines, the court files cases link, users' calendar
// feeds, users' notification settings, in-app notifications and sends, and the
// organizations' settings of the AI disclosure on drafts) as
// interfaces, with the errors every implementation returns. Package mongostore
// implements them on MongoDB, package firestore on Firestore; package storetest is
// the conformance suite every implementation passes.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Errors every implementation returns for the conditions callers act on.
var (
	// ErrNotFound means nothing is stored under that ID: no such case, subscription or
	// the like. Its NotFound method reports true, so that a package declaring the
	// store interface it needs (keys.Store) tells it apart without importing store.
	ErrNotFound error = notFound{}
	// ErrInvalidField means an update names a field that cannot be set.
	ErrInvalidField = errors.New("invalid field")
	// ErrVersionConflict means case_details changed since the version an update expected.
	ErrVersionConflict = errors.New("version conflict")
)

// notFound is ErrNotFound's type.
type notFound struct{}

func (notFound) Error() string  { return "not found" }
func (notFound) NotFound() bool { return true }

// Case is one client case: who owns it, where it stands, and its case_details.
type Case struct {
	ID          string         `json:"case_id"`
	UserID      string         `json:"user_id"`
	OrgID       string         `json:"org_id,omitempty"`
	Description string         `json:"description"`
	Language    string         `json:"language"`
	Phase       string         `json:"phase"`
	Status      string         `json:"status"`
	Details     map[string]any `json:"case_details"`
	// Version counts the updates to Details.
	Version int64 `json:"version"`
	// Payment is the confirmed payment of a case no subscription covered.
	Payment *Payment `json:"payment,omitempty"`
	// Hold is the case's legal hold, if it has one.
	Hold *Hold `json:"legal_hold,omitempty"`
	// State is what the case's workflow last published of its state; nil until it
	// published one.
	State     *schemas.CaseStatus `json:"state,omitempty"`
	CreatedAt time.Time           `json:"created_at"`
	UpdatedAt time.Time           `json:"updated_at"`
}

// DecodeStatus is a case's CaseStatus as the stores keep it, JSON, decoded; nil for
// none, or for JSON that does not decode (the status is a view the next write
// replaces, never the case's record).
func DecodeStatus(raw string) *schemas.CaseStatus {
	if raw == "" {
		return nil
	}
	var st schemas.CaseStatus
	if json.Unmarshal([]byte(raw), &st) != nil {
		return nil
	}
	return &st
}

// Payment is a confirmed payment for a case.
type Payment struct {
	ID        string    `json:"id,omitempty"`
	Reference string    `json:"reference"`
	Method    string    `json:"method,omitempty"`
	Amount    int64     `json:"amount,omitempty"`
	Currency  string    `json:"currency,omitempty"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
}

// NewDetails is the case_details of a new case, seeded from the client's description.
func NewDetails(description string) map[string]any {
	return map[string]any{
		"summary":        map[string]any{"initial": description, "current": description},
		"facts":          []any{},
		"objectives":     []any{},
		"documents":      []any{},
		"internal_notes": []any{},
	}
}

// Cases keeps case documents.
type Cases interface {
	// CreateCase stores c unless a case with its ID exists; either way it returns the
	// stored case, so creation can be retried. The stored case_details'
	// schemas.LastUpdatedField is its creation time.
	CreateCase(ctx context.Context, c Case) (Case, error)
	// GetCase returns a case, or ErrNotFound.
	GetCase(ctx context.Context, id string) (Case, error)
	// CaseOwner returns the organization and subject that own a case, reading nothing
	// else of it, or ErrNotFound.
	CaseOwner(ctx context.Context, id string) (org, subject string, err error)
	// SetPhase moves a case to a phase and status.
	SetPhase(ctx context.Context, id, phase, status string) error
	// PutStatus records the case's CaseStatus, with its phase and status, unless the
	// case holds one of a higher or equal Seq.
	PutStatus(ctx context.Context, id string, st schemas.CaseStatus) error
	// UpdateDetails applies dot-path updates to case_details (see ParseUpdates) as one
	// atomic write and returns the new version. Concurrent writers keep each other's
	// changes: fields they do not share are all set, and logs get every entry. A writer
	// that read the details and must not overwrite a newer change passes the version it
	// read as expected (0 means any) and gets ErrVersionConflict if it is not current.
	// It also returns ErrNotFound or an error wrapping ErrInvalidField. op, when not
	// empty, names the update so that it applies once: the same op again (an activity
	// retried after its answer was lost) changes nothing, whatever came between, and
	// returns the current version. A store remembers at least the last MaxOps ops of a
	// case. Every write sets case_details' schemas.LastUpdatedField, as a time.Time, to
	// the case's new UpdatedAt, from the store's clock.
	UpdateDetails(ctx context.Context, id string, expected int64, op string, updates map[string]any) (int64, error)
	// SetPayment records a case's payment unless one is recorded, and returns the
	// recorded one: confirming twice keeps the first.
	SetPayment(ctx context.Context, id string, p Payment) (Payment, error)
	// CountCases counts the cases created since a time by an organization's subject, or
	// by the whole organization when subject is empty, those being or having been
	// erased included.
	CountCases(ctx context.Context, org, subject string, since time.Time) (int, error)
	// ListCases returns the cases of an organization's subject (org empty: a user of no
	// organization), newest first, at most limit, without their case_details: those
	// after the case with ID after, or the newest when after is "". An after that is not
	// one of the owner's cases is ErrNotFound.
	ListCases(ctx context.Context, org, subject, after string, limit int) ([]Case, error)
}

// MaxOps is how many of a case's latest update ops a store must remember.
const MaxOps = 64

// Record is one entry of a case's transcript: the user's message, a tool call, or the
// assistant's answer.
type Record struct {
	// ID is derived from the turn or the notice (schemas.UserRecordID and the like), so
	// that storing a record twice keeps one.
	ID        string             `json:"id"`
	CaseID    string             `json:"case_id"`
	UserID    string             `json:"user_id"`
	TurnID    string             `json:"turn_id"`
	TurnNo    int                `json:"turn_no"`
	Seq       int                `json:"seq"`
	Role      schemas.RecordRole `json:"role"`
	Content   string             `json:"content"`
	Tool      *ToolRecord        `json:"tool,omitempty"`
	CreatedAt time.Time          `json:"created_at"`
}

// ToolRecord is the tool part of a tool record.
type ToolRecord struct {
	Name      string `json:"name"`
	Args      string `json:"args"`
	Status    string `json:"status"`
	LatencyMS int64  `json:"latency_ms"`
	Error     string `json:"error,omitempty"`
	// Shown is the text the model read of the result, up to its tool's budget, which
	// later model calls read again; the record's Content is its 900-character summary.
	// The transcript the API serves shows the summary only.
	Shown string `json:"-" bson:"shown,omitempty"`
}

// Transcripts keeps each turn's records.
type Transcripts interface {
	// AppendRecords stores records; a record whose ID is stored already is left as it is.
	AppendRecords(ctx context.Context, recs ...Record) error
	// ListRecords returns a case's records in turn order, at most limit of the latest
	// (all when limit <= 0), and only those of turns before beforeTurn when it is > 0.
	ListRecords(ctx context.Context, caseID string, beforeTurn, limit int) ([]Record, error)
	// RedactRecord replaces the content of a case's record id, and the text its tool
	// call showed the model (ToolRecord.Shown), which keeps the rest: what it held must
	// go (a tool result holding a deleted document's text). ErrNotFound for no such
	// record.
	RedactRecord(ctx context.Context, caseID, id, content string) error
}

// Memory is what a user has asked the assistant to remember across cases.
type Memory struct {
	// UserID is the owner's OwnerID in the store; the API shows the subject.
	UserID    string    `json:"user_id"`
	Text      string    `json:"memory"`
	UpdatedAt time.Time `json:"updated_at"`
}

// OwnerID names a user for what they own across cases (their memory): the subject
// within its organization, so the same subject in two organizations is two users.
// Each part has its ":" (and "%") escaped, so that no organization or subject holding
// ":user:" names another pair's owner: unescaped, organization "a:user:b" with subject
// "c" and organization "a" with subject "b:user:c" were the same owner. Names without
// ":" or "%", which is every name Lexflow mints, are as they were.
func OwnerID(org, subject string) string {
	if org == "" {
		return "user:" + ownerEscaper.Replace(subject)
	}
	return "org:" + ownerEscaper.Replace(org) + ":user:" + ownerEscaper.Replace(subject)
}

// ownerEscaper escapes the separators of an OwnerID's parts.
var ownerEscaper = strings.NewReplacer("%", "%25", ":", "%3A")

// Memories keeps each user's memory, under the user's OwnerID.
type Memories interface {
	// GetMemory returns a user's memory; a user without one has an empty text.
	GetMemory(ctx context.Context, owner string) (Memory, error)
	// PutMemory replaces a user's memory.
	PutMemory(ctx context.Context, owner, text string) (Memory, error)
}

// Party is a person or company attached to a case. Its fields are PII: they live only
// in the parties store and in rendered drafts; models see the ID ("party0") alone.
type Party struct {
	ID          string    `json:"party_id"`
	CaseID      string    `json:"case_id"`
	FirstName   string    `json:"first_name,omitempty"`
	LastName    string    `json:"last_name,omitempty"`
	CompanyName string    `json:"company_name,omitempty"`
	Aliases     []string  `json:"aliases,omitempty"`
	CNP         string    `json:"cnp,omitempty"`
	CUI         string    `json:"cui,omitempty"`
	Address     string    `json:"address,omitempty"`
	Email       string    `json:"email,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
}

// Parties keeps the parties of each case.
type Parties interface {
	// AddParty attaches a party to a case under the next free ID (party0, party1, ...)
	// and returns it.
	AddParty(ctx context.Context, p Party) (Party, error)
	// ListParties returns a case's parties in the order they were added.
	ListParties(ctx context.Context, caseID string) ([]Party, error)
}

// Subscription is the cases a user or an organization may open without paying: credits
// left per tier, and the cases that used one.
type Subscription struct {
	// ID is SubscriptionID's "user:<id>" or "org:<id>".
	ID   string `json:"subscription_id"`
	Plan string `json:"plan"`
	// Credits are the cases left per tier, keyed "1", "2" and "3".
	Credits   map[string]int `json:"credits"`
	Cases     []string       `json:"cases"`
	UpdatedAt time.Time      `json:"updated_at"`
}

// SubscriptionID names the subscription of a user (org empty) or an organization: its
// schemas.TenantKey.
func SubscriptionID(user, org string) string { return schemas.TenantKey(org, user) }

// Subscriptions keeps subscriptions.
type Subscriptions interface {
	// PutSubscription creates or replaces a subscription's plan and credits, keeping
	// the cases that used credits.
	PutSubscription(ctx context.Context, s Subscription) (Subscription, error)
	// GetSubscription returns a subscription, or ErrNotFound.
	GetSubscription(ctx context.Context, id string) (Subscription, error)
	// UseCredit uses one credit of a tier for a case, atomically, and reports whether it
	// could. A case that used a credit already has it still: asking again is true.
	UseCredit(ctx context.Context, id string, tier int, caseID string) (bool, error)
}

// Ticket statuses.
const (
	TicketOpen     = "open"
	TicketResolved = "resolved"
)

// Ticket is a support ticket: why a case is paused, and how support resolved it.
type Ticket struct {
	ID          string         `json:"ticket_id"`
	CaseID      string         `json:"case_id"`
	UserID      string         `json:"user_id"`
	Description string         `json:"issue_description"`
	Snapshot    map[string]any `json:"agent_state_snapshot,omitempty"`
	Status      string         `json:"status"`
	CreatedAt   time.Time      `json:"created_at"`
	Resolution  *Resolution    `json:"resolution,omitempty"`
}

// Resolution is how support staff resumed a case.
type Resolution struct {
	Action string    `json:"action"`
	Note   string    `json:"note"`
	By     string    `json:"by"`
	At     time.Time `json:"at"`
}

// Tickets keeps support tickets.
type Tickets interface {
	// CreateTicket stores t unless a ticket with its ID exists, and returns the stored one.
	CreateTicket(ctx context.Context, t Ticket) (Ticket, error)
	// ListTickets returns a case's tickets, oldest first.
	ListTickets(ctx context.Context, caseID string) ([]Ticket, error)
	// ResolveTickets resolves a case's open tickets and returns how many it resolved.
	ResolveTickets(ctx context.Context, caseID string, r Resolution) (int, error)
}

// PromptVersions keeps the version of the system prompts that every process serves: an
// admin's reload in one process bumps it, and each worker reloads its prompt files when
// it sees a version it has not loaded.
type PromptVersions interface {
	// BumpPromptsVersion increments the version, atomically, and returns the new one.
	BumpPromptsVersion(ctx context.Context) (int64, error)
	// PromptsVersion returns the version: 0 until the first bump.
	PromptsVersion(ctx context.Context) (int64, error)
}

// Store is everything a Lexflow process needs from its database.
type Store interface {
	Cases
	Transcripts
	Memories
	Parties
	Subscriptions
	Tickets
	PromptVersions
	Checkouts
	Audit
	Budgets
	Events
	Keys
	Erasures
	SourceFailures
	CourtFiles
	Deadlines
	Feeds
	Notifications
	CurrentTexts
	Disclosures
	MemoryFacts
	Sizes
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// Close releases the connection.
	Close(ctx context.Context) error
}
