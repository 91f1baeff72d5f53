// Package offline is Lexflow's deterministic offline model: a small program that answers
// the OpenAI chat-completions wire protocol on loopback, so that the real client path,
// tool calling included, runs when no model endpoint is configured. Its rules are listed
// in docs/tools.md under "The offline model".
package offline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lexflow/lexflow/internal/httpserver"
	"github.com/lexflow/lexflow/schemas"
)

// ModelName is the name the offline model answers with.
const ModelName = "lexflow-offline"

// Server is a running offline model.
type Server struct {
	// BaseURL is the OpenAI-compatible base URL, ending in /v1.
	BaseURL string
	srv     *http.Server
}

// Options shape how the offline model answers.
type Options struct {
	// ChunkDelay is the pause between the chunks of a streamed answer (stream: true),
	// so that clients and benchmarks see a stream as a real endpoint sends one.
	ChunkDelay time.Duration
}

// Start serves the offline model on addr ("127.0.0.1:0" for any free port).
func Start(addr string) (*Server, error) { return StartWith(addr, Options{}) }

// StartWith serves the offline model on addr, answering as o says.
func StartWith(addr string, o Options) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("offline model: %w", err)
	}
	srv := httpserver.New(HandlerWith(o), httpserver.Model)
	go func() { _ = srv.Serve(l) }()
	return &Server{BaseURL: "http://" + l.Addr().String() + "/v1", srv: srv}, nil
}

// Stop shuts the server down.
func (s *Server) Stop(ctx context.Context) error { return s.srv.Shutdown(ctx) }

// Handler serves POST /v1/chat/completions and GET /v1/models.
func Handler() http.Handler { return HandlerWith(Options{}) }

// HandlerWith serves POST /v1/chat/completions, streamed when the request asks, and
// GET /v1/models, answering as o says.
func HandlerWith(o Options) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", o.handleCompletion)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": ModelName, "object": "model", "owned_by": "lexflow"},
		}})
	})
	return mux
}

// Wire types: the parts of the chat-completions protocol the offline model reads and writes.
type (
	request struct {
		Model         string    `json:"model"`
		Messages      []message `json:"messages"`
		Stream        bool      `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	message struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []toolCall      `json:"tool_calls,omitempty"`
		ToolCallID string          `json:"tool_call_id,omitempty"`
	}
	toolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
)

// text returns a message's content, whether sent as a string or as text parts.
func (m message) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (o Options) handleCompletion(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "could not parse JSON body: "+err.Error())
		return
	}
	if len(req.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "messages must not be empty")
		return
	}
	offered := map[string]bool{}
	for _, t := range req.Tools {
		offered[t.Function.Name] = true
	}
	reply := decide(req.Messages, offered)
	model := req.Model
	if model == "" {
		model = ModelName
	}
	msg := map[string]any{"role": "assistant", "content": reply.content}
	finish := "stop"
	if len(reply.calls) > 0 {
		msg["tool_calls"] = reply.calls
		finish = "tool_calls"
	}
	prompt, completion := 0, len(strings.Fields(reply.content))
	for _, m := range req.Messages {
		prompt += len(strings.Fields(m.text()))
	}
	id := "chatcmpl-" + digest(reply.content, len(req.Messages))
	usage := map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
	if req.Stream {
		o.stream(w, r, streamed{id: id, model: model, reply: reply, finish: finish, usage: usage, withUsage: req.StreamOptions.IncludeUsage})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      id,
		"object":  "chat.completion",
		"created": 0,
		"model":   model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   usage,
	})
}

// reply is the offline model's answer: tool calls, or content.
type reply struct {
	content string
	calls   []toolCall
}

var (
	caseDetailsRe = regexp.MustCompile(`(?i)case details|details of (the|my) case|detaliile cazului|detaliile dosarului|dettagli del caso|dettagli della pratica`)
	summaryRe     = regexp.MustCompile(`(?is)^\s*(?:summary|rezumat|riassunto)\s*:\s*(.+?)\s*$`)
	factRe        = regexp.MustCompile(`(?is)^\s*(?:fact|fapt|fatto)\s*:\s*(.+?)\s*$`)
	sqlRe         = regexp.MustCompile(`(?is)^\s*sql\s*:\s*(.+?)\s*$`)
	italianArtRe  = regexp.MustCompile(`(?i)\bart(?:icolo|\.)?\s*(\d+(?:[- ]?(?:bis|ter|quater|quinquies|sexies|septies|octies))?)\s*(?:del(?:l[ao])?\s+)?(c\.\s?c\.|c\.\s?p\.|codice civile|codice penale)`)
	romanianArtRe = regexp.MustCompile(`(?i)\bart(?:icolul|\.)?\s*(\d+)\s*(?:din\s+)?((?:noul\s+)?cod(?:ul)?\s+(?:civil|penal|muncii|fiscal|administrativ|de\s+procedur[aă]\s+(?:civil[aă]|penal[aă]|fiscal[aă]))|constitu[tț]i[ae](?:\s+rom[aâ]niei)?)`)
	gdprRe        = regexp.MustCompile(`(?i)(?:gdpr|rgpd|2016/679)\D{0,40}?\bart(?:icolo|icolul|icle|\.)?\s*(\d+)|\bart(?:icolo|icolul|icle|\.)?\s*(\d+)\D{0,40}?(?:gdpr|rgpd|2016/679)`)
	webRe         = regexp.MustCompile(`(?is)^\s*(?:search|cerca|caut[aă])\s*:\s*(.+?)\s*$`)
	partyRe       = regexp.MustCompile(`(?is)^\s*(?:party|parte|partea)\s*:\s*(.+?)\s*$`)
	enrichedRe    = regexp.MustCompile(`(?is)^\s*(?:analysis|analisi|analiz[aă])\s*:\s*(.+?)\s*$`)
	legalWebRe    = regexp.MustCompile(`(?is)^\s*(?:legal search|ricerca legale|c[aă]utare juridic[aă])\s*:\s*(.+?)\s*$`)
	caseLawRe     = regexp.MustCompile(`(?is)^\s*(?:massime|jurispruden[tț][aă]|case law)\s*:\s*(.+?)\s*$`)
	// howLongRe is a client asking how long they have: a term and the day it runs from.
	howLongRe  = regexp.MustCompile(`(?is)(?:how long|c[aâ]t timp|quanto tempo)\D*?(\d{1,4})\s*(?:de\s+)?(days?|zile|giorni|weeks?|s[aă]pt[aă]m[aâ]ni|settimane|months?|luni|mesi|years?|ani|anni)\D*?(\d{4}-\d{2}-\d{2})`)
	caseIDRe   = regexp.MustCompile(`(?m)^Case ID: (\S+)$`)
	languageRe = regexp.MustCompile(`(?m)^Language: (\w+)$`)
	roleRe     = regexp.MustCompile(`(?m)^Role: (\w+)$`)
	// lawRe asks legislation_search by name; questionRe is a question of at least five
	// words that cites nothing the other patterns read, which it is asked too.
	lawRe      = regexp.MustCompile(`(?is)^\s*(?:law|legisla[tț]ie|legislazione|legge|lege)\s*:\s*(.+?)\s*$`)
	questionRe = regexp.MustCompile(`(?s)^\s*(\S+\s+){4,}.*\?\s*$`)
)

// timelineRe is a client asking for the case's timeline chart (generate_image); the
// text after a colon, if any, is its title.
var timelineRe = regexp.MustCompile(`(?is)\b(?:timeline|cronologi[ae])\b(?:\s*:\s*(.+?)\s*$)?`)

// caseSearchRe asks for a search of the case's own documents and messages
// (rag_search): "case search: TEXT" (or "caută în caz:", "cerca nel caso:").
var caseSearchRe = regexp.MustCompile(`(?is)^\s*(?:case search|caut[aă] [iî]n caz|cerca nel caso)\s*:\s*(.+?)\s*$`)

// decide is the offline model's rule book. After tool results it answers, citing them.
// Otherwise, with tools on offer, the latest user message picks a tool:
//   - "case details" (or "detaliile cazului", "dettagli del caso") → get_case_details;
//   - "summary: TEXT" (or "rezumat:", "riassunto:") → update_case_details summary.current;
//   - "fact: TEXT" (or "fapt:", "fatto:") → update_case_details, appending to facts;
//   - "sql: SELECT ..." → legal_sql on jurisprudenta if the query names it, else on
//     legislatie;
//   - "art. 2043 c.c." (or "articolo 575 codice penale") → normattiva_search, or
//     infolex_search when the message asks for massime;
//   - "art. 1357 Cod civil" (or "articolul 1 din Constituția") → normattiva_search;
//   - "art. 17 GDPR" (or "GDPR articolo 17", "RGPD art. 17") → eurlex_search;
//   - "massime: TEXT" (or "jurisprudență:", "case law:") → kb_search;
//   - "law: TEXT" (or "legislație:", "legislazione:", "legge:", "lege:") →
//     legislation_search, and so does a question of five words or more that none of
//     the other patterns reads ("My neighbour flooded my flat: who pays?");
//   - "draft: NAME [rev N]" (or "proiect:", "bozza:") and the Markdown on the next
//     lines → generate_draft_pdf, revision 1 unless given;
//   - "party: NAME" (or "parte:", "partea:") → get_party_id_by_name;
//   - "document: QUESTION" (or "documentul:", "documento:") → list_documents, then
//     read_document on the newest document read, then an answer quoting its line
//     that best matches the question (see documentStep);
//   - "analysis: TEXT" (or "analisi:", "analiză:") → lex_search_enriched;
//   - "legal search: TEXT" (or "ricerca legale:", "căutare juridică:") → lex_search;
//   - "search: TEXT" (or "cerca:", "caută:") → web_search;
//   - "how long do I have: 30 days from 2026-03-02" (or "cât timp am", "quanto tempo
//     ho") → compute_deadline, by Italy's rules in an Italian case, else Romania's;
//   - "case search: TEXT" (or "caută în caz:", "cerca nel caso:") → rag_search;
//   - else "timeline" (or "cronologie", "cronologia"), with a title after a colon if
//     any → generate_image, 1200x720.
//
// When a LEXE research tool failed, it tries web_search, or else lex_search, with the
// message before it answers, if on offer, and the answer says the failed source is
// unavailable.
// A call that answered with the turn's one correction is made again as it was.
//
// It says which tool it asks before calling it ("One moment: I am asking
// get_case_details."), as many real models do, so that a streamed turn shows text
// before its tool runs. Anything else gets a short reply that says what the offline
// model can do. The tiering role classifies (see classify), the escalation role
// advises (see advise), the query role answers from its sources (see answerQuery),
// the document role summarizes (see summarizeDocument) and the memory role proposes
// facts about the client (see proposeFacts).
func decide(msgs []message, offered map[string]bool) reply {
	lang, caseID, role, system := "en", "", "assistant", ""
	for _, m := range msgs {
		if m.Role == "system" {
			system += m.text()
			if g := languageRe.FindStringSubmatch(m.text()); g != nil {
				lang = g[1]
			}
			if g := caseIDRe.FindStringSubmatch(m.text()); g != nil {
				caseID = g[1]
			}
			if g := roleRe.FindStringSubmatch(m.text()); g != nil {
				role = g[1]
			}
		}
	}
	words := phrases[lang]
	if words.intro == "" {
		words = phrases["en"]
	}
	lastUser := -1
	for i, m := range msgs {
		if m.Role == "user" {
			lastUser = i
		}
	}
	if lastUser < 0 {
		return reply{content: words.help}
	}
	user := msgs[lastUser].text()
	switch role {
	case "reasoner":
		return reply{content: analyse(user, words)}
	case "tiering":
		return reply{content: classify(system, user, lang)}
	case "escalation":
		return reply{content: advise(user, lang)}
	case "query":
		return reply{content: answerQuery(user, lang)}
	case "document":
		return reply{content: summarizeDocument(user, lang)}
	case "tool_args":
		return toolArgs(user, offered, len(msgs))
	case "chat":
		return reply{content: answerChat(user, lang)}
	case "memory":
		return reply{content: proposeFacts(user, lang)}
	}
	call := func(name string, args map[string]any) reply {
		if caseID != "" {
			args["case_id"] = caseID
		}
		raw, _ := json.Marshal(args)
		tc := toolCall{ID: "call_" + digest(name+string(raw), len(msgs)), Type: "function"}
		tc.Function.Name, tc.Function.Arguments = name, string(raw)
		return reply{calls: []toolCall{tc}}
	}
	if results := toolResults(msgs[lastUser+1:]); len(results) > 0 {
		if r, ok := documentStep(user, lang, results, call); ok && (len(r.calls) == 0 || offered[r.calls[0].Function.Name]) {
			return withLookup(r, words)
		}
		if tc, ok := corrected(msgs[lastUser+1:]); ok && offered[tc.Function.Name] {
			var args map[string]any
			_ = json.Unmarshal([]byte(tc.Function.Arguments), &args)
			return withLookup(call(tc.Function.Name, args), words)
		}
		if other := otherSource(results, offered); other != "" {
			return withLookup(call(other, map[string]any{"query": user}), words)
		}
		return reply{content: answer(results, words, citedIn(user, lang))}
	}
	r := func() reply {
		switch {
		case offered["get_case_details"] && caseDetailsRe.MatchString(user):
			return call("get_case_details", map[string]any{})
		case offered["update_case_details"] && summaryRe.MatchString(user):
			text := summaryRe.FindStringSubmatch(user)[1]
			return call("update_case_details", map[string]any{"updates": map[string]any{"summary.current": text}})
		case offered["update_case_details"] && factRe.MatchString(user):
			text := factRe.FindStringSubmatch(user)[1]
			return call("update_case_details", map[string]any{"updates": map[string]any{"facts": []any{map[string]any{"fact": text}}}})
		case offered["generate_draft_pdf"] && draftRe.MatchString(user):
			args, _ := draftCall(user)
			return call("generate_draft_pdf", args)
		case offered["list_documents"] && documentRe.MatchString(user):
			return call("list_documents", map[string]any{})
		case offered["get_party_id_by_name"] && partyRe.MatchString(user):
			return call("get_party_id_by_name", map[string]any{"mentioned_name": partyRe.FindStringSubmatch(user)[1]})
		case offered["lex_search_enriched"] && enrichedRe.MatchString(user):
			return plainCall("lex_search_enriched", map[string]any{"query": enrichedRe.FindStringSubmatch(user)[1]}, len(msgs))
		case offered["lex_search"] && legalWebRe.MatchString(user):
			return plainCall("lex_search", map[string]any{"query": legalWebRe.FindStringSubmatch(user)[1]}, len(msgs))
		case offered["web_search"] && webRe.MatchString(user):
			return plainCall("web_search", map[string]any{"query": webRe.FindStringSubmatch(user)[1]}, len(msgs))
		case offered["kb_search"] && caseLawRe.MatchString(user):
			return plainCall("kb_search", map[string]any{"query": caseLawRe.FindStringSubmatch(user)[1]}, len(msgs))
		case offered["eurlex_search"] && gdprRe.MatchString(user):
			m := gdprRe.FindStringSubmatch(user)
			return plainCall("eurlex_search", map[string]any{"act_type": "regolamento", "year": 2016, "number": 679, "article": m[1] + m[2]}, len(msgs))
		case offered["infolex_search"] && italianArtRe.MatchString(user) && strings.Contains(strings.ToLower(user), "massim"):
			m := italianArtRe.FindStringSubmatch(user)
			return plainCall("infolex_search", map[string]any{"act_type": italianCode(m[2]), "article": m[1], "include_massime": true}, len(msgs))
		case offered["normattiva_search"] && italianArtRe.MatchString(user):
			m := italianArtRe.FindStringSubmatch(user)
			return plainCall("normattiva_search", map[string]any{"act_type": italianCode(m[2]), "article": m[1]}, len(msgs))
		case offered["normattiva_search"] && romanianArtRe.MatchString(user):
			m := romanianArtRe.FindStringSubmatch(user)
			return plainCall("normattiva_search", map[string]any{"act_type": m[2], "article": m[1]}, len(msgs))
		case offered["compute_deadline"] && howLongRe.MatchString(user):
			m := howLongRe.FindStringSubmatch(user)
			amount, _ := strconv.Atoi(m[1])
			jurisdiction := "ro"
			if lang == "it" {
				jurisdiction = "it"
			}
			return plainCall("compute_deadline", map[string]any{"jurisdiction": jurisdiction, "from": m[3], "amount": amount,
				"unit": termUnit(m[2])}, len(msgs))
		case offered["rag_search"] && caseSearchRe.MatchString(user): // before the timeline: "case search: cronologia…"
			return call("rag_search", map[string]any{"query": caseSearchRe.FindStringSubmatch(user)[1]})
		case offered["generate_image"] && timelineRe.MatchString(user):
			args := map[string]any{"width": 1200, "height": 720}
			if title := timelineRe.FindStringSubmatch(user)[1]; title != "" {
				args["prompt"] = title
			}
			return call("generate_image", args)
		case offered["legal_sql"] && sqlRe.MatchString(user):
			query := sqlRe.FindStringSubmatch(user)[1]
			table := "legislatie"
			if strings.Contains(strings.ToLower(query), "jurisprudenta") {
				table = "jurisprudenta"
			}
			return plainCall("legal_sql", map[string]any{"query_string": query, "table_name": table}, len(msgs))
		case offered["legislation_search"] && lawRe.MatchString(user):
			return plainCall("legislation_search", map[string]any{"query": lawRe.FindStringSubmatch(user)[1]}, len(msgs))
		case offered["legislation_search"] && questionRe.MatchString(user):
			return plainCall("legislation_search", map[string]any{"query": strings.TrimSpace(user)}, len(msgs))
		}
		return reply{content: words.help}
	}()
	return withLookup(r, words)
}

// withLookup has a reply that calls a tool say so first, as many real models do.
func withLookup(r reply, words wording) reply {
	if len(r.calls) > 0 {
		r.content = fmt.Sprintf(words.lookup, r.calls[0].Function.Name)
	}
	return r
}

// analyse is the offline reasoner: it counts the sources it was given and repeats the
// references with their status, since it cannot reason about them.
func analyse(request string, w wording) string {
	question, sources, section := "", 0, ""
	var refs []string
	for _, line := range strings.Split(request, "\n") {
		switch {
		case strings.HasPrefix(line, "Question: "):
			question = strings.TrimPrefix(line, "Question: ")
		case strings.HasSuffix(line, ":") && !strings.HasPrefix(line, "- "):
			section = line
		case strings.HasPrefix(line, "- ") && section == "Results:":
			sources++
		case strings.HasPrefix(line, "- ") && section == "References:":
			refs = append(refs, strings.TrimPrefix(line, "- "))
		}
	}
	text := fmt.Sprintf(w.analysis, question, sources)
	if len(refs) > 0 {
		text += " " + strings.Join(refs, "; ") + "."
	}
	return text
}

// plainCall calls a tool that takes no case_id.
func plainCall(name string, args map[string]any, n int) reply {
	raw, _ := json.Marshal(args)
	tc := toolCall{ID: "call_" + digest(name+string(raw), n), Type: "function"}
	tc.Function.Name, tc.Function.Arguments = name, string(raw)
	return reply{calls: []toolCall{tc}}
}

// italianCode names the code an abbreviation stands for.
func italianCode(s string) string {
	switch strings.ReplaceAll(strings.ToLower(s), " ", "") {
	case "c.c.", "codicecivile":
		return "codice civile"
	}
	return "codice penale"
}

// toolResult is one tool's answer within the current turn.
type toolResult struct {
	name, content string
}

// toolResults pairs the tool messages of the current turn with the calls they answer.
func toolResults(turn []message) []toolResult {
	names := map[string]string{}
	var out []toolResult
	for _, m := range turn {
		for _, tc := range m.ToolCalls {
			names[tc.ID] = tc.Function.Name
		}
		if m.Role == "tool" {
			out = append(out, toolResult{name: names[m.ToolCallID], content: m.text()})
		}
	}
	return out
}

// gdprCitations cite an article of the GDPR the standard way, per language.
var gdprCitations = map[string]string{"en": "Regulation (EU) 2016/679, Article %s", "ro": "Regulamentul (UE) 2016/679, art. %s",
	"it": "Regolamento (UE) 2016/679, art. %s"}

// citedIn returns the legal citation of a message: a code article as its author wrote
// it, a GDPR article in the standard form of the case's language.
func citedIn(user, lang string) string {
	if m := gdprRe.FindStringSubmatch(user); m != nil {
		format, ok := gdprCitations[lang]
		if !ok {
			format = gdprCitations["en"]
		}
		return fmt.Sprintf(format, m[1]+m[2])
	}
	for _, re := range []*regexp.Regexp{italianArtRe, romanianArtRe} {
		if m := re.FindString(user); m != "" {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// correctionMarker starts the turn's one correction of a tool that answered with an
// error (workflows.toolErrorCorrection).
const correctionMarker = "[This is your one correction for "

// corrected returns the call whose result, the turn's latest, carries the turn's one
// correction: the offline model cannot fix its arguments, so it makes the call again,
// as a model that cannot fix it would, and the turn escalates its second error.
func corrected(turn []message) (toolCall, bool) {
	var last *message
	for i := range turn {
		if turn[i].Role == "tool" {
			last = &turn[i]
		}
	}
	if last == nil || !strings.Contains(last.text(), correctionMarker) {
		return toolCall{}, false
	}
	for _, m := range turn {
		for _, tc := range m.ToolCalls {
			if tc.ID == last.ToolCallID {
				return tc, true
			}
		}
	}
	return toolCall{}, false
}

// lexeSources are the research tools that LEXE's service answers together, so that
// when one fails the others are likely down too.
var lexeSources = []string{"normattiva_search", "eurlex_search", "infolex_search", "kb_search"}

// otherSources are the searches tried, the first on offer, when a LEXE source failed:
// the web search first, which no LEXE service answers.
var otherSources = []string{"web_search", "lex_search"}

// otherSource is the search to try once the turn's research failed: the first of
// otherSources on offer, when a LEXE source failed and none of them ran yet; "" else.
// A real model carries on the same way from "[Tool X failed: …]" (seed 000).
func otherSource(results []toolResult, offered map[string]bool) string {
	failed := false
	for _, r := range results {
		if slices.Contains(otherSources, r.name) {
			return ""
		}
		failed = failed || (slices.Contains(lexeSources, r.name) && strings.HasPrefix(r.content, "[Tool "))
	}
	for _, name := range otherSources {
		if failed && offered[name] {
			return name
		}
	}
	return ""
}

// answer composes the final reply from the tool results, one line each, and ends with
// the sources line. A research result's line starts with the citation it answers.
func answer(results []toolResult, w wording, citation string) string {
	var b strings.Builder
	b.WriteString(w.intro)
	var cited []string
	for _, r := range results {
		line, ok := describe(r, w)
		if ok && citation != "" && (r.name == "normattiva_search" || r.name == "eurlex_search" || r.name == "infolex_search") {
			line = citation + " — " + line
		}
		b.WriteString("\n- " + line)
		if ok && !slices.Contains(cited, r.name) {
			cited = append(cited, r.name)
		}
	}
	if len(cited) > 0 {
		b.WriteString("\n\n" + w.sources + " " + strings.Join(cited, ", "))
	}
	return b.String()
}

// describe renders one tool result as a line of the answer, and reports whether the
// result is one the answer can cite.
func describe(r toolResult, w wording) (string, bool) {
	if strings.HasPrefix(r.content, "[Tool ") {
		// A failure's reason is for the model and support: the client reads that the
		// source is unavailable, and the answer goes on with the other results.
		return fmt.Sprintf(w.unavailable, r.name), false
	}
	var res struct {
		Status       string           `json:"status"`
		ErrorMessage string           `json:"error_message"`
		Results      []map[string]any `json:"results"`
		Success      *bool            `json:"success"`
		Error        string           `json:"error"`
		Text         string           `json:"text"`
		URN          string           `json:"urn"`
		Title        string           `json:"title"`
		ActTitle     string           `json:"act_title"`
		ArticleTitle string           `json:"article_title"`
		ArticleText  string           `json:"article_text"`
		// CitationsToCheck are a draft's citations to check (generate_draft_pdf).
		CitationsToCheck []string `json:"citations_to_check"`
		Massime          []struct {
			Autorita string `json:"autorita"`
		} `json:"massime"`
		PartyID string `json:"partyId"`
		Message string `json:"message"`
	}
	if summary, facts, ok := caseFile(r.content); ok {
		return fmt.Sprintf(w.details, clip(summary, 400), facts), true
	}
	if err := json.Unmarshal([]byte(r.content), &res); err != nil {
		return fmt.Sprintf("%s: %s", r.name, clip(r.content, 300)), true
	}
	switch {
	case res.Status == "error":
		return fmt.Sprintf(w.failed, r.name, res.ErrorMessage), false
	case res.Success != nil && !*res.Success:
		return fmt.Sprintf(w.failed, r.name, res.Error), false
	case res.Status == "not_found":
		return fmt.Sprintf("%s: %s", r.name, res.Message), false
	case res.PartyID != "":
		return fmt.Sprintf(w.party, res.PartyID), true
	case r.name == "compute_deadline":
		var d schemas.ComputedDeadline
		_ = json.Unmarshal([]byte(r.content), &d)
		var rules []string
		for _, rule := range d.Rules {
			rules = append(rules, rule.Article)
		}
		return fmt.Sprintf(w.deadline, d.Due, d.Zone, strings.Join(rules, "; "), len(d.NonWorking)), true
	case r.name == "normattiva_search" || r.name == "eurlex_search":
		if res.Text == "" {
			return fmt.Sprintf(w.none, r.name), false
		}
		head := strings.Join(nonEmpty(res.ActTitle, res.Title, res.ArticleTitle, res.URN), ", ")
		return fmt.Sprintf("%s: %s", head, clip(res.Text, 700)), true
	case r.name == "infolex_search":
		if res.ArticleText == "" {
			return fmt.Sprintf(w.none, r.name), false
		}
		line := clip(strings.ReplaceAll(res.ArticleText, "\n", " — "), 700)
		for _, m := range res.Massime {
			line += "; " + m.Autorita
		}
		return line, true
	case r.name == "lex_search_enriched":
		var enriched struct {
			Analysis        string `json:"analysis"`
			EnrichedResults string `json:"enriched_results"`
		}
		_ = json.Unmarshal([]byte(r.content), &enriched)
		if text := enriched.Analysis + enriched.EnrichedResults; text != "" {
			return clip(strings.ReplaceAll(text, "\n", " "), 700), true
		}
		return fmt.Sprintf(w.none, r.name), false
	case r.name == "web_search" || r.name == "lex_search":
		if len(res.Results) == 0 {
			return fmt.Sprintf(w.none, r.name), false
		}
		var found []string
		for _, h := range res.Results[:min(len(res.Results), 3)] {
			found = append(found, fmt.Sprintf("%v (%v)", h["title"], h["url"]))
		}
		return strings.Join(found, " | "), true
	case r.name == "kb_search":
		if len(res.Results) == 0 {
			return fmt.Sprintf(w.none, r.name), false
		}
		var refs []string
		for _, h := range res.Results[:min(len(res.Results), 3)] {
			refs = append(refs, fmt.Sprintf("%v: %s", h["riferimento"], clip(fmt.Sprint(h["testo"]), 200)))
		}
		return strings.Join(refs, " | "), true
	}
	if res.Results != nil {
		return fmt.Sprintf(w.rows, len(res.Results), clip(compactRows(res.Results), 400)), true
	}
	if res.Status == "success" && len(res.CitationsToCheck) > 0 {
		return fmt.Sprintf(w.done, r.name) + " " + fmt.Sprintf(w.toCheck, strings.Join(res.CitationsToCheck, "; ")), true
	}
	if res.Status == "success" {
		return fmt.Sprintf(w.done, r.name), true
	}
	return fmt.Sprintf("%s: %s", r.name, clip(r.content, 300)), true
}

// wording holds the offline model's phrases in one language.
type wording struct {
	intro, sources, failed, unavailable, details, done, rows, none, analysis, party, help, lookup, toCheck, deadline string
}

var phrases = map[string]wording{
	"en": {
		intro:       "Here is what I found:",
		lookup:      "One moment: I am asking %s.",
		sources:     "Sources:",
		failed:      "%s failed: %s",
		unavailable: "%s is unavailable at the moment, so this answer does without it.",
		details:     "Case summary: %s. Facts recorded: %d.",
		done:        "%s succeeded.",
		toCheck:     "Citations to check in the draft, listed on its last page: %s.",
		rows:        "The query returned %d rows: %s",
		none:        "%s found nothing.",
		party:       "The party is {{%s}} in drafts.",
		deadline:    "The term ends on %s, at 24:00 (%s). Rules applied: %s. Non-working days or suspensions stepped over: %d. This is help, not legal advice.",
		analysis:    "Offline analysis of «%s»: %d sources to read; what they cite, as checked in the corpus:",
		help: "I am Lexflow's offline model, running because no language model is configured. " +
			"I can show the case details (\"show me the case details\"), set the summary (\"summary: ...\") " +
			"or record a fact (\"fact: ...\").",
	},
	"ro": {
		intro:       "Iată ce am găsit:",
		lookup:      "Un moment: consult %s.",
		sources:     "Surse:",
		failed:      "%s a eșuat: %s",
		unavailable: "%s nu este disponibil momentan, așa că acest răspuns se lipsește de el.",
		details:     "Rezumatul cazului: %s. Fapte înregistrate: %d.",
		done:        "%s a reușit.",
		toCheck:     "Citări de verificat în proiect, enumerate pe ultima lui pagină: %s.",
		rows:        "Interogarea a întors %d rânduri: %s",
		none:        "%s nu a găsit nimic.",
		party:       "Partea este {{%s}} în proiecte.",
		deadline:    "Termenul se împlinește pe %s, la ora 24 (%s). Reguli aplicate: %s. Zile nelucrătoare sau suspendări sărite: %d. Este un ajutor, nu o consultanță juridică.",
		analysis:    "Analiză offline pentru «%s»: %d surse de citit; ce citează ele, verificat în corpus:",
		help: "Sunt modelul offline al Lexflow, activ pentru că nu este configurat niciun model de limbaj. " +
			"Pot afișa detaliile cazului („arată-mi detaliile cazului”), seta rezumatul („rezumat: ...”) " +
			"sau înregistra un fapt („fapt: ...”).",
	},
	"it": {
		intro:       "Ecco cosa ho trovato:",
		lookup:      "Un momento: consulto %s.",
		sources:     "Fonti:",
		failed:      "%s non è riuscito: %s",
		unavailable: "%s non è disponibile al momento, quindi questa risposta ne fa a meno.",
		details:     "Riassunto del caso: %s. Fatti registrati: %d.",
		done:        "%s è riuscito.",
		toCheck:     "Citazioni da verificare nella bozza, elencate nella sua ultima pagina: %s.",
		rows:        "La query ha restituito %d righe: %s",
		none:        "%s non ha trovato nulla.",
		party:       "La parte è {{%s}} nelle bozze.",
		deadline:    "Il termine scade il %s, alle 24 (%s). Regole applicate: %s. Giorni non lavorativi o sospensioni saltati: %d. È un aiuto, non una consulenza legale.",
		analysis:    "Analisi offline di «%s»: %d fonti da leggere; ciò che citano, verificato nel corpus:",
		help: "Sono il modello offline di Lexflow, attivo perché non è configurato alcun modello linguistico. " +
			"Posso mostrare i dettagli del caso («mostrami i dettagli del caso»), impostare il riassunto («riassunto: ...») " +
			"o registrare un fatto («fatto: ...»).",
	},
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// compactRows renders query rows on one line, each as its column values.
func compactRows(rows []map[string]any) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		keys := make([]string, 0, len(r))
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		vals := make([]string, len(keys))
		for j, k := range keys {
			vals[j] = fmt.Sprint(r[k])
		}
		parts[i] = strings.Join(vals, " | ")
	}
	return strings.Join(parts, "; ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func digest(s string, n int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d:%s", n, s))
	return hex.EncodeToString(h[:6])
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
}

// termUnit is the compute_deadline unit a client's word for a term's unit names.
func termUnit(word string) string {
	switch w := strings.ToLower(word); {
	case strings.HasPrefix(w, "week"), strings.HasPrefix(w, "s"):
		return "weeks"
	case strings.HasPrefix(w, "month"), w == "luni", w == "mesi":
		return "months"
	case strings.HasPrefix(w, "year"), w == "ani", w == "anni":
		return "years"
	}
	return "days"
}
