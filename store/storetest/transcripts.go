package storetest

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/lexflow/lexflow/store"
)

// transcriptTests check store.Transcripts.
var transcriptTests = []subtest{
	{"AppendKeepsOneRecordPerID", testAppendKeepsOneRecordPerID},
	{"ListInTurnOrder", testListInTurnOrder},
	{"ListHonoursLimit", testListHonoursLimit},
	{"ListHonoursBeforeTurn", testListHonoursBeforeTurn},
	{"RedactReplacesTheContentAndShownText", testRedactRecord},
}

// transcriptStart is when the records of a test transcript were made.
var transcriptStart = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// record returns the record at seq of a turn of a case: seq 0 is the user's message,
// seq 1 a tool call with the text its result showed the model, and later ones the
// assistant's answer.
func record(caseID string, turn, seq int) store.Record {
	turnID := fmt.Sprintf("%s:turn%d", caseID, turn)
	r := store.Record{ID: fmt.Sprintf("%s:%d", turnID, seq), CaseID: caseID, UserID: "user-of-" + caseID,
		TurnID: turnID, TurnNo: turn, Seq: seq, Content: fmt.Sprintf("turn %d, record %d", turn, seq),
		CreatedAt: transcriptStart.Add(time.Duration(turn)*time.Minute + time.Duration(seq)*time.Second)}
	switch seq {
	case 0:
		r.Role = "user"
	case 1:
		r.Role = "tool"
		r.Tool = &store.ToolRecord{Name: "kb_search", Args: `{"query":"deposit"}`, Status: "error", LatencyMS: 1200, Error: "timeout",
			Shown: fmt.Sprintf("[Tool kb_search failed: timeout] (turn %d, as the model read it)", turn)}
	default:
		r.Role = "assistant"
	}
	return r
}

// sameRecord reports whether a record read back is the one stored.
func sameRecord(got, want store.Record) bool {
	return got.ID == want.ID && got.CaseID == want.CaseID && got.UserID == want.UserID && got.TurnID == want.TurnID &&
		got.TurnNo == want.TurnNo && got.Seq == want.Seq && got.Role == want.Role && got.Content == want.Content &&
		reflect.DeepEqual(got.Tool, want.Tool) && sameTime(got.CreatedAt, want.CreatedAt)
}

// appendRecords stores records that must be stored.
func appendRecords(t *testing.T, s store.Store, recs ...store.Record) {
	t.Helper()
	if err := s.AppendRecords(t.Context(), recs...); err != nil {
		t.Fatalf("AppendRecords = %v", err)
	}
}

// listRecords lists records, failing t on an error.
func listRecords(t *testing.T, s store.Store, caseID string, beforeTurn, limit int) []store.Record {
	t.Helper()
	recs, err := s.ListRecords(t.Context(), caseID, beforeTurn, limit)
	if err != nil {
		t.Fatalf("ListRecords(before turn %d, limit %d) = %v", beforeTurn, limit, err)
	}
	return recs
}

func ids(recs []store.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// checkRecords fails t unless got is want, in order.
func checkRecords(t *testing.T, what string, got, want []store.Record) {
	t.Helper()
	if !slices.Equal(ids(got), ids(want)) {
		t.Errorf("%s = %v\nwant %v", what, ids(got), ids(want))
		return
	}
	for i := range want {
		if !sameRecord(got[i], want[i]) {
			t.Errorf("%s: record %d = %+v\nwant %+v", what, i, got[i], want[i])
		}
	}
}

func testAppendKeepsOneRecordPerID(t *testing.T, s store.Store) {
	caseID := newID("case")
	r := record(caseID, 1, 0)
	appendRecords(t, s, r, r)
	changed := r
	changed.Content = "changed on a retry"
	appendRecords(t, s, changed, record(caseID, 1, 2))
	appendRecords(t, s)
	checkRecords(t, "records", listRecords(t, s, caseID, 0, 0), []store.Record{r, record(caseID, 1, 2)})
}

func testListInTurnOrder(t *testing.T, s store.Store) {
	caseID, other := newID("case"), newID("case")
	var want []store.Record
	for _, turn := range []int{1, 2, 10} {
		for seq := range 3 {
			want = append(want, record(caseID, turn, seq))
		}
	}
	// Stored out of order, in several calls, the first turn made last, and another
	// case's turns in between: the list is in turn order all the same.
	stored := slices.Clone(want)
	stored[0].CreatedAt = transcriptStart.Add(time.Hour)
	want[0] = stored[0]
	slices.Reverse(stored)
	appendRecords(t, s, stored[:4]...)
	appendRecords(t, s, record(other, 1, 0), record(other, 3, 0))
	appendRecords(t, s, stored[4:]...)
	checkRecords(t, "records", listRecords(t, s, caseID, 0, 0), want)
	checkRecords(t, "the other case's records", listRecords(t, s, other, 0, 0), []store.Record{record(other, 1, 0), record(other, 3, 0)})
	if recs := listRecords(t, s, newID("case"), 0, 0); len(recs) != 0 {
		t.Errorf("records of a case without any = %v", ids(recs))
	}
}

// fourTurns stores four turns of two records each for a new case and returns them.
func fourTurns(t *testing.T, s store.Store) []store.Record {
	t.Helper()
	caseID := newID("case")
	var recs []store.Record
	for turn := 1; turn <= 4; turn++ {
		recs = append(recs, record(caseID, turn, 0), record(caseID, turn, 2))
	}
	appendRecords(t, s, recs...)
	return recs
}

func testListHonoursLimit(t *testing.T, s store.Store) {
	recs := fourTurns(t, s)
	caseID := recs[0].CaseID
	for _, tc := range []struct {
		limit int
		want  []store.Record
	}{
		{3, recs[5:]},
		{1, recs[7:]},
		{8, recs},
		{100, recs},
		{0, recs},
		{-1, recs},
	} {
		checkRecords(t, fmt.Sprintf("records with limit %d", tc.limit), listRecords(t, s, caseID, 0, tc.limit), tc.want)
	}
}

func testListHonoursBeforeTurn(t *testing.T, s store.Store) {
	recs := fourTurns(t, s)
	caseID := recs[0].CaseID
	for _, tc := range []struct {
		beforeTurn, limit int
		want              []store.Record
	}{
		{3, 0, recs[:4]},
		{3, 3, recs[1:4]},
		{2, 0, recs[:2]},
		{1, 0, nil},
		{5, 0, recs},
		{0, 0, recs},
		{-1, 2, recs[6:]},
	} {
		what := fmt.Sprintf("records before turn %d with limit %d", tc.beforeTurn, tc.limit)
		checkRecords(t, what, listRecords(t, s, caseID, tc.beforeTurn, tc.limit), tc.want)
	}
}
