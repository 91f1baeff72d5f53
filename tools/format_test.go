package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func format(t *testing.T, tool string, result string) (string, bool) {
	t.Helper()
	tl, _ := Get(tool)
	text, failure := tl.Format(tool, []byte(result))
	return text, failure == ""
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFormattersFollowSeed000 checks each formatter on seed 000's response shapes.
func TestFormattersFollowSeed000(t *testing.T) {
	for _, tc := range []struct{ tool, result, want string }{
		{"normattiva_search", `{"text":"Art. 2043 - Risarcimento per fatto illecito.","urn":"urn:nir:stato:regio.decreto:1942-03-16;262~art2043","vigente":true}`,
			"[Normattiva: urn:nir:stato:regio.decreto:1942-03-16;262~art2043 - VIGENTE]\nArt. 2043 - Risarcimento per fatto illecito."},
		// Romanian law is not Normattiva's: it has its own label, identifier and URL.
		{"normattiva_search", `{"text":"(1) Cel care cauzează altuia un prejudiciu","vigente":true,"act_title":"Codul civil","article":"1357","jurisdiction":"ro","url":"https://legislatie.just.ro/Public/FormaPrintabila/00000G1TT7EZVJJX6870CWN6ZG1TWPAC"}`,
			"[Portal Legislativ (legislatie.just.ro): Codul civil, art. 1357 - în vigoare]\nhttps://legislatie.just.ro/Public/FormaPrintabila/00000G1TT7EZVJJX6870CWN6ZG1TWPAC\n(1) Cel care cauzează altuia un prejudiciu"},
		{"eurlex_search", `{"text":"Articolo 17 - Diritto alla cancellazione","title":"Regolamento (UE) 2016/679 (GDPR)","celex":"32016R0679"}`,
			"[EUR-Lex: 32016R0679 - Regolamento (UE) 2016/679 (GDPR)]\nArticolo 17 - Diritto alla cancellazione"},
		{"web_search", `{"success":true,"query":"q","results":[{"title":"T","url":"u","content":"snippet"}]}`, "- T: snippet"},
		{"web_search", `{"success":true,"results":[]}`, "[Web search: Nessun risultato]"},
		{"kb_search", `{"results":[]}`, "[KB Massimario: Nessun risultato]"},
		{"kb_search", `{"results":[],"note":"unknown jurisdiction for decisions: want ro, it or all"}`,
			"[KB Massimario: Nessun risultato]\nunknown jurisdiction for decisions: want ro, it or all"},
		{"kb_search", `{"results":[{"riferimento":"Cass. civ., Sez. III, 15/03/2024, n. 12345","testo":"In tema di responsabilità","materia":"Responsabilità civile","rrf_score":0.87}]}`,
			"[KB Massimario: 1 risultati]\n- [Cass. civ., Sez. III, 15/03/2024, n. 12345] (Responsabilità civile) score=0.87: In tema di responsabilità"},
		{"kb_search", `{"results":[{"id":"massima_1","text":"fallback","score":0.5}]}`, "[KB Massimario: 1 risultati]\n- [massima_1] score=0.50: fallback"},
		{"lex_search", `{"results":[]}`, "[Legal Search: Nessun risultato]"},
		{"lex_search", `{"results":[{"title":"Diritto all'oblio","url":"https://altalex.com/x","content":"La Suprema Corte"}]}`,
			"[Legal Search: 1 risultati]\n- Diritto all'oblio (https://altalex.com/x): La Suprema Corte"},
		{"lex_search_enriched", `{"analysis":"## Analisi\nLa giurisprudenza"}`, "[Legal Search Enriched]\n## Analisi\nLa giurisprudenza"},
		{"lex_search_enriched", `{"results":[{"title":"Cass. civ. 2024/1234","url":"https://x","content":"c","vigenza":"vigente"}]}`,
			"[Legal Search Enriched: 1 risultati]\n- Cass. civ. 2024/1234 (https://x): c [vigenza: vigente]"},
		{"lex_search_enriched", `{}`, "[Legal Search Enriched: Nessun risultato]"},
		{"infolex_search", `{}`, "[InfoLex: Nessun risultato]"},
	} {
		got, ok := format(t, tc.tool, tc.result)
		if got != tc.want || !ok {
			t.Errorf("%s %s:\n got %q (ok=%v)\nwant %q", tc.tool, tc.result, got, ok, tc.want)
		}
	}
}

// TestWebSearchMaxResults checks web_search's max_results: validated by its schema
// (an integer, 1 to 10, Edison's 5 injected when absent) and every result asked for
// reaching the model.
func TestWebSearchMaxResults(t *testing.T) {
	tool, _ := Get("web_search")
	res, err := tool.Schema.Validate([]byte(`{"query":"q"}`))
	if err != nil || res.Args["max_results"] != int64(5) {
		t.Errorf("default: %v, %v", res.Args, err)
	}
	if res, err := tool.Schema.Validate([]byte(`{"query":"q","max_results":10}`)); err != nil || res.Args["max_results"] != int64(10) {
		t.Errorf("10: %v, %v", res.Args, err)
	}
	for _, bad := range []string{`0`, `11`, `-3`, `true`, `"7"`, `2.5`} {
		if _, err := tool.Schema.Validate([]byte(`{"query":"q","max_results":` + bad + `}`)); err == nil || !strings.Contains(err.Error(), "max_results") {
			t.Errorf("max_results %s: %v, want refused", bad, err)
		}
	}
	var results []map[string]string
	for i := range 8 {
		results = append(results, map[string]string{"title": fmt.Sprintf("T%d", i), "url": "u", "content": "c"})
	}
	text, ok := format(t, "web_search", string(mustJSON(t, map[string]any{"success": true, "results": results})))
	if !ok || strings.Count(text, "\n- ")+1 != 8 || !strings.Contains(text, "- T7: c") {
		t.Errorf("8 results shown as %q", text)
	}
}

func TestFormatterCaps(t *testing.T) {
	long := strings.Repeat("à", 2000)
	var massime []map[string]string
	for range 5 {
		massime = append(massime, map[string]string{"autorita": "Cass.", "testo": long})
	}
	got, _ := format(t, "infolex_search", string(mustJSON(t, map[string]any{"article_text": "Art. 1", "spiegazione": "S", "massime": massime})))
	if n := strings.Count(got, "- Cass.: "); n != 3 {
		t.Errorf("infolex shows %d massime, want 3", n)
	}
	if !strings.HasPrefix(got, "Testo articolo:\nArt. 1\n\nSpiegazione:\nS\n\nMassime giurisprudenziali:\n- Cass.: "+strings.Repeat("à", 200)+"…") {
		t.Errorf("infolex = %.200q", got)
	}
	var results []map[string]any
	for range 12 {
		results = append(results, map[string]any{"title": long, "url": "u", "content": long, "testo": long, "riferimento": "r"})
	}
	body := string(mustJSON(t, map[string]any{"results": results}))
	got, _ = format(t, "lex_search", body)
	if n := strings.Count(got, "\n- "); n != 8 {
		t.Errorf("lex_search shows %d results, want 8", n)
	}
	if !strings.Contains(got, "- "+strings.Repeat("à", 100)+"… (u): "+strings.Repeat("à", 800)+"…") {
		t.Error("lex_search does not cap title at 100 and content at 800 characters")
	}
	got, _ = format(t, "kb_search", body)
	if n := strings.Count(got, "\n- "); n != 8 || !strings.Contains(got, ": "+strings.Repeat("à", 1000)+"…") {
		t.Errorf("kb_search shows %d results or does not cap snippets at 1000", n)
	}
	got, _ = format(t, "lex_search_enriched", string(mustJSON(t, map[string]any{"analysis": long + long})))
	if len([]rune(got)) != len([]rune("[Legal Search Enriched]\n"))+3000+1 {
		t.Errorf("enriched analysis not capped at 3000 characters: %d", len([]rune(got)))
	}
	// A case tool's JSON is not capped by its formatter: its budget shapes it (Show).
	got, _ = format(t, "update_case_details", string(mustJSON(t, map[string]any{"status": "success", "note": long})))
	if !strings.Contains(got, long) {
		t.Errorf("a case tool's formatter cut its result: %d characters", len([]rune(got)))
	}
}

func TestFormatterFailures(t *testing.T) {
	got, ok := format(t, "kb_search", `{"success":false,"error":"Timeout after 20000ms"}`)
	if ok || got != "[Tool kb_search failed: Timeout after 20000ms]" {
		t.Errorf("LEXE failure = %q, %v", got, ok)
	}
	got, ok = format(t, "get_case_details", `{"status":"error","error_message":"Case ID not found"}`)
	if ok || got != "[Tool get_case_details failed: Case ID not found]" {
		t.Errorf("seed 003 failure = %q, %v", got, ok)
	}
}
