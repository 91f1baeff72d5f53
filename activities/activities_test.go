package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/devenv"
	"github.com/lexflow/lexflow/internal/lexetools"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/testcorpus"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
	"github.com/lexflow/lexflow/tools"
)

// st is a store on an embedded FerretDB that TestMain starts, at ferretURI; lc the
// legal corpus it builds.
var (
	st        *mongostore.Store
	ferretURI string
	lc        *corpus.Store
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lexflow-activities-")
	if err != nil {
		panic(err)
	}
	f, err := devenv.StartFerretDB(context.Background(), "127.0.0.1:0", dir, slog.New(slog.DiscardHandler))
	if err != nil {
		panic(err)
	}
	ferretURI = f.URI
	if st, err = mongostore.Open(context.Background(), f.URI, "activities"); err != nil {
		panic(err)
	}
	corpusDB, err := testcorpus.Path(context.Background(), dir)
	if err != nil {
		panic(err)
	}
	if lc, err = corpus.Open(corpusDB); err != nil {
		panic(err)
	}
	code := m.Run()
	f.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// recordingModel is a loopback chat-completions endpoint that answers "ok", streamed
// when asked, and keeps the requests it got.
func recordingModel(t *testing.T) (*llm.Client, *[]map[string]any) {
	var got []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		got = append(got, body)
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	t.Cleanup(srv.Close)
	return llm.New(llm.Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second}), &got
}

func systemOf(req map[string]any) string {
	return req["messages"].([]any)[0].(map[string]any)["content"].(string)
}

// recordingModelCalls is a Model on the store whose assistant is recordingModel's.
func recordingModelCalls(t *testing.T) (*Model, *[]map[string]any) {
	lib, err := prompts.Load("")
	if err != nil {
		t.Fatal(err)
	}
	client, got := recordingModel(t)
	return &Model{Clients: map[schemas.ModelRole]*llm.Client{schemas.ModelAssistant: client}, Transcripts: st, Memories: st,
		Prompts: &SystemPrompts{Library: lib, Versions: st}}, got
}

func TestCallModelAssemblesTheSystemPrompt(t *testing.T) {
	ctx := context.Background()
	m, got := recordingModelCalls(t)
	caseID := fmt.Sprint("model-", time.Now().UnixNano())
	if _, err := st.PutMemory(ctx, store.OwnerID("", "ana"), "Clienta preferă răspunsuri scurte."); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendRecords(ctx,
		store.Record{ID: caseID + ":1:u", CaseID: caseID, TurnNo: 1, Role: schemas.RecordUser, Content: "Proprietarul nu îmi dă garanția înapoi"},
		store.Record{ID: caseID + ":1:a", CaseID: caseID, TurnNo: 1, Seq: 1, Role: schemas.RecordAssistant, Content: "Am notat."},
		store.Record{ID: caseID + ":2:u", CaseID: caseID, TurnNo: 2, Role: schemas.RecordUser, Content: "Și chiria pe martie?"},
	); err != nil {
		t.Fatal(err)
	}
	req := schemas.ModelRequest{Role: schemas.ModelAssistant, CaseID: caseID, TurnNo: 3, Language: "ro", UserID: "ana",
		Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "Ce fac cu garantia?"}},
		Tools:    []string{schemas.ToolGetCaseDetails}, LegalToolsOff: true, UseMemory: true, UseRAG: true, Query: "Ce fac cu garantia?"}
	if _, err := m.CallModel(ctx, req); err != nil {
		t.Fatal(err)
	}
	sys := systemOf((*got)[0])
	for _, want := range []string{"# Asistentul Lexflow", "Case ID: " + caseID, "## ATENȚIE: Instrumentele juridice sunt dezactivate",
		"## Memorie\nClienta preferă răspunsuri scurte.", "## Mai devreme în acest caz\n- turn 1, user: Proprietarul nu îmi dă garanția înapoi"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, sys)
		}
	}
	msgs := (*got)[0]["messages"].([]any)
	if len(msgs) != 5 { // system, three earlier records, the message
		t.Errorf("sent %d messages", len(msgs))
	}
	if tools := (*got)[0]["tools"].([]any); len(tools) != 1 {
		t.Errorf("offered %d tools", len(tools))
	}

	// Switched off, the sources stay out.
	req.LegalToolsOff, req.UseMemory, req.UseRAG = false, false, false
	if _, err := m.CallModel(ctx, req); err != nil {
		t.Fatal(err)
	}
	if sys := systemOf((*got)[1]); strings.Contains(sys, "ATENȚIE") || strings.Contains(sys, "## Memorie") || strings.Contains(sys, "Mai devreme") {
		t.Errorf("system prompt with everything off:\n%s", sys)
	}
}

// TestCallModelReadsKeptFacts: the user's kept facts reach the system prompt under
// the memory heading, before the note, pseudonymized with the parties of the case
// each came from; a fact still proposed does not.
func TestCallModelReadsKeptFacts(t *testing.T) {
	ctx := context.Background()
	m, got := recordingModelCalls(t)
	user, from := fmt.Sprint("facts-", time.Now().UnixNano()), fmt.Sprint("closed-", time.Now().UnixNano())
	owner := store.OwnerID("firm", user)
	if _, err := st.AddParty(ctx, store.Party{CaseID: from, FirstName: "Horia", LastName: "Vântu"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutMemory(ctx, owner, "Preferă răspunsuri scurte."); err != nil {
		t.Fatal(err)
	}
	for i, f := range []store.MemoryFact{{Text: "Închiriază un apartament de la Horia Vântu.", Status: store.FactKept},
		{Text: "Îi datorează lui Horia Vântu 3000 lei.", Status: store.FactProposed}} {
		f.ID, f.Owner, f.CaseID = fmt.Sprint(from, "-", i), owner, from
		if _, err := st.AddMemoryFact(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	req := schemas.ModelRequest{Role: schemas.ModelAssistant, Language: "ro", UserID: user, OrgID: "firm", UseMemory: true,
		Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "Bună ziua"}}}
	if _, err := m.CallModel(ctx, req); err != nil {
		t.Fatal(err)
	}
	sys := systemOf((*got)[0])
	if want := "## Memorie\n- Închiriază un apartament de la {{mem1.party0.fullName}}.\nPreferă răspunsuri scurte.\n"; !strings.Contains(sys, want) {
		t.Errorf("system prompt lacks %q:\n%s", want, sys)
	}
	if strings.Contains(sys, "Vântu") || strings.Contains(sys, "3000 lei") {
		t.Errorf("system prompt holds a party's name or a fact not kept:\n%s", sys)
	}
}

// TestCallModelSendsEarlierResearch checks the history a model call carries, as the
// endpoint receives it: each earlier turn's client message, its tool call (an
// assistant message with tool_calls) and the whole text its result showed the model
// (a tool message answering the call's ID), support's note and the answer, whether or
// not retrieval reads every record.
func TestCallModelSendsEarlierResearch(t *testing.T) {
	ctx := context.Background()
	m, got := recordingModelCalls(t)
	caseID := fmt.Sprint("history-", time.Now().UnixNano())
	var recs []store.Record
	for turn := 1; turn <= 10; turn++ {
		id := fmt.Sprintf("%s:%d", caseID, turn)
		shown := fmt.Sprintf("[KB turn %d] ", turn) + strings.Repeat("massima ", 250)
		recs = append(recs,
			store.Record{ID: id + ":u", CaseID: caseID, TurnNo: turn, Role: schemas.RecordUser, Content: fmt.Sprintf("turn %d user", turn)},
			store.Record{ID: id + ":t", CaseID: caseID, TurnNo: turn, Seq: 1, Role: schemas.RecordTool, Content: tools.Clip(shown, tools.SummaryChars),
				Tool: &store.ToolRecord{Name: schemas.ToolKBSearch, Args: `{"query":"garanzia"}`, Status: schemas.ToolOK, Shown: shown}},
			store.Record{ID: id + ":a", CaseID: caseID, TurnNo: turn, Seq: 2, Role: schemas.RecordAssistant, Content: fmt.Sprintf("turn %d assistant", turn)})
	}
	recs = append(recs, store.Record{ID: caseID + ":n1", CaseID: caseID, TurnNo: 10, Seq: 1001, Role: schemas.RecordSupport, Content: "resumed by support"})
	if err := st.AppendRecords(ctx, recs...); err != nil {
		t.Fatal(err)
	}
	for i, rag := range []bool{false, true} {
		req := schemas.ModelRequest{Role: schemas.ModelAssistant, CaseID: caseID, TurnNo: 11, Language: "en", UseRAG: rag, Query: "turn",
			Messages: []schemas.ChatMessage{{Role: schemas.MsgUser, Content: "now"}}}
		if _, err := m.CallModel(ctx, req); err != nil {
			t.Fatal(err)
		}
		msgs := (*got)[i]["messages"].([]any)
		if len(msgs) != 1+10*4+1+1 {
			t.Fatalf("retrieval %v: sent %d messages", rag, len(msgs))
		}
		for turn := 1; turn <= 10; turn++ {
			user, call, result, answer := msgs[1+(turn-1)*4].(map[string]any), msgs[2+(turn-1)*4].(map[string]any),
				msgs[3+(turn-1)*4].(map[string]any), msgs[4+(turn-1)*4].(map[string]any)
			calls, _ := call["tool_calls"].([]any)
			if user["content"] != fmt.Sprintf("turn %d user", turn) || answer["content"] != fmt.Sprintf("turn %d assistant", turn) || len(calls) != 1 {
				t.Fatalf("retrieval %v, turn %d: %v, %v, %v", rag, turn, user, call, answer)
			}
			fn := calls[0].(map[string]any)["function"].(map[string]any)
			if fn["name"] != schemas.ToolKBSearch || fn["arguments"] != `{"query":"garanzia"}` || result["tool_call_id"] != calls[0].(map[string]any)["id"] {
				t.Errorf("retrieval %v, turn %d: call %v, result for %v", rag, turn, calls[0], result["tool_call_id"])
			}
			if content, _ := result["content"].(string); content != recs[(turn-1)*3+1].Tool.Shown {
				t.Errorf("retrieval %v, turn %d: the result sent has %d characters, want the %d the model read", rag, turn, len(content), len(recs[(turn-1)*3+1].Tool.Shown))
			}
		}
		if note := msgs[len(msgs)-2].(map[string]any); note["role"] != "system" || !strings.Contains(note["content"].(string), "resumed by support") {
			t.Errorf("retrieval %v: support's note = %v", rag, note)
		}
	}
}

func TestRelevantEarlier(t *testing.T) {
	recs := []store.Record{
		{TurnNo: 1, Role: schemas.RecordUser, Content: "Contractul de închiriere a expirat în martie."},
		{TurnNo: 1, Role: schemas.RecordTool, Content: "contractul garanția chiria"},
		{TurnNo: 2, Role: schemas.RecordUser, Content: "Garanția nu a fost returnată de proprietar."},
		{TurnNo: 3, Role: schemas.RecordAssistant, Content: "Vom verifica garantia și contractul."},
	}
	got := relevantEarlier("Ce se întâmplă cu GARANTIA din contract?", recs, 2)
	if len(got) != 2 || !strings.HasPrefix(got[0], "turn 3, assistant:") || !strings.HasPrefix(got[1], "turn 2, user:") {
		t.Errorf("ranked %q", got)
	}
	if got := relevantEarlier("zzz", recs, 3); len(got) != 0 {
		t.Errorf("unrelated query found %q", got)
	}
}

func TestCaseToolAnswers(t *testing.T) {
	ctx := context.Background()
	a := &Cases{Store: st}
	res, err := a.GetCaseDetails(ctx, schemas.GetCaseDetailsArgs{CaseID: "nope"})
	if err != nil || res.Status != "error" || res.ErrorMessage != "Case ID not found" {
		t.Errorf("missing case = %+v, %v", res, err)
	}
	id := fmt.Sprint("tools-", time.Now().UnixNano())
	if _, err := st.CreateCase(ctx, store.Case{ID: id, UserID: "u", Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	upd, err := a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id, Updates: map[string]any{"summary..x": 1}})
	if err != nil || upd.Status != "error" || !strings.HasPrefix(upd.ErrorMessage, "Update failed due to invalid field") {
		t.Errorf("invalid field = %+v, %v", upd, err)
	}
	upd, err = a.UpdateCaseDetails(ctx, schemas.UpdateCaseDetailsArgs{CaseID: id, Updates: map[string]any{"summary.current": "x"}})
	if err != nil || upd.Status != "success" {
		t.Errorf("update = %+v, %v", upd, err)
	}
}

func TestLegalSQLAnswers(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc}
	res, err := a.LegalSQL(ctx, schemas.LegalSQLArgs{TableName: "legislatie",
		QueryString: "SELECT doc_id, title FROM legislatie WHERE jurisdiction = 'ro' AND act_number = '287' AND article = '1357'"})
	if err != nil || res.Status != "success" || len(res.Results) != 1 || res.Results[0]["title"] != "Condițiile răspunderii" {
		t.Errorf("a query: %+v, %v", res, err)
	}
	for _, tc := range []struct{ table, query, want string }{
		{"users", "SELECT 1", "Invalid table name"},
		{"legislatie", "DELETE FROM legislatie", "Unauthorized access: "},
		{"legislatie", "SELECT * FROM jurisprudenta", "Unauthorized access: "},
		{"legislatie", "SELECT nothing FROM legislatie", "Query execution failed: "},
	} {
		res, err := a.LegalSQL(ctx, schemas.LegalSQLArgs{TableName: tc.table, QueryString: tc.query})
		if err != nil || res.Status != "error" || !strings.HasPrefix(res.ErrorMessage, tc.want) {
			t.Errorf("%s on %s: %+v, %v; want an error starting %q", tc.query, tc.table, res, err, tc.want)
		}
	}
}

func TestNormattivaSearch(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc}
	for _, tc := range []struct {
		args            schemas.NormattivaSearchArgs
		textPrefix, urn string
		vigente         bool
	}{
		{schemas.NormattivaSearchArgs{ActType: "codice civile", Article: "2043"}, "Qualunque fatto doloso o colposo",
			"urn:nir:stato:regio.decreto:1942-03-16;262~art2043", true},
		{schemas.NormattivaSearchArgs{ActType: "c.c.", Article: "art. 3"}, "ARTICOLO ABROGATO", "urn:nir:stato:regio.decreto:1942-03-16;262~art3", false},
		{schemas.NormattivaSearchArgs{ActType: "d.lgs", ActNumber: "231", Date: "2001", Article: "5"}, "", "urn:nir:stato:decreto.legislativo:2001-06-08;231~art5", true},
		// Romanian acts are reached the same way.
		{schemas.NormattivaSearchArgs{ActType: "Codul civil", Article: "1357"}, "(1) Cel care cauzează altuia un prejudiciu", "", true},
		{schemas.NormattivaSearchArgs{ActType: "legea", ActNumber: "287", Date: "2009", Article: "articolul 1357"}, "(1) Cel care cauzează", "", true},
	} {
		out, err := a.NormattivaSearch(ctx, tc.args)
		var res schemas.NormattivaResult
		ok := json.Unmarshal(out, &res) == nil
		if err != nil || !ok || !strings.HasPrefix(res.Text, tc.textPrefix) || res.URN != tc.urn || res.Vigente != tc.vigente || res.Text == "" {
			t.Errorf("%+v: %+v, %v", tc.args, out, err)
		}
	}
	if out, _ := a.NormattivaSearch(ctx, schemas.NormattivaSearchArgs{ActType: "codice civile", Article: "99999"}); string(out) != `{"text":"","vigente":false}` {
		t.Errorf("a missing article: %s", out)
	}
	if out, _ := a.NormattivaSearch(ctx, schemas.NormattivaSearchArgs{ActType: "codice della strada", Article: "1"}); !strings.Contains(string(out), `"success":false`) {
		t.Errorf("an unknown act: %s", out)
	}
}

func TestEurlexSearch(t *testing.T) {
	a := &Research{Corpus: lc}
	for lang, prefix := range map[string]string{
		"it": "1. L'interessato ha il diritto di ottenere dal titolare del trattamento la cancellazione",
		"ro": "(1) Persoana vizată are dreptul de a obține din partea operatorului ștergerea",
		"en": "1. The data subject shall have the right to obtain from the controller the erasure",
	} {
		out, err := a.EurlexSearch(context.Background(), schemas.EurlexSearchArgs{ActType: "regolamento", Year: 2016, Number: 679, Article: "17", Language: lang})
		var res schemas.EurlexResult
		_ = json.Unmarshal(out, &res)
		if err != nil || !strings.HasPrefix(res.Text, prefix) || res.CELEX != "32016R0679" {
			t.Errorf("%s: %+v, %v", lang, out, err)
		}
	}
}

func TestInfolexAndKBSearch(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc}
	out, err := a.InfolexSearch(ctx, schemas.InfolexSearchArgs{ActType: "codice penale", Article: "640", IncludeMassime: true})
	var res schemas.InfolexResult
	_ = json.Unmarshal(out, &res)
	if err != nil || !strings.HasPrefix(res.ArticleText, "Truffa\n") || res.Spiegazione != "" {
		t.Fatalf("infolex 640 c.p.: %+v, %v", out, err)
	}
	for _, m := range res.Massime {
		if !strings.HasPrefix(m.Autorita, "Cass. pen., Sez. ") || m.Testo == "" {
			t.Errorf("massima %+v", m)
		}
	}
	out, err = a.KBSearch(ctx, schemas.KBSearchArgs{Query: "misure di prevenzione patrimoniali confisca", TopK: 50})
	var kb schemas.KBSearchResult
	_ = json.Unmarshal(out, &kb)
	if err != nil || len(kb.Results) != 20 || kb.Meta.Source != "kb_search" {
		t.Fatalf("kb_search: %d results, %v", len(kb.Results), err)
	}
	if kb.Results[0].RRFScore < kb.Results[19].RRFScore || !strings.HasPrefix(kb.Results[0].Riferimento, "Cass. pen.") {
		t.Errorf("ranking: first %+v, last %+v", kb.Results[0], kb.Results[19])
	}
	out, _ = a.KBSearch(ctx, schemas.KBSearchArgs{Query: "garantia de participare", TopK: 5, Materia: "achiziții"})
	kb = schemas.KBSearchResult{}
	_ = json.Unmarshal(out, &kb)
	if len(kb.Results) == 0 || !strings.Contains(kb.Results[0].Riferimento, "Curtea de Apel") {
		t.Errorf("Romanian procurement search: %+v", kb.Results)
	}
	out, _ = a.KBSearch(ctx, schemas.KBSearchArgs{Query: "zz", TopK: 5})
	if !strings.Contains(string(out), `"results":[]`) {
		t.Errorf("a query of no words found %s", out)
	}
}

// TestKBSearchWithinAJurisdiction: kb_search within a jurisdiction answers only that
// country's decisions, the same English question reaching each; a jurisdiction the
// corpus has no courts for, or an injected one, is answered with no results and a
// note naming the three it takes, as legislation_search answers one.
func TestKBSearchWithinAJurisdiction(t *testing.T) {
	ctx := context.Background()
	a := &Research{Corpus: lc, Layers: SearchLayers{Glossary: true}}
	for _, j := range []string{"ro", "it"} {
		out, err := a.KBSearch(ctx, schemas.KBSearchArgs{Query: "appeal against the award of a public contract", TopK: 20, Jurisdiction: j})
		var kb schemas.KBSearchResult
		if err == nil {
			err = json.Unmarshal(out, &kb)
		}
		if err != nil || len(kb.Results) == 0 {
			t.Fatalf("within %s: %d results, %v", j, len(kb.Results), err)
		}
		for _, r := range kb.Results {
			if !strings.HasPrefix(r.ID, j+"/") {
				t.Errorf("within %s: %s", j, r.ID)
			}
		}
	}
	for _, j := range []string{"eu", "ro' OR 1=1 --"} {
		out, err := a.KBSearch(ctx, schemas.KBSearchArgs{Query: "appeal", Jurisdiction: j})
		var kb schemas.KBSearchResult
		if err == nil {
			err = json.Unmarshal(out, &kb)
		}
		if err != nil || len(kb.Results) != 0 || !strings.Contains(kb.Note, "want ro, it or all") {
			t.Errorf("within %q: %s, %v; want no results and a note naming ro, it and all", j, out, err)
		}
	}
}

// TestKBSearchTakesTheGlossarySwitch: kb_search's corpus ranking expands a question
// with the glossary when the deployment's search layers say so, and only then: its
// answer is the corpus's ranking with the glossary's layer, or without it.
func TestKBSearchTakesTheGlossarySwitch(t *testing.T) {
	ctx := context.Background()
	const q = "extortion and the notion of financial damage"
	for _, on := range []bool{false, true} {
		a := &Research{Corpus: lc, Layers: SearchLayers{Glossary: on}}
		out, err := a.KBSearch(ctx, schemas.KBSearchArgs{Query: q, TopK: 5})
		var kb schemas.KBSearchResult
		if err == nil {
			err = json.Unmarshal(out, &kb)
		}
		if err != nil {
			t.Fatal(err)
		}
		want, err := lc.SearchDecisionsWith(ctx, q, corpus.DecisionScope{}, 5, corpus.DecisionLayers{Glossary: on})
		if err != nil {
			t.Fatal(err)
		}
		other, err := lc.SearchDecisionsWith(ctx, q, corpus.DecisionScope{}, 5, corpus.DecisionLayers{Glossary: !on})
		if err != nil || len(want) == 0 || len(other) == 0 || want[0].DocID == other[0].DocID {
			t.Fatalf("the glossary does not change the first decision for %q (%v): pick another question", q, err)
		}
		if len(kb.Results) == 0 || kb.Results[0].ID != want[0].DocID {
			t.Errorf("glossary %v: %+v, want %s first", on, kb.Results, want[0].DocID)
		}
	}
}

// TestResearchThroughALexeToolsService answers the search tools from a loopback
// service speaking lexe-tools-it's API instead of the corpus.
func TestResearchThroughALexeToolsService(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != http.StatusOK {
			http.Error(w, "down", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"text":"Art. 2043 - testo dal servizio","urn":"urn:nir:stato:regio.decreto:1942-03-16;262~art2043","vigente":true}`)
	}))
	defer srv.Close()
	a := &Research{Corpus: lc, Backend: lexetools.New(srv.URL, 5*time.Second)}
	out, err := a.NormattivaSearch(context.Background(), schemas.NormattivaSearchArgs{ActType: "codice civile", Article: "2043"})
	if err != nil || !strings.Contains(string(out), "testo dal servizio") {
		t.Fatalf("%s, %v", out, err)
	}
	for code, retryable := range map[int]bool{503: true, 400: false} {
		status = code
		_, err := a.KBSearch(context.Background(), schemas.KBSearchArgs{Query: "x", TopK: 5})
		var appErr *temporal.ApplicationError
		if err == nil || (errors.As(err, &appErr) && appErr.NonRetryable()) == retryable {
			t.Errorf("%d: %v", code, err)
		}
	}
}

func TestGetPartyIDByName(t *testing.T) {
	ctx := context.Background()
	a := &Parties{Cases: st, Parties: st}
	id := fmt.Sprint("parties-", time.Now().UnixNano())
	if _, err := st.CreateCase(ctx, store.Case{ID: id, UserID: "u", Details: store.NewDetails("d")}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []store.Party{
		{CaseID: id, FirstName: "Ion", LastName: "Popescu", CNP: "1800101123456"},
		{CaseID: id, FirstName: "Ștefan", LastName: "Ionescu"},
		{CaseID: id, CompanyName: "Acme SRL", Aliases: []string{"the company", "firma"}},
		{CaseID: id, FirstName: "Ion", LastName: "Marin"},
	} {
		if _, err := st.AddParty(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]schemas.PartyIDResult{
		"ion popescu":            {Status: "success", PartyID: "party0"},
		"Popescu":                {Status: "success", PartyID: "party0"},
		"Stefan":                 {Status: "success", PartyID: "party1"},
		"ştefan ionescu":         {Status: "success", PartyID: "party1"},
		"the Company":            {Status: "success", PartyID: "party2"},
		"ACME  srl":              {Status: "success", PartyID: "party2"},
		"Maria":                  {Status: "not_found", Message: "Party reference not found in case context."},
		"{{party2.name}}":        {Status: "success", PartyID: "party2"},
		" {{ party1.lastName }}": {Status: "success", PartyID: "party1"},
		"{{party9.name}}":        {Status: "error", ErrorMessage: schemas.PlaceholderNotFound},
	} {
		got, err := a.GetPartyIDByName(ctx, schemas.GetPartyIDByNameArgs{CaseID: id, MentionedName: name})
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", name, got, err, want)
		}
	}
	if got, _ := a.GetPartyIDByName(ctx, schemas.GetPartyIDByNameArgs{CaseID: id, MentionedName: "Ion"}); got.Status != "error" || !strings.Contains(got.ErrorMessage, "party0, party3") {
		t.Errorf("an ambiguous name: %+v", got)
	}
	if got, _ := a.GetPartyIDByName(ctx, schemas.GetPartyIDByNameArgs{CaseID: "missing", MentionedName: "Ion"}); got.ErrorMessage != "Case ID not found" {
		t.Errorf("a missing case: %+v", got)
	}
}

// runAsActivity runs fn as the one activity of a workflow whose ID is workflowID (a
// case's, whose activities are metered and publish events), retried up to three times
// a millisecond apart, and returns the workflow's error.
func runAsActivity(workflowID string, fn func(context.Context) error) error {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: "Run"})
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Millisecond, MaximumAttempts: 3}})
		return workflow.ExecuteActivity(ctx, "Run").Get(ctx, nil)
	}, workflow.RegisterOptions{Name: "Caller"})
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: workflowID})
	env.ExecuteWorkflow("Caller")
	return env.GetWorkflowError()
}
