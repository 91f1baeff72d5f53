package mongostore_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/lexflow/lexflow/devenv"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
)

// uri is the embedded FerretDB that TestMain starts for the package's tests.
var uri string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lexflow-ferretdb-")
	if err != nil {
		panic(err)
	}
	f, err := devenv.StartFerretDB(context.Background(), "127.0.0.1:0", dir, slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	uri = f.URI
	code := m.Run()
	f.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

func open(t *testing.T) *mongostore.Store {
	t.Helper()
	ctx := context.Background()
	s, err := mongostore.Open(ctx, uri, fmt.Sprintf("test_%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	return s
}

func TestCreateAndGetCase(t *testing.T) {
	s, ctx := open(t), context.Background()
	c := store.Case{ID: "c1", UserID: "alice", Description: "deposit", Language: "ro", Phase: "intake", Status: "open",
		Details: store.NewDetails("deposit")}
	got, err := s.CreateCase(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != "alice" || got.Language != "ro" || got.CreatedAt.IsZero() {
		t.Fatalf("created case = %+v", got)
	}
	// Creating again returns the stored case, unchanged.
	again, err := s.CreateCase(ctx, store.Case{ID: "c1", UserID: "alice", Description: "other"})
	if err != nil || again.Description != "deposit" {
		t.Fatalf("second create = %+v, %v; want the first case back", again, err)
	}
	summary := got.Details["summary"].(map[string]any)
	if summary["current"] != "deposit" {
		t.Fatalf("summary = %v", summary)
	}
	if _, err := s.GetCase(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetCase(missing) = %v, want ErrNotFound", err)
	}
	if err := s.SetPhase(ctx, "c1", "active", "open"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetCase(ctx, "c1"); got.Phase != "active" {
		t.Fatalf("phase = %q, want active", got.Phase)
	}
	if err := s.SetPhase(ctx, "missing", "active", "open"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPhase(missing) = %v, want ErrNotFound", err)
	}
}

func TestUpdateDetails(t *testing.T) {
	s, ctx := open(t), context.Background()
	if _, err := s.CreateCase(ctx, store.Case{ID: "c2", UserID: "alice", Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	v, err := s.UpdateDetails(ctx, "c2", 0, map[string]any{
		"summary.current":            "now",
		"facts":                      []any{map[string]any{"fact": "one"}},
		"legal_research.legislation": []any{"L1"},
	})
	if err != nil || v != 1 {
		t.Fatalf("first update = %d, %v", v, err)
	}
	v, err = s.UpdateDetails(ctx, "c2", 0, map[string]any{
		"facts":                      []any{map[string]any{"fact": "two"}, map[string]any{"fact": "three"}},
		"legal_research.legislation": []any{"L2"},
	})
	if err != nil || v != 2 {
		t.Fatalf("second update = %d, %v", v, err)
	}
	c, err := s.GetCase(ctx, "c2")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Details["summary"].(map[string]any)["current"]; got != "now" {
		t.Errorf("summary.current = %v", got)
	}
	if got := c.Details["summary"].(map[string]any)["initial"]; got != "d" {
		t.Errorf("summary.initial = %v; a dot-path update must leave siblings alone", got)
	}
	if facts := c.Details["facts"].([]any); len(facts) != 3 || facts[2].(map[string]any)["fact"] != "three" {
		t.Errorf("facts = %v, want three appended entries", facts)
	}
	if leg := c.Details["legal_research"].(map[string]any)["legislation"].([]any); len(leg) != 1 || leg[0] != "L2" {
		t.Errorf("legislation = %v, want it replaced by [L2]", leg)
	}
	if c.Version != 2 {
		t.Errorf("version = %d, want 2", c.Version)
	}

	if _, err := s.UpdateDetails(ctx, "missing", 0, map[string]any{"a": 1}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update of a missing case = %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateDetails(ctx, "c2", 0, map[string]any{"$bad": 1}); !errors.Is(err, store.ErrInvalidField) {
		t.Errorf("update of $bad = %v, want ErrInvalidField", err)
	}
	// summary.current is a string: nothing can be set inside it.
	if _, err := s.UpdateDetails(ctx, "c2", 0, map[string]any{"summary.current.x": 1}); !errors.Is(err, store.ErrInvalidField) {
		t.Errorf("update through a string = %v, want ErrInvalidField", err)
	}
}

func TestTranscript(t *testing.T) {
	s, ctx := open(t), context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := func(turn, seq int, role string) store.Record {
		return store.Record{ID: fmt.Sprintf("t%d:%d", turn, seq), CaseID: "c3", UserID: "alice", TurnNo: turn, Seq: seq, Role: role,
			Content: fmt.Sprintf("%s %d", role, turn), CreatedAt: at}
	}
	// Stored out of order and twice: the transcript keeps one of each, in turn order.
	if err := s.AppendRecords(ctx, rec(2, 0, "user"), rec(1, 1, "assistant"), rec(1, 0, "user")); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendRecords(ctx, rec(1, 1, "assistant"), rec(2, 1, "assistant")); err != nil {
		t.Fatal(err)
	}
	all, err := s.ListRecords(ctx, "c3", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range all {
		ids = append(ids, r.ID)
	}
	if fmt.Sprint(ids) != "[t1:0 t1:1 t2:0 t2:1]" {
		t.Fatalf("records = %v", ids)
	}
	if !all[0].CreatedAt.Equal(at) {
		t.Errorf("created_at = %v, want %v", all[0].CreatedAt, at)
	}
	before, err := s.ListRecords(ctx, "c3", 2, 0)
	if err != nil || len(before) != 2 {
		t.Fatalf("records before turn 2 = %v, %v", before, err)
	}
	latest, err := s.ListRecords(ctx, "c3", 0, 3)
	if err != nil || len(latest) != 3 || latest[0].ID != "t1:1" {
		t.Fatalf("latest 3 = %v, %v", latest, err)
	}
}

func TestMemory(t *testing.T) {
	s, ctx := open(t), context.Background()
	m, err := s.GetMemory(ctx, "alice")
	if err != nil || m.Text != "" || m.UserID != "alice" {
		t.Fatalf("memory of a new user = %+v, %v", m, err)
	}
	if _, err := s.PutMemory(ctx, "alice", "Prefers answers in Romanian."); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutMemory(ctx, "alice", "Prefers answers in Italian."); err != nil {
		t.Fatal(err)
	}
	m, err = s.GetMemory(ctx, "alice")
	if err != nil || m.Text != "Prefers answers in Italian." || m.UpdatedAt.IsZero() {
		t.Fatalf("memory = %+v, %v", m, err)
	}
	if other, _ := s.GetMemory(ctx, "bob"); other.Text != "" {
		t.Errorf("bob sees %q", other.Text)
	}
}

func TestParties(t *testing.T) {
	s, ctx := open(t), context.Background()
	for _, p := range []store.Party{
		{CaseID: "c9", FirstName: "Ion", LastName: "Popescu", CNP: "1800101123456"},
		{CaseID: "c9", CompanyName: "Acme SRL", CUI: "RO123456", Aliases: []string{"the company"}},
		{CaseID: "other", FirstName: "Ana"},
	} {
		if _, err := s.AddParty(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ListParties(ctx, "c9")
	if err != nil || len(got) != 2 || got[0].ID != "party0" || got[1].ID != "party1" || got[0].CNP != "1800101123456" || got[1].Aliases[0] != "the company" {
		t.Fatalf("parties = %+v, %v", got, err)
	}
	if other, _ := s.ListParties(ctx, "other"); len(other) != 1 || other[0].ID != "party0" {
		t.Errorf("another case's parties = %+v", other)
	}
}
