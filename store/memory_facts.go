package store

import (
	"context"
	"errors"
	"time"

	"github.com/lexflow/lexflow/internal/memory"
)

// Memory fact statuses: a fact the assistant proposed waits for its user's approval;
// only a kept fact reaches the models.
const (
	FactProposed = "proposed"
	FactKept     = "kept"
)

// Bounds of a user's facts: they all go into every system prompt of the user's cases.
const (
	// MaxMemoryFacts is how many facts, proposed and kept, a user may have.
	MaxMemoryFacts = 50
	// MaxFactChars is the longest a fact's text may be, in characters.
	MaxFactChars = 300
)

// ErrTooManyFacts is a fact refused because its user has MaxMemoryFacts facts.
var ErrTooManyFacts = errors.New("too many memory facts")

// MemoryFact is one thing Lexflow remembers about a user across their cases, proposed
// by the assistant from a closed case (CaseID) and kept only once the user approves
// it. Its text is the user's personal data, in clear as the user reads it: sealed at
// rest with the user's key, and pseudonymized again before a model reads it.
type MemoryFact struct {
	ID string `json:"id"`
	// Owner is the user's OwnerID; the API does not show it.
	Owner     string    `json:"-"`
	CaseID    string    `json:"case_id"`
	Text      string    `json:"text"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// FactChange is what UpdateMemoryFact changes of a fact: its text and its status, each
// when not empty.
type FactChange struct {
	Text   string
	Status string
}

// MemoryFacts keeps the facts each user lets Lexflow remember across cases.
type MemoryFacts interface {
	// AddMemoryFact stores f unless a fact with its ID is stored, and reports whether
	// it stored it. A user with MaxMemoryFacts facts is ErrTooManyFacts: the facts are
	// counted before the insert, so two adds at once may pass the bound by one.
	AddMemoryFact(ctx context.Context, f MemoryFact) (bool, error)
	// ListMemoryFacts returns a user's facts, oldest first (by CreatedAt, then ID).
	ListMemoryFacts(ctx context.Context, owner string) ([]MemoryFact, error)
	// GetMemoryFact returns one of a user's facts; one that is not theirs is
	// ErrNotFound.
	GetMemoryFact(ctx context.Context, owner, id string) (MemoryFact, error)
	// UpdateMemoryFact applies change to one of a user's facts and returns it, updated
	// now; one that is not theirs is ErrNotFound.
	UpdateMemoryFact(ctx context.Context, owner, id string, change FactChange) (MemoryFact, error)
	// DeleteMemoryFact deletes one of a user's facts; one that is not theirs is
	// ErrNotFound.
	DeleteMemoryFact(ctx context.Context, owner, id string) error
	// EraseMemoryFacts deletes every fact of a user, and counts them.
	EraseMemoryFacts(ctx context.Context, owner string) (int, error)
	// EraseCaseProposals deletes the facts proposed from a case that their users have
	// not kept, and counts them.
	EraseCaseProposals(ctx context.Context, caseID string) (int, error)
}

// KeptFacts are the kept facts among facts, in their order, as memory.ForModel reads
// them.
func KeptFacts(facts []MemoryFact) []memory.Fact {
	var kept []memory.Fact
	for _, f := range facts {
		if f.Status == FactKept {
			kept = append(kept, memory.Fact{CaseID: f.CaseID, Text: f.Text})
		}
	}
	return kept
}
