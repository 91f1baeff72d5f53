package activities

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// ragCase creates a Romanian case of user u for rag_search.
func ragCase(t *testing.T, prefix string) string {
	t.Helper()
	id := fmt.Sprint(prefix, "-", time.Now().UnixNano())
	if _, err := st.CreateCase(context.Background(), store.Case{ID: id, UserID: "rag-user", Language: "ro", Phase: schemas.PhaseActive,
		Status: schemas.StatusOpen, Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestRagSearchRanksTheCasesOwnPassages: rag_search ranks the passages of the case's
// own documents and answered messages by BM25 over stemmed terms, pseudonymized, each
// with its source; it leaves out the turn under way, never reads another case (global
// refused), and bounds the passages and their number.
func TestRagSearchRanksTheCasesOwnPassages(t *testing.T) {
	ctx := context.Background()
	blobs, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := &Documents{Cases: st, Parties: st, Blobs: blobs, Transcripts: st}
	id, other := ragCase(t, "rag"), ragCase(t, "rag-other")
	lease, bill, foreign := "d"+strings.Repeat("1", 32), "d"+strings.Repeat("2", 32), "d"+strings.Repeat("3", 32)
	storedDocument(t, a, id, lease, []string{
		"Contract de închiriere. Chiriașul Ion Popescu plătește chiria în prima zi a lunii.",
		"Clauza penală. Întârzierea plății atrage penalități de 0,5% pe zi.\n\nEvacuarea chiriașului se face numai prin hotărâre judecătorească, după notificare.",
		strings.Repeat("Alte prevederi generale despre întreținerea imobilului. ", 200),
	})
	storedDocument(t, a, id, bill, []string{"Factura de energie electrică pentru luna martie."})
	storedDocument(t, a, other, foreign, []string{"Evacuarea evacuare evacuări: notificare de evacuare a chiriașului."})
	if _, err := st.AddParty(ctx, store.Party{CaseID: id, FirstName: "Ion", LastName: "Popescu"}); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := st.AppendRecords(ctx,
		store.Record{ID: id + "-u1", CaseID: id, UserID: "rag-user", TurnID: "t1", TurnNo: 1, Role: schemas.RecordUser,
			Content: "Sunt Ion Popescu (tel. 0722 123 456): proprietarul mă amenință cu evacuarea.", CreatedAt: now},
		store.Record{ID: id + "-a1", CaseID: id, UserID: "rag-user", TurnID: "t1", TurnNo: 1, Seq: 1, Role: schemas.RecordAssistant,
			Content: "Evacuarea cere o hotărâre judecătorească.", CreatedAt: now},
		store.Record{ID: id + "-u2", CaseID: id, UserID: "rag-user", TurnID: "t2", TurnNo: 2, Role: schemas.RecordUser,
			Content: "evacuare evacuare evacuare notificare chiriaș", CreatedAt: now},
	); err != nil {
		t.Fatal(err)
	}

	r, err := a.RagSearch(ctx, schemas.RagSearchArgs{CaseID: id, Query: "Când poate avea loc evacuarea chiriașilor după notificări?"})
	if err != nil || r.Status != schemas.ResultSuccess || len(r.Passages) != schemas.DefaultRagResults {
		t.Fatalf("search: %+v, %v", r, err)
	}
	top := r.Passages[0]
	if top.Source != schemas.RagSourceDocument || top.DocumentID != lease || top.Page != 2 || top.Title != "lease.docx" || !strings.Contains(top.Text, "Evacuarea chiriașului") {
		t.Errorf("best passage %+v, want the lease's page 2 on evictions (stemmed: chiriașilor, notificări)", top)
	}
	if r.Documents != 2 || r.Pages != 4 || r.Messages != 2 || r.Searched < 7 {
		t.Errorf("searched %d documents, %d pages, %d messages, %d passages", r.Documents, r.Pages, r.Messages, r.Searched)
	}
	var sawTurn bool
	for i, p := range r.Passages {
		if p.DocumentID == foreign || p.Turn == 2 {
			t.Errorf("passage %+v: another case's document or the turn under way", p)
		}
		if strings.Contains(p.Text, "Popescu") || strings.Contains(p.Text, "0722") {
			t.Errorf("passage %q is not pseudonymized", p.Text)
		}
		if i > 0 && p.Score > r.Passages[i-1].Score {
			t.Errorf("passages out of order: %+v", r.Passages)
		}
		if p.Source == schemas.RagSourceTranscript && p.Turn == 1 && p.Role == "user" {
			sawTurn = true
			if !strings.Contains(p.Text, "{{party0.fullName}}") || !strings.Contains(p.Text, "{{doc.phone.1}}") {
				t.Errorf("the client's message reads %q", p.Text)
			}
		}
	}
	if !sawTurn {
		r, _ := a.RagSearch(ctx, schemas.RagSearchArgs{CaseID: id, Query: "proprietarul amenință", Limit: 1})
		if len(r.Passages) != 1 || r.Passages[0].Turn != 1 || r.Passages[0].Role != "user" ||
			!strings.Contains(r.Passages[0].Text, "{{party0.fullName}}") || !strings.Contains(r.Passages[0].Text, "{{doc.phone.1}}") {
			t.Errorf("the client's earlier message: %+v", r.Passages)
		}
	}

	r, _ = a.RagSearch(ctx, schemas.RagSearchArgs{CaseID: id, Query: "prevederi generale întreținerea imobilului", Limit: 50})
	if len(r.Passages) != schemas.MaxRagResults {
		t.Errorf("limit 50 gave %d passages, want %d", len(r.Passages), schemas.MaxRagResults)
	}
	for _, p := range r.Passages {
		if n := utf8.RuneCountInString(p.Text); n > schemas.RagPassageChars || p.Page != 3 {
			t.Errorf("passage of %d characters from page %d", n, p.Page)
		}
	}

	for _, tc := range []struct {
		name string
		args schemas.RagSearchArgs
		want string
	}{
		{"global", schemas.RagSearchArgs{CaseID: id, Query: "evacuare", Global: true}, schemas.RagGlobalRefused},
		{"no such case", schemas.RagSearchArgs{CaseID: "absent", Query: "evacuare"}, schemas.CaseNotFound},
		{"no word", schemas.RagSearchArgs{CaseID: id, Query: "și de la"}, "no word"},
	} {
		r, err := a.RagSearch(ctx, tc.args)
		if err != nil || r.Status != schemas.ResultError || r.ErrorMessage != tc.want && !strings.Contains(r.ErrorMessage, tc.want) || len(r.Passages) != 0 {
			t.Errorf("%s: %+v, %v", tc.name, r, err)
		}
	}
	if r, _ := a.RagSearch(ctx, schemas.RagSearchArgs{CaseID: id, Query: "zanzibar"}); r.Status != schemas.ResultSuccess || len(r.Passages) != 0 {
		t.Errorf("no match: %+v", r)
	}
}

func TestPassagesOf(t *testing.T) {
	text := "Unu doi.\n\nTrei patru.\n\n" + strings.Repeat("cuvânt ", 300) + "\n\nSfârșit."
	got := passagesOf(text, 100)
	if got[0] != "Unu doi.\n\nTrei patru." || got[len(got)-1] != "Sfârșit." {
		t.Errorf("paragraphs joined and kept: %q … %q", got[0], got[len(got)-1])
	}
	var all []string
	for _, p := range got {
		if n := utf8.RuneCountInString(p); n > 100 || n == 0 {
			t.Errorf("passage of %d characters", n)
		}
		all = append(all, strings.Fields(p)...)
	}
	if want := strings.Fields(text); len(all) != len(want) {
		t.Errorf("%d words in the passages, %d in the text", len(all), len(want))
	}
	if long := passagesOf(strings.Repeat("x", 250), 100); len(long) != 3 || long[2] != strings.Repeat("x", 50) {
		t.Errorf("a word longer than a passage: %q", long)
	}
}
