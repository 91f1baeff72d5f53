package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// courtFileDoc is a case's link to a court file, under its store.CourtFileID.
type courtFileDoc struct {
	ID        string            `bson:"_id"`
	CaseID    string            `bson:"case_id"`
	Number    string            `bson:"number"`
	Court     string            `bson:"court"`
	LinkedBy  string            `bson:"linked_by"`
	LinkedAt  time.Time         `bson:"linked_at"`
	CheckedAt time.Time         `bson:"checked_at,omitempty"`
	Stage     string            `bson:"stage,omitempty"`
	Hearings  []courtHearingDoc `bson:"hearings"`
}

// courtHearingDoc is a hearing seen in a file.
type courtHearingDoc struct {
	Date         time.Time `bson:"date"`
	Hour         string    `bson:"hour,omitempty"`
	Panel        string    `bson:"panel,omitempty"`
	Result       string    `bson:"result,omitempty"`
	Summary      string    `bson:"summary,omitempty"`
	PronouncedAt time.Time `bson:"pronounced_at,omitempty"`
	Document     string    `bson:"document,omitempty"`
}

func (d courtFileDoc) toFile() store.CourtFile {
	f := store.CourtFile{ID: d.ID, CaseID: d.CaseID, Number: d.Number, Court: d.Court, LinkedBy: d.LinkedBy, LinkedAt: d.LinkedAt,
		CheckedAt: d.CheckedAt, Stage: d.Stage, Hearings: make([]store.CourtHearing, len(d.Hearings))}
	for i, h := range d.Hearings {
		f.Hearings[i] = store.CourtHearing{Date: h.Date, Hour: h.Hour, Panel: h.Panel, Result: h.Result, Summary: h.Summary,
			PronouncedAt: h.PronouncedAt, Document: h.Document}
	}
	return f
}

// hearingDocs is hearings as stored, the first store.MaxCourtHearings.
func hearingDocs(hs []store.CourtHearing) []courtHearingDoc {
	hs = hs[:min(len(hs), store.MaxCourtHearings)]
	out := make([]courtHearingDoc, len(hs))
	for i, h := range hs {
		out[i] = courtHearingDoc{Date: h.Date.UTC(), Hour: h.Hour, Panel: h.Panel, Result: h.Result, Summary: h.Summary,
			PronouncedAt: h.PronouncedAt.UTC(), Document: h.Document}
		if h.PronouncedAt.IsZero() {
			out[i].PronouncedAt = time.Time{}
		}
	}
	return out
}

// LinkCourtFile inserts the link unless its ID is stored, and returns the stored one.
func (s *Store) LinkCourtFile(ctx context.Context, f store.CourtFile) (store.CourtFile, bool, error) {
	d := courtFileDoc{ID: f.ID, CaseID: f.CaseID, Number: f.Number, Court: f.Court, LinkedBy: f.LinkedBy, LinkedAt: f.LinkedAt.UTC(),
		Hearings: hearingDocs(f.Hearings)}
	_, err := s.courtFiles.InsertOne(ctx, d)
	created := err == nil
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return store.CourtFile{}, false, fmt.Errorf("link court file: %w", err)
	}
	stored, err := findOne[courtFileDoc](ctx, s.courtFiles, bson.M{"_id": f.ID, "case_id": f.CaseID}, "court file "+f.ID)
	if err != nil {
		return store.CourtFile{}, false, err
	}
	return stored.toFile(), created, nil
}

// ListCourtFiles returns a case's links, oldest first.
func (s *Store) ListCourtFiles(ctx context.Context, caseID string) ([]store.CourtFile, error) {
	return s.findCourtFiles(ctx, bson.M{"case_id": caseID}, "court files",
		options.Find().SetSort(bson.D{{Key: "linked_at", Value: 1}, {Key: "_id", Value: 1}}))
}

// UnlinkCourtFile deletes a case's link.
func (s *Store) UnlinkCourtFile(ctx context.Context, caseID, id string) error {
	res, err := s.courtFiles.DeleteOne(ctx, bson.M{"_id": id, "case_id": caseID})
	if err != nil {
		return fmt.Errorf("unlink court file: %w", err)
	}
	if res.DeletedCount == 0 {
		return fmt.Errorf("court file %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// WatchedCourtFiles pages through every link by ID.
func (s *Store) WatchedCourtFiles(ctx context.Context, after string, limit int) ([]store.CourtFile, error) {
	return s.findCourtFiles(ctx, bson.M{"_id": bson.M{"$gt": after}}, "watched court files",
		options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(limit)))
}

// findCourtFiles returns the links filter finds, as opts orders and bounds them.
func (s *Store) findCourtFiles(ctx context.Context, filter bson.M, what string, opts *options.FindOptionsBuilder) ([]store.CourtFile, error) {
	docs, err := findAll[courtFileDoc](ctx, s.courtFiles, filter, what, opts)
	if err != nil {
		return nil, err
	}
	out := make([]store.CourtFile, len(docs))
	for i, d := range docs {
		out[i] = d.toFile()
	}
	return out, nil
}

// RecordCourtHearings sets the file's hearings, stage and time read.
func (s *Store) RecordCourtHearings(ctx context.Context, caseID, id string, hearings []store.CourtHearing, stage string, at time.Time) error {
	res, err := s.courtFiles.UpdateOne(ctx, bson.M{"_id": id, "case_id": caseID},
		bson.M{"$set": bson.M{"hearings": hearingDocs(hearings), "stage": stage, "checked_at": at.UTC()}})
	if err != nil {
		return fmt.Errorf("record court hearings: %w", err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("court file %s: %w", id, store.ErrNotFound)
	}
	return nil
}
