// Package store defines where Lexflow keeps cases and transcripts, as interfaces that a
// MongoDB implementation (package mongostore) and a Firestore implementation satisfy.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors every implementation returns for the conditions callers act on.
var (
	// ErrNotFound means no case has that ID.
	ErrNotFound = errors.New("not found")
	// ErrInvalidField means an update names a field that cannot be set.
	ErrInvalidField = errors.New("invalid field")
)

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
	Version   int64     `json:"version"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
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
	// stored case, so creation can be retried.
	CreateCase(ctx context.Context, c Case) (Case, error)
	// GetCase returns a case, or ErrNotFound.
	GetCase(ctx context.Context, id string) (Case, error)
	// SetPhase moves a case to a phase and status.
	SetPhase(ctx context.Context, id, phase, status string) error
	// UpdateDetails applies dot-path updates to case_details (see ParseUpdates) and returns
	// the new version. It returns ErrNotFound or an error wrapping ErrInvalidField.
	UpdateDetails(ctx context.Context, id string, updates map[string]any) (int64, error)
}

// Record roles in a transcript.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Record is one entry of a case's transcript: the user's message, a tool call, or the
// assistant's answer.
type Record struct {
	// ID is derived from the turn (turnID + ":user", ":tool:1", ":assistant"), so that
	// storing a record twice keeps one.
	ID        string      `json:"id"`
	CaseID    string      `json:"case_id"`
	UserID    string      `json:"user_id"`
	TurnID    string      `json:"turn_id"`
	TurnNo    int         `json:"turn_no"`
	Seq       int         `json:"seq"`
	Role      string      `json:"role"`
	Content   string      `json:"content"`
	Tool      *ToolRecord `json:"tool,omitempty"`
	CreatedAt time.Time   `json:"created_at"`
}

// ToolRecord is the tool part of a tool record.
type ToolRecord struct {
	Name      string `json:"name"`
	Args      string `json:"args"`
	Status    string `json:"status"`
	LatencyMS int64  `json:"latency_ms"`
	Error     string `json:"error,omitempty"`
}

// Transcripts keeps each turn's records.
type Transcripts interface {
	// AppendRecords stores records; a record whose ID is stored already is left as it is.
	AppendRecords(ctx context.Context, recs ...Record) error
	// ListRecords returns a case's records in turn order, at most limit of the latest
	// (all when limit <= 0), and only those of turns before beforeTurn when it is > 0.
	ListRecords(ctx context.Context, caseID string, beforeTurn, limit int) ([]Record, error)
}

// Memory is what a user has asked the assistant to remember across cases.
type Memory struct {
	UserID    string    `json:"user_id"`
	Text      string    `json:"memory"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Memories keeps each user's memory.
type Memories interface {
	// GetMemory returns a user's memory; a user without one has an empty text.
	GetMemory(ctx context.Context, userID string) (Memory, error)
	// PutMemory replaces a user's memory.
	PutMemory(ctx context.Context, userID, text string) (Memory, error)
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

// Store is everything a Lexflow process needs from its database.
type Store interface {
	Cases
	Transcripts
	Memories
	Parties
	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	// Close releases the connection.
	Close(ctx context.Context) error
}
