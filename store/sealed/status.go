package sealed

import (
	"context"

	"github.com/lexflow/lexflow/schemas"
)

// PutStatus seals the case status's texts that may tell of the case: tiering's
// justification and question, the escalation's error and question, a stall's error and
// support's note.
func (s *Store) PutStatus(ctx context.Context, id string, st schemas.CaseStatus) error {
	k, err := s.caseKey(ctx, id)
	if err != nil {
		return err
	}
	for _, p := range statusTexts(&st) {
		*p = sealString(k, *p)
	}
	return s.Store.PutStatus(ctx, id, st)
}

// openStatus opens what PutStatus sealed.
func openStatus(o *opener, st *schemas.CaseStatus) error {
	for _, p := range statusTexts(st) {
		v, err := openString(o, *p)
		if err != nil {
			return err
		}
		*p = v
	}
	return nil
}

// statusTexts points at st's sealed texts, copying the parts that hold them so that
// writing through the pointers changes no one else's status.
func statusTexts(st *schemas.CaseStatus) []*string {
	texts := []*string{&st.Justification, &st.Question}
	if st.Escalation != nil {
		e := *st.Escalation
		st.Escalation = &e
		texts = append(texts, &e.Error, &e.Question)
	}
	if st.Stalled != nil {
		x := *st.Stalled
		st.Stalled = &x
		texts = append(texts, &x.Error)
	}
	if st.LastResume != nil {
		r := *st.LastResume
		st.LastResume = &r
		texts = append(texts, &r.Note)
	}
	return texts
}
