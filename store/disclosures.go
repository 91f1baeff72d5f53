package store

import (
	"context"
	"time"
)

// Disclosure is an organization's own setting of the line its drafts carry to say
// that AI helped write them (Italian L. 132/2025, art. 13), set by its admin. A
// language it does not name keeps Lexflow's default (see internal/disclosure).
type Disclosure struct {
	Org string `json:"org"`
	// Texts are the organization's wordings of the line, by case language.
	Texts map[string]string `json:"texts,omitempty"`
	// On says, by case language, whether drafts carry the line.
	On        map[string]bool `json:"on,omitempty"`
	SetBy     string          `json:"set_by"`
	UpdatedAt time.Time       `json:"updated_at"`
}

// Disclosures keeps the organizations' disclosure settings.
type Disclosures interface {
	// GetDisclosure returns an organization's setting, or ErrNotFound if its admin set
	// none.
	GetDisclosure(ctx context.Context, org string) (Disclosure, error)
	// PutDisclosure sets an organization's setting, replacing any earlier one.
	PutDisclosure(ctx context.Context, d Disclosure) error
}
