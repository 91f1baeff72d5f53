package offline

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"
	"testing"
)

func msg(role, content string) message {
	raw, _ := json.Marshal(content)
	return message{Role: role, Content: raw}
}

var allTools = map[string]bool{"get_case_details": true, "update_case_details": true, "legal_sql": true,
	"normattiva_search": true, "eurlex_search": true, "infolex_search": true, "kb_search": true,
	"web_search": true, "lex_search": true, "lex_search_enriched": true, "legislation_search": true}

func TestRulesPickTools(t *testing.T) {
	system := msg("system", "Case ID: c-9\nLanguage: en")
	for _, tc := range []struct {
		user, tool, args string
	}{
		{"show me the case details", "get_case_details", `{"case_id":"c-9"}`},
		{"Mostrami i dettagli del caso", "get_case_details", `{"case_id":"c-9"}`},
		{"summary: The tenant wants the deposit back", "update_case_details",
			`{"case_id":"c-9","updates":{"summary.current":"The tenant wants the deposit back"}}`},
		{"fapt: contractul a expirat", "update_case_details",
			`{"case_id":"c-9","updates":{"facts":[{"fact":"contractul a expirat"}]}}`},
		{"sql: SELECT doc_id FROM legislatie WHERE article = '2043'", "legal_sql",
			`{"query_string":"SELECT doc_id FROM legislatie WHERE article = '2043'","table_name":"legislatie"}`},
		{"SQL: select court from jurisprudenta", "legal_sql",
			`{"query_string":"select court from jurisprudenta","table_name":"jurisprudenta"}`},
		{"Cosa dice l'art. 2043 c.c.?", "normattiva_search", `{"act_type":"codice civile","article":"2043"}`},
		{"articolo 640 codice penale: ci sono massime?", "infolex_search", `{"act_type":"codice penale","article":"640","include_massime":true}`},
		{"Ce prevede art. 1357 Cod civil?", "normattiva_search", `{"act_type":"Cod civil","article":"1357"}`},
		{"Explică articolul 1 din Constituția României", "normattiva_search", `{"act_type":"Constituția României","article":"1"}`},
		{"Cosa prevede il GDPR all'articolo 17?", "eurlex_search", `{"act_type":"regolamento","article":"17","number":679,"year":2016}`},
		{"Ce spune art. 17 RGPD?", "eurlex_search", `{"act_type":"regolamento","article":"17","number":679,"year":2016}`},
		{"massime: confisca di prevenzione", "kb_search", `{"query":"confisca di prevenzione"}`},
		{"ricerca legale: diritto all'oblio", "lex_search", `{"query":"diritto all'oblio"}`},
		{"analiză: răspunderea civilă delictuală", "lex_search_enriched", `{"query":"răspunderea civilă delictuală"}`},
		{"caută: program instanțe", "web_search", `{"query":"program instanțe"}`},
		{"legge: caparra confirmatoria", "legislation_search", `{"query":"caparra confirmatoria"}`},
		{"My upstairs neighbour flooded my flat: who pays for the damage?", "legislation_search",
			`{"query":"My upstairs neighbour flooded my flat: who pays for the damage?"}`},
		{"Vecinul de sus mi-a inundat apartamentul, cine plătește? ", "legislation_search",
			`{"query":"Vecinul de sus mi-a inundat apartamentul, cine plătește?"}`},
	} {
		r := decide([]message{system, msg("user", tc.user)}, allTools)
		if len(r.calls) != 1 || r.calls[0].Function.Name != tc.tool || r.calls[0].Function.Arguments != tc.args {
			t.Errorf("%q → %+v, want %s %s", tc.user, r.calls, tc.tool, tc.args)
		}
	}
}

// TestShortOrPlainMessagesGetTheHelp keeps legislation_search to questions: a greeting
// or a short question is answered with what the offline model can do.
func TestShortOrPlainMessagesGetTheHelp(t *testing.T) {
	for _, user := range []string{"hello", "What can you do?", "My neighbour flooded my flat."} {
		if r := decide([]message{msg("user", user)}, allTools); len(r.calls) != 0 || !strings.Contains(r.content, "offline model") {
			t.Errorf("%q → %+v, want the help text", user, r)
		}
	}
}

func TestNoToolsOnOfferMeansText(t *testing.T) {
	r := decide([]message{msg("user", "show me the case details")}, map[string]bool{})
	if len(r.calls) != 0 || !strings.Contains(r.content, "offline model") {
		t.Fatalf("reply = %+v, want the help text", r)
	}
}

func TestDeterministic(t *testing.T) {
	in := []message{msg("system", "Case ID: c-1\nLanguage: it"), msg("user", "dettagli del caso")}
	a, b := decide(in, allTools), decide(in, allTools)
	if a.calls[0].ID != b.calls[0].ID {
		t.Fatalf("call IDs differ: %s, %s", a.calls[0].ID, b.calls[0].ID)
	}
}

func TestAnswerCitesOnlyWhatSucceeded(t *testing.T) {
	call := toolCall{ID: "call_1", Type: "function"}
	call.Function.Name = "update_case_details"
	call2 := toolCall{ID: "call_2", Type: "function"}
	call2.Function.Name = "get_case_details"
	in := []message{
		msg("system", "Language: it"),
		msg("user", "fatto: x"),
		{Role: "assistant", ToolCalls: []toolCall{call, call2}},
		{Role: "tool", ToolCallID: "call_1", Content: mustJSON("[Tool update_case_details failed: timed out]")},
		{Role: "tool", ToolCallID: "call_2", Content: mustJSON("case_details:\nsummary: {\"current\":\"Affitto\"}\nparties (placeholders): []\nfacts (the latest 1 of 3): [\"c\"]")},
	}
	r := decide(in, allTools)
	for _, want := range []string{"update_case_details non è disponibile al momento", "Riassunto del caso: Affitto. Fatti registrati: 3", "Fonti: get_case_details"} {
		if !strings.Contains(r.content, want) {
			t.Errorf("answer %q lacks %q", r.content, want)
		}
	}
	if strings.Contains(r.content, "timed out") {
		t.Errorf("answer %q carries the failure's reason to the client", r.content)
	}
	if strings.Contains(r.content, "Fonti: update_case_details") || strings.Contains(r.content, ", update_case_details") {
		t.Errorf("answer cites the failed tool: %q", r.content)
	}
}

func mustJSON(s string) json.RawMessage {
	raw, _ := json.Marshal(s)
	return raw
}

func TestResearchAnswerLeadsWithTheCitation(t *testing.T) {
	call := toolCall{ID: "call_1", Type: "function"}
	call.Function.Name = "eurlex_search"
	in := []message{
		msg("system", "Language: ro"),
		msg("user", "Ce spune art. 17 RGPD?"),
		{Role: "assistant", ToolCalls: []toolCall{call}},
		{Role: "tool", ToolCallID: "call_1", Content: mustJSON(`{"text":"(1) Persoana vizată are dreptul...","title":"Regulamentul (UE) 2016/679","celex":"32016R0679"}`)},
	}
	r := decide(in, allTools)
	if !strings.Contains(r.content, "- Regulamentul (UE) 2016/679, art. 17 — Regulamentul (UE) 2016/679: (1) Persoana vizată") || !strings.HasSuffix(r.content, "Surse: eurlex_search") {
		t.Errorf("answer = %q", r.content)
	}
}

func TestOfflineReasoner(t *testing.T) {
	in := []message{
		msg("system", "# Lexflow reasoner\n\nCase ID: \nLanguage: en\nRole: reasoner"),
		msg("user", "Question: tort\n\nResults:\n- A (u): x\n- B (v): y\n\nReferences:\n- art. 2043 c.c.: vigente\n\nAnalyse..."),
	}
	r := decide(in, allTools)
	want := "Offline analysis of «tort»: 2 sources to read; what they cite, as checked in the corpus: art. 2043 c.c.: vigente."
	if len(r.calls) != 0 || r.content != want {
		t.Errorf("reasoner reply = %q", r.content)
	}
}

// TestWordingsComplete checks that every phrase exists in every language, so that no
// answer is left with an empty format.
func TestWordingsComplete(t *testing.T) {
	for lang, w := range phrases {
		v := reflect.ValueOf(w)
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				t.Errorf("%s lacks the %s phrase", lang, v.Type().Field(i).Name)
			}
		}
	}
}

// TestDraftCitationsToCheckAreTold: the client hears, in the turn's reply, which of
// the draft's citations to check.
func TestDraftCitationsToCheckAreTold(t *testing.T) {
	call := toolCall{ID: "call_1", Type: "function"}
	call.Function.Name = "generate_draft_pdf"
	in := []message{
		msg("system", "Language: ro"),
		msg("user", "proiect: Cerere\n# Cerere"),
		{Role: "assistant", ToolCalls: []toolCall{call}},
		{Role: "tool", ToolCallID: "call_1", Content: mustJSON(`{"status":"success","pdf_gcs_path":"cases/x/drafts/Cerere/rev-1.pdf","citations_to_check":["art. 9999 C.civ.: not_found"]}`)},
	}
	r := decide(in, allTools)
	if !strings.Contains(r.content, "generate_draft_pdf a reușit. Citări de verificat în proiect, enumerate pe ultima lui pagină: art. 9999 C.civ.: not_found.") {
		t.Errorf("answer = %q", r.content)
	}
}

// TestFailedSourceFallsBackToLegalSearch: a LEXE source that failed sends the model to
// lex_search (web_search being off), once, and the answer says the source is
// unavailable without its reason; with web_search on, to web_search.
func TestFailedSourceFallsBackToLegalSearch(t *testing.T) {
	norm := toolCall{ID: "call_1", Type: "function"}
	norm.Function.Name = "normattiva_search"
	lex := toolCall{ID: "call_2", Type: "function"}
	lex.Function.Name = "lex_search"
	in := []message{
		msg("system", "Language: en"),
		msg("user", "art. 2043 c.c."),
		{Role: "assistant", ToolCalls: []toolCall{norm}},
		{Role: "tool", ToolCallID: "call_1", Content: mustJSON("[Tool normattiva_search failed: lexe-tools answered 503: upstream connect error]")},
	}
	if r := decide(in, allTools); len(r.calls) != 1 || r.calls[0].Function.Name != "web_search" {
		t.Fatalf("after the failure, with web_search on: %+v, want a web_search call", r)
	}
	noWeb := maps.Clone(allTools)
	delete(noWeb, "web_search")
	r := decide(in, noWeb)
	if len(r.calls) != 1 || r.calls[0].Function.Name != "lex_search" || !strings.Contains(r.calls[0].Function.Arguments, "art. 2043 c.c.") {
		t.Fatalf("after the failure: %+v, want a lex_search call", r)
	}
	in = append(in, message{Role: "assistant", ToolCalls: []toolCall{lex}},
		message{Role: "tool", ToolCallID: "call_2", Content: mustJSON(`{"results":[{"title":"Art. 2043 c.c.","url":"https://www.brocardi.it/art2043"}]}`)})
	r = decide(in, noWeb)
	if len(r.calls) != 0 || !strings.Contains(r.content, "normattiva_search is unavailable at the moment") ||
		!strings.Contains(r.content, "https://www.brocardi.it/art2043") || !strings.HasSuffix(r.content, "Sources: lex_search") ||
		strings.Contains(r.content, "503") {
		t.Errorf("answer = %q", r.content)
	}
}

// TestCorrectedCallIsMadeAgain: the offline model cannot fix a call the turn corrected,
// so it makes it again, with the same arguments, and then answers.
func TestCorrectedCallIsMadeAgain(t *testing.T) {
	party := toolCall{ID: "call_1", Type: "function"}
	party.Function.Name, party.Function.Arguments = "get_party_id_by_name", `{"mentioned_name":"{{party1.fullName}}"}`
	in := []message{
		msg("system", "Language: en"),
		msg("user", "party: {{party1.fullName}}"),
		{Role: "assistant", ToolCalls: []toolCall{party}},
		{Role: "tool", ToolCallID: "call_1", Content: mustJSON("[Tool get_party_id_by_name failed: Placeholder not found.]\n" +
			"[This is your one correction for get_party_id_by_name: fix what its answer says is wrong and call it again.]")},
	}
	offered := map[string]bool{"get_party_id_by_name": true}
	r := decide(in, offered)
	if len(r.calls) != 1 || r.calls[0].Function.Name != "get_party_id_by_name" || !strings.Contains(r.calls[0].Function.Arguments, "{{party1.fullName}}") {
		t.Fatalf("after the correction: %+v, want the same call again", r)
	}
	in[3].Content = mustJSON("[Tool get_party_id_by_name failed: Placeholder not found.]")
	if r := decide(in, offered); len(r.calls) != 0 {
		t.Errorf("without a correction: %+v, want an answer", r)
	}
}

// TestHowLongComputesTheDeadline: a client asking how long they have gets
// compute_deadline by their case's country's rules, then an answer with the day and
// the rules, in their language.
func TestHowLongComputesTheDeadline(t *testing.T) {
	offered := map[string]bool{"compute_deadline": true, "get_case_details": true}
	for lang, ask := range map[string]string{
		"en": "How long do I have? 30 days from 2026-03-02 to appeal.",
		"ro": "Cât timp am? Am 30 de zile de la 2026-03-02 pentru apel.",
		"it": "Quanto tempo ho? 30 giorni dal 2026-03-02 per l'appello.",
	} {
		in := []message{msg("system", "Language: "+lang+"\nCase ID: c1"), msg("user", ask)}
		r := decide(in, offered)
		want := map[string]string{"en": "ro", "ro": "ro", "it": "it"}[lang]
		if len(r.calls) != 1 || r.calls[0].Function.Name != "compute_deadline" ||
			r.calls[0].Function.Arguments != `{"amount":30,"from":"2026-03-02","jurisdiction":"`+want+`","unit":"days"}` {
			t.Fatalf("%s: %+v, want compute_deadline in %s without case_id", lang, r, want)
		}
		in = append(in, message{Role: "assistant", ToolCalls: r.calls},
			message{Role: "tool", ToolCallID: r.calls[0].ID, Content: mustJSON(`{"status":"success","due":"2026-04-02","zone":"Europe/Bucharest","rules":[{"id":"ro.days","article":"art. 181 alin. (1) pct. 2 C.proc.civ.","detail":"d"}],"non_working":[]}`)})
		answer := decide(in, offered)
		if !strings.Contains(answer.content, "2026-04-02") || !strings.Contains(answer.content, "art. 181") || strings.Contains(answer.content, "compute_deadline failed") {
			t.Errorf("%s: answer %q", lang, answer.content)
		}
	}
}

// TestTimelineRule asks generate_image for a timeline, with the title after a colon,
// and leaves the message to the other rules when the tool is not on offer.
func TestTimelineRule(t *testing.T) {
	system := msg("system", "Case ID: c-9\nLanguage: it")
	offered := map[string]bool{"generate_image": true, "legislation_search": true}
	for user, args := range map[string]string{
		"Show me the timeline of my case":               `{"case_id":"c-9","height":720,"width":1200}`,
		"cronologia: Lo sfratto di {{party0.lastName}}": `{"case_id":"c-9","height":720,"prompt":"Lo sfratto di {{party0.lastName}}","width":1200}`,
		"Vreau cronologie, vă rog":                      `{"case_id":"c-9","height":720,"width":1200}`,
	} {
		r := decide([]message{system, msg("user", user)}, offered)
		if len(r.calls) != 1 || r.calls[0].Function.Name != "generate_image" || r.calls[0].Function.Arguments != args {
			t.Errorf("%q → %+v, want generate_image %s", user, r.calls, args)
		}
	}
	r := decide([]message{system, msg("user", "Can you show me the timeline of my case, please?")}, map[string]bool{"legislation_search": true})
	if len(r.calls) != 1 || r.calls[0].Function.Name != "legislation_search" {
		t.Errorf("without generate_image on offer → %+v, want legislation_search", r.calls)
	}
}

// TestCaseSearchCallsRagSearch: "case search: TEXT" in each language calls rag_search
// on the turn's case with the text as its query, when it is on offer.
func TestCaseSearchCallsRagSearch(t *testing.T) {
	for lang, ask := range map[string]string{"en": "case search: eviction notice", "ro": "caută în caz: eviction notice", "it": "Cerca nel caso: eviction notice"} {
		in := []message{msg("system", "Language: "+lang+"\nCase ID: c1"), msg("user", ask)}
		r := decide(in, map[string]bool{"rag_search": true})
		if len(r.calls) != 1 || r.calls[0].Function.Name != "rag_search" || r.calls[0].Function.Arguments != `{"case_id":"c1","query":"eviction notice"}` {
			t.Errorf("%s: %+v", lang, r)
		}
		if r := decide(in, map[string]bool{"web_search": true}); len(r.calls) != 0 {
			t.Errorf("%s: %+v without rag_search on offer", lang, r)
		}
		timeline := []message{msg("system", "Language: "+lang+"\nCase ID: c1"), msg("user", "case search: the timeline of payments")}
		if r := decide(timeline, map[string]bool{"rag_search": true, "generate_image": true}); len(r.calls) != 1 || r.calls[0].Function.Name != "rag_search" {
			t.Errorf("%s: a case search naming the timeline → %+v, want rag_search", lang, r)
		}
	}
}
