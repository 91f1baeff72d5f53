package sealed_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
	"github.com/lexflow/lexflow/store/sealed"
	"github.com/lexflow/lexflow/store/storetest"
)

var uri string

func TestMain(m *testing.M) { os.Exit(testenv.MainWithFerretDB(m.Run, &uri)) }

// open returns a sealed store on a database of its own, and the database's name.
func open(t *testing.T) (*sealed.Store, string) {
	t.Helper()
	db := fmt.Sprintf("sealed_%d", time.Now().UnixNano())
	raw, err := mongostore.Open(t.Context(), uri, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close(context.Background()) })
	w, err := keys.NewLocal("sealed-test-master-sealed-test-master-0123")
	if err != nil {
		t.Fatal(err)
	}
	return sealed.New(raw, keys.NewKeyring(raw, w)), db
}

// TestConformance: the sealed store keeps every promise of the store interfaces.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { s, _ := open(t); return s })
}

// TestNothingInClear writes a case's data through the sealed store and reads every
// document of the database: none holds what the client wrote, and the sealed store
// reads it all back.
func TestNothingInClear(t *testing.T) {
	s, db := open(t)
	ctx := t.Context()
	const word = "Canarescu"
	id := "c-" + fmt.Sprint(time.Now().UnixNano())
	c := store.Case{ID: id, UserID: "u", OrgID: "o", Description: "Dispute with " + word, Language: "ro", Phase: "intake",
		Status: "open", Details: store.NewDetails("Dispute with " + word), CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC()}
	if _, err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateDetails(ctx, id, 0, "", map[string]any{"summary.current": word + " kept the deposit", "facts": []any{"paid " + word},
		"witnesses": map[string]any{"Ion " + word: "saw it"}, "tier": map[string]any{"level": 2, "justification": word}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendRecords(ctx, store.Record{ID: id + "/1", CaseID: id, UserID: "u", TurnID: "t1", TurnNo: 1, Role: "user", Content: "about " + word,
		Tool: &store.ToolRecord{Name: "kb_search", Args: `{"q":"` + word + `"}`, Error: word + " failed"}, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddParty(ctx, store.Party{CaseID: id, FirstName: "Ilinca", LastName: word, Aliases: []string{"Ili " + word}, CNP: "2950317410021",
		Address: "Str. " + word, Email: "x@" + word + ".ro"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTicket(ctx, store.Ticket{ID: id + "/t", CaseID: id, UserID: "u", Description: word + " is stuck",
		Snapshot: map[string]any{"last": word}, Status: store.TicketOpen, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResolveTickets(ctx, id, store.Resolution{Action: "retry", Note: "called " + word, By: "sam", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendEvents(ctx, id, store.Event{ID: "e1", Type: "model.delta", At: time.Now(), Body: []byte(`{"text":"` + word + `"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutMemory(ctx, store.OwnerID("o", "u"), "remember "+word); err != nil {
		t.Fatal(err)
	}
	fact := store.MemoryFact{ID: id + "-f", Owner: store.OwnerID("o", "u"), CaseID: id, Text: "Rents from " + word, Status: store.FactProposed}
	if _, err := s.AddMemoryFact(ctx, fact); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateMemoryFact(ctx, fact.Owner, fact.ID, store.FactChange{Text: "Rented from " + word, Status: store.FactKept}); err != nil {
		t.Fatal(err)
	}
	cf, _, err := s.LinkCourtFile(ctx, store.CourtFile{ID: store.CourtFileID(id, "TribunalulBUCURESTI", "1/3/2024"), CaseID: id,
		Number: "1/3/2024", Court: "TribunalulBUCURESTI", LinkedBy: "u", LinkedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RecordCourtHearings(ctx, id, cf.ID, []store.CourtHearing{{Date: time.Now(), Result: "Obligă pe " + word,
		Summary: "Obligă pârâtul " + word + " la plată"}}, "Fond", time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ListCourtFiles(ctx, id); err != nil || len(got) != 1 || got[0].Hearings[0].Summary != "Obligă pârâtul "+word+" la plată" {
		t.Fatalf("ListCourtFiles = %+v, %v; want the summary opened", got, err)
	}
	if err := s.SetHold(ctx, id, "", &store.Hold{By: "admin", Reason: word + " sues", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	dl := store.Deadline{ID: id + "-dl", CaseID: id, Owner: store.OwnerID("o", "u"), Title: "Appeal against " + word,
		Source: schemas.DeadlineSource{Kind: schemas.SourceCourtOrder, Reference: word + " v. Popescu"}, Due: "2026-03-17",
		EndsAt: time.Now(), Status: schemas.DeadlineActive}
	if _, err := s.CreateDeadline(ctx, dl); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateNotificationSettings(ctx, store.OwnerID("o", "u"), func(ns *store.NotificationSettings) error {
		ns.Email, ns.Pending = "ana@"+word+".ro", &store.EmailCode{Address: "nou@" + word + ".ro", Hash: "h", Expires: time.Now()}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st := schemas.CaseStatus{Phase: "active", Status: "paused_support", Justification: word + " owes rent", Question: "Is " + word + " the landlord?",
		Escalation: &schemas.EscalationStatus{Tool: "kb_search", Error: word + " not found", Question: "Retry for " + word + "?"},
		Stalled:    &schemas.StallStatus{Step: "event", Error: word + " record refused"}, LastResume: &schemas.Resume{Note: "phoned " + word}, Seq: 3}
	if err := s.PutStatus(ctx, id, st); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetCase(ctx, id); err != nil || got.Hold == nil || got.Hold.Reason != word+" sues" {
		t.Fatalf("GetCase's hold = %+v, %v; want the reason opened", got.Hold, err)
	}

	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	names, err := client.Database(db).ListCollectionNames(ctx, bson.M{})
	if err != nil {
		t.Fatal(err)
	}
	docs := 0
	for _, name := range names {
		cur, err := client.Database(db).Collection(name).Find(ctx, bson.M{})
		if err != nil {
			t.Fatal(err)
		}
		for cur.Next(ctx) {
			docs++
			raw := cur.Current.String()
			for _, canary := range []string{word, "2950317410021", "Ilinca"} {
				if strings.Contains(raw, canary) {
					t.Errorf("%s holds %q in clear: %.300s", name, canary, raw)
				}
			}
		}
		cur.Close(ctx)
	}
	if docs < 9 {
		t.Errorf("read %d documents; the case wrote at least 9", docs)
	}

	// All of it reads back.
	got, err := s.GetCase(ctx, id)
	if err != nil || got.Description != c.Description || got.Details["summary"].(map[string]any)["current"] != word+" kept the deposit" ||
		got.Details["witnesses"].(map[string]any)["Ion "+word] != "saw it" || got.Details["tier"].(map[string]any)["level"] != float64(2) {
		t.Errorf("GetCase = %+v, %v", got, err)
	}
	recs, _ := s.ListRecords(ctx, id, 0, 0)
	parties, _ := s.ListParties(ctx, id)
	tickets, _ := s.ListTickets(ctx, id)
	events, _ := s.ListEvents(ctx, id, 0, 0)
	mem, _ := s.GetMemory(ctx, store.OwnerID("o", "u"))
	if facts, err := s.ListMemoryFacts(ctx, store.OwnerID("o", "u")); err != nil || len(facts) != 1 || facts[0].Text != "Rented from "+word {
		t.Errorf("memory facts read back = %+v, %v", facts, err)
	}
	if f, err := s.GetMemoryFact(ctx, store.OwnerID("o", "u"), id+"-f"); err != nil || f.Text != "Rented from "+word || f.Status != store.FactKept {
		t.Errorf("memory fact read back = %+v, %v", f, err)
	}
	if dls, err := s.UserDeadlines(ctx, store.OwnerID("o", "u"), 10); err != nil || len(dls) != 1 ||
		dls[0].Title != dl.Title || dls[0].Source.Reference != dl.Source.Reference {
		t.Errorf("deadlines read back = %+v, %v", dls, err)
	}
	if ns, err := s.GetNotificationSettings(ctx, store.OwnerID("o", "u")); err != nil || ns.Email != "ana@"+word+".ro" ||
		ns.Pending == nil || ns.Pending.Address != "nou@"+word+".ro" {
		t.Errorf("notification settings read back = %+v, %v", ns, err)
	}
	if len(recs) != 1 || recs[0].Tool.Error != word+" failed" || len(parties) != 1 || parties[0].Aliases[0] != "Ili "+word ||
		len(tickets) != 1 || tickets[0].Resolution.Note != "called "+word || len(events) != 1 || string(events[0].Body) != `{"text":"`+word+`"}` ||
		mem.Text != "remember "+word {
		t.Errorf("read back: %+v %+v %+v %+v %+v", recs, parties, tickets, events, mem)
	}
	if got.State == nil || !reflect.DeepEqual(*got.State, st) {
		t.Errorf("status read back = %+v, want %+v", got.State, st)
	}
}

// TestOldDataReadsWithoutAKey: a case stored before sealing existed reads as it is,
// and reading it makes no key.
func TestOldDataReadsWithoutAKey(t *testing.T) {
	s, _ := open(t)
	ctx := t.Context()
	id := "old-" + fmt.Sprint(time.Now().UnixNano())
	if _, err := s.Store.CreateCase(ctx, store.Case{ID: id, UserID: "u", Description: "written in clear", Status: "open",
		Details: store.NewDetails("written in clear"), CreatedAt: time.Now(), UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Store.AppendRecords(ctx, store.Record{ID: id + "/1", CaseID: id, UserID: "u", TurnNo: 1, Role: "user", Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetCase(ctx, id)
	recs, err2 := s.ListRecords(ctx, id, 0, 0)
	if err != nil || err2 != nil || got.Description != "written in clear" || len(recs) != 1 || recs[0].Content != "hello" {
		t.Fatalf("old case reads %+v, %v; records %+v, %v", got, err, recs, err2)
	}
	if _, err := s.Keys.Store.GetKey(ctx, keys.CaseKeyID(id)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reading an old case made a key: %v", err)
	}
}
