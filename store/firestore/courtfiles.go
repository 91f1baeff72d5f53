package firestore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// courtFileData is a case's link to a court file, in the top-level court files
// collection under its store.CourtFileID (kept also as a field, which the watch pages
// by with one single-field index).
type courtFileData struct {
	ID        string             `firestore:"id"`
	CaseID    string             `firestore:"case_id"`
	Number    string             `firestore:"number"`
	Court     string             `firestore:"court"`
	LinkedBy  string             `firestore:"linked_by"`
	LinkedAt  time.Time          `firestore:"linked_at"`
	CheckedAt time.Time          `firestore:"checked_at,omitempty"`
	Stage     string             `firestore:"stage,omitempty"`
	Hearings  []courtHearingData `firestore:"hearings"`
}

// courtHearingData is a hearing seen in a file.
type courtHearingData struct {
	Date         time.Time `firestore:"date"`
	Hour         string    `firestore:"hour,omitempty"`
	Panel        string    `firestore:"panel,omitempty"`
	Result       string    `firestore:"result,omitempty"`
	Summary      string    `firestore:"summary,omitempty"`
	PronouncedAt time.Time `firestore:"pronounced_at,omitempty"`
	Document     string    `firestore:"document,omitempty"`
}

func (d courtFileData) toFile() store.CourtFile {
	f := store.CourtFile{ID: d.ID, CaseID: d.CaseID, Number: d.Number, Court: d.Court, LinkedBy: d.LinkedBy, LinkedAt: d.LinkedAt,
		CheckedAt: d.CheckedAt, Stage: d.Stage, Hearings: make([]store.CourtHearing, len(d.Hearings))}
	for i, h := range d.Hearings {
		f.Hearings[i] = store.CourtHearing{Date: h.Date, Hour: h.Hour, Panel: h.Panel, Result: h.Result, Summary: h.Summary,
			PronouncedAt: h.PronouncedAt, Document: h.Document}
	}
	return f
}

// hearingData is hearings as stored, the first store.MaxCourtHearings.
func hearingData(hs []store.CourtHearing) []courtHearingData {
	hs = hs[:min(len(hs), store.MaxCourtHearings)]
	out := make([]courtHearingData, len(hs))
	for i, h := range hs {
		out[i] = courtHearingData{Date: h.Date.UTC(), Hour: h.Hour, Panel: h.Panel, Result: h.Result, Summary: h.Summary,
			Document: h.Document}
		if !h.PronouncedAt.IsZero() {
			out[i].PronouncedAt = h.PronouncedAt.UTC()
		}
	}
	return out
}

// LinkCourtFile creates the link's document unless it exists, and returns the stored
// one.
func (s *Store) LinkCourtFile(ctx context.Context, f store.CourtFile) (store.CourtFile, bool, error) {
	d := courtFileData{ID: f.ID, CaseID: f.CaseID, Number: f.Number, Court: f.Court, LinkedBy: f.LinkedBy, LinkedAt: f.LinkedAt.UTC(),
		Hearings: hearingData(f.Hearings)}
	_, err := s.doc(CourtFilesCollection, f.ID).Create(ctx, d)
	created := err == nil
	if err != nil && !exists(err) {
		return store.CourtFile{}, false, fmt.Errorf("link court file: %w", err)
	}
	stored, err := s.courtFile(ctx, nil, f.CaseID, f.ID)
	if err != nil {
		return store.CourtFile{}, false, err
	}
	return stored.toFile(), created, nil
}

// courtFile reads a case's link, in tx when it is not nil; another case's is
// store.ErrNotFound.
func (s *Store) courtFile(ctx context.Context, tx *fs.Transaction, caseID, id string) (courtFileData, error) {
	d, err := read[courtFileData](ctx, tx, s.doc(CourtFilesCollection, id), "court file "+id)
	if err == nil && d.CaseID != caseID {
		return courtFileData{}, fmt.Errorf("court file %s: %w", id, store.ErrNotFound)
	}
	return d, err
}

// ListCourtFiles reads a case's links (one equality filter: no composite index) and
// sorts them oldest first.
func (s *Store) ListCourtFiles(ctx context.Context, caseID string) ([]store.CourtFile, error) {
	docs, err := all[courtFileData](ctx, s.client.Collection(CourtFilesCollection).Where("case_id", "==", caseID))
	if err != nil {
		return nil, fmt.Errorf("list court files: %w", err)
	}
	slices.SortFunc(docs, func(a, b courtFileData) int {
		if c := a.LinkedAt.Compare(b.LinkedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	out := make([]store.CourtFile, len(docs))
	for i, d := range docs {
		out[i] = d.toFile()
	}
	return out, nil
}

// UnlinkCourtFile deletes a case's link, in a transaction.
func (s *Store) UnlinkCourtFile(ctx context.Context, caseID, id string) error {
	ref := s.doc(CourtFilesCollection, id)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		if _, err := s.courtFile(ctx, tx, caseID, id); err != nil {
			return err
		}
		return tx.Delete(ref)
	})
}

// WatchedCourtFiles pages through every link by its ID field.
func (s *Store) WatchedCourtFiles(ctx context.Context, after string, limit int) ([]store.CourtFile, error) {
	q := s.client.Collection(CourtFilesCollection).Where("id", ">", after).OrderBy("id", fs.Asc).Limit(limit)
	docs, err := all[courtFileData](ctx, q)
	if err != nil {
		return nil, fmt.Errorf("list watched court files: %w", err)
	}
	out := make([]store.CourtFile, len(docs))
	for i, d := range docs {
		out[i] = d.toFile()
	}
	return out, nil
}

// RecordCourtHearings sets the file's hearings, stage and time read, in a transaction.
func (s *Store) RecordCourtHearings(ctx context.Context, caseID, id string, hearings []store.CourtHearing, stage string, at time.Time) error {
	ref := s.doc(CourtFilesCollection, id)
	return s.update(ctx, ref, func(ctx context.Context, tx *fs.Transaction) error {
		if _, err := s.courtFile(ctx, tx, caseID, id); err != nil {
			return err
		}
		return tx.Update(ref, []fs.Update{{Path: "hearings", Value: hearingData(hearings)}, {Path: "stage", Value: stage}, {Path: "checked_at", Value: at.UTC()}})
	})
}

// eraseCourtFiles deletes a case's links and counts them.
func (s *Store) eraseCourtFiles(ctx context.Context, caseID string) (int, error) {
	docs, err := s.client.Collection(CourtFilesCollection).Where("case_id", "==", caseID).Select().Documents(ctx).GetAll()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range docs {
		if _, err := d.Ref.Delete(ctx); err != nil && !notFound(err) {
			return n, err
		}
		n++
	}
	return n, nil
}
