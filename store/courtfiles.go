package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Bounds of what the store keeps of court files.
const (
	// MaxCourtFilesPerCase is how many court files a case may link.
	MaxCourtFilesPerCase = 20
	// MaxCourtHearings is how many of a file's hearings are kept, the latest: the
	// court watch tells a new hearing apart by them.
	MaxCourtHearings = 60
)

// CourtFile is a Romanian court file (its number at a court, as the courts' portal
// names them) linked to a case, which the court watch polls, with the hearings it saw.
type CourtFile struct {
	// ID is CourtFileID of the case, court and number: linking twice is one link.
	ID       string    `json:"file_id"`
	CaseID   string    `json:"case_id"`
	Number   string    `json:"numar_dosar"`
	Court    string    `json:"institutie"`
	LinkedBy string    `json:"linked_by"`
	LinkedAt time.Time `json:"linked_at"`
	// CheckedAt is when the watch last read the file from the portal; Stage is the
	// file's procedural stage as it then read (stadiuProcesualNume).
	CheckedAt time.Time `json:"checked_at,omitzero"`
	Stage     string    `json:"stage,omitempty"`
	// Hearings are the hearings seen, latest first, at most MaxCourtHearings.
	Hearings []CourtHearing `json:"hearings"`
}

// CourtHearing is a hearing of a court file as the portal told it.
type CourtHearing struct {
	// Date is the hearing's day, midnight in the courts' zone; Hour its hour as the
	// portal writes it ("09:00"); Panel the panel (complet).
	Date  time.Time `json:"date"`
	Hour  string    `json:"hour,omitempty"`
	Panel string    `json:"panel,omitempty"`
	// Result is the kind of result (solutie: "Amână cauza", "Admite"), Summary its
	// operative text (solutieSumar), which can name parties; both empty until the
	// court gives them.
	Result  string `json:"result,omitempty"`
	Summary string `json:"summary,omitempty"`
	// PronouncedAt is when the result was pronounced; Document the number of the
	// decision (numarDocument), when it has one.
	PronouncedAt time.Time `json:"pronounced_at,omitzero"`
	Document     string    `json:"document,omitempty"`
}

// Key names a hearing within its file: its day, hour and panel.
func (h CourtHearing) Key() string {
	return h.Date.UTC().Format(time.RFC3339) + "|" + h.Hour + "|" + h.Panel
}

// CourtFileID names the link of a case to a file at a court.
func CourtFileID(caseID, court, number string) string {
	sum := sha256.Sum256([]byte(caseID + "\x00" + court + "\x00" + number))
	return "cf-" + hex.EncodeToString(sum[:8])
}

// CourtFiles keeps the court files cases link and the hearings seen in them.
type CourtFiles interface {
	// LinkCourtFile stores f (its ID set by the caller to CourtFileID) unless the
	// case links it already, and returns the stored link and whether it is new.
	LinkCourtFile(ctx context.Context, f CourtFile) (CourtFile, bool, error)
	// ListCourtFiles returns a case's links, oldest first.
	ListCourtFiles(ctx context.Context, caseID string) ([]CourtFile, error)
	// UnlinkCourtFile deletes a case's link and what was seen of it; ErrNotFound if
	// the case links no such file.
	UnlinkCourtFile(ctx context.Context, caseID, id string) error
	// WatchedCourtFiles returns the links of every case, by ID, those after the ID
	// after ("" from the first), at most limit.
	WatchedCourtFiles(ctx context.Context, after string, limit int) ([]CourtFile, error)
	// RecordCourtHearings replaces what was seen of a case's file: its hearings (the
	// first MaxCourtHearings kept), its stage and when it was read. ErrNotFound if the
	// link is gone.
	RecordCourtHearings(ctx context.Context, caseID, id string, hearings []CourtHearing, stage string, at time.Time) error
}
