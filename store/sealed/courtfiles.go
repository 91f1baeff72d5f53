package sealed

import (
	"context"
	"time"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// The hearings' results name parties (solutieSumar: "Obligă pe pârâtul POPESCU ION
// la plata..."): their Result and Summary are sealed under the case's key. The
// number, court, dates and panel stay in clear, as the portal publishes them and the
// watch queries nothing by them.

// LinkCourtFile seals the link's hearings and stores it.
func (s *Store) LinkCourtFile(ctx context.Context, f store.CourtFile) (store.CourtFile, bool, error) {
	k, err := s.caseKey(ctx, f.CaseID)
	if err != nil {
		return store.CourtFile{}, false, err
	}
	f.Hearings = sealHearings(k, f.Hearings)
	stored, created, err := s.Store.LinkCourtFile(ctx, f)
	if err != nil {
		return store.CourtFile{}, false, err
	}
	stored, err = openCourtFile(openerOf(k), stored)
	return stored, created, err
}

// ListCourtFiles opens a case's links.
func (s *Store) ListCourtFiles(ctx context.Context, caseID string) ([]store.CourtFile, error) {
	fs, err := s.Store.ListCourtFiles(ctx, caseID)
	if err != nil || len(fs) == 0 {
		return fs, err
	}
	o := s.opener(ctx, keys.CaseKeyID(caseID))
	for i := range fs {
		if fs[i], err = openCourtFile(o, fs[i]); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// WatchedCourtFiles opens each link under its own case's key.
func (s *Store) WatchedCourtFiles(ctx context.Context, after string, limit int) ([]store.CourtFile, error) {
	fs, err := s.Store.WatchedCourtFiles(ctx, after, limit)
	if err != nil {
		return nil, err
	}
	for i := range fs {
		if fs[i], err = openCourtFile(s.opener(ctx, keys.CaseKeyID(fs[i].CaseID)), fs[i]); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// RecordCourtHearings seals the hearings' results and records them.
func (s *Store) RecordCourtHearings(ctx context.Context, caseID, id string, hearings []store.CourtHearing, stage string, at time.Time) error {
	k, err := s.caseKey(ctx, caseID)
	if err != nil {
		return err
	}
	return s.Store.RecordCourtHearings(ctx, caseID, id, sealHearings(k, hearings), stage, at)
}

// sealHearings is a copy of hearings with their results sealed.
func sealHearings(k *keys.Key, hs []store.CourtHearing) []store.CourtHearing {
	out := make([]store.CourtHearing, len(hs))
	for i, h := range hs {
		h.Result, h.Summary = sealString(k, h.Result), sealString(k, h.Summary)
		out[i] = h
	}
	return out
}

// openCourtFile opens a link's hearings' results.
func openCourtFile(o *opener, f store.CourtFile) (store.CourtFile, error) {
	hs := make([]store.CourtHearing, len(f.Hearings))
	for i, h := range f.Hearings {
		var err error
		if h.Result, err = openString(o, h.Result); err != nil {
			return store.CourtFile{}, err
		}
		if h.Summary, err = openString(o, h.Summary); err != nil {
			return store.CourtFile{}, err
		}
		hs[i] = h
	}
	f.Hearings = hs
	return f, nil
}
