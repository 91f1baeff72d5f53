package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/schemas"
)

// Score is how a scenario went: whether every check passed (task success), which
// failed, and its measures.
type Score struct {
	Scenario string   `json:"scenario"`
	Kind     string   `json:"kind"`
	Language string   `json:"language"`
	Success  bool     `json:"success"`
	Failures []string `json:"failures,omitempty"`
	// Error is set when the scenario could not run to its end.
	Error string `json:"error,omitempty"`
	Turns int    `json:"turns"`
	// Citations are the replies' citations, Verified those the corpus verified;
	// the rest are unverified (not found, unknown source, repealed, misquoted).
	Citations  int `json:"citations"`
	Verified   int `json:"verified"`
	Unverified int `json:"unverified"`
	// StepsPerTurn are the model steps of a client turn, on average; TokensPerTurn
	// the model tokens of the case (tiering and the reasoner included) per client
	// turn, as the endpoint reported them.
	StepsPerTurn  float64 `json:"steps_per_turn"`
	TokensPerTurn float64 `json:"tokens_per_turn"`
	// LatencyMeanMS and LatencyMaxMS are the client's wait for a turn's answer.
	LatencyMeanMS int64 `json:"latency_mean_ms"`
	LatencyMaxMS  int64 `json:"latency_max_ms"`
	// Replies are the agent's answers, and Tools its calls with how each ended
	// ("normattiva_search ok"), turn after turn: what a reader of the JSON report
	// looks at when a check fails.
	Replies []string `json:"replies"`
	Tools   []string `json:"tools"`
}

// Judge scores the outcome of sc; runErr is the error that stopped it, if any.
func Judge(sc Scenario, out Outcome, runErr error) Score {
	s := Score{Scenario: sc.Name, Kind: sc.Kind, Language: sc.Language, Turns: len(out.Turns)}
	fail := func(format string, args ...any) { s.Failures = append(s.Failures, fmt.Sprintf(format, args...)) }
	if runErr != nil {
		s.Error = runErr.Error()
		fail("the scenario did not run to its end")
	}
	var used []string
	var replies []string
	var latency, steps time.Duration
	asked := false
	drafted := false
	for _, t := range out.Turns {
		r := t.Result
		replies = append(replies, r.Reply)
		for _, u := range r.ToolsUsed {
			used = append(used, u.Tool, u.Tool+" "+u.Status)
			s.Tools = append(s.Tools, u.Tool+" "+u.Status)
			drafted = drafted || (u.Tool == schemas.ToolGenerateDraftPDF && u.Status == "ok")
		}
		for _, c := range r.Citations {
			s.Citations++
			if c.Status == schemas.CitationVerified {
				s.Verified++
			}
		}
		if r.Status == schemas.StatusWaitingUser || (r.Escalation != nil && r.Escalation.Rung == schemas.RungAskUser) {
			asked = true
		}
		steps += time.Duration(r.Steps)
		latency += t.Latency
		s.LatencyMaxMS = max(s.LatencyMaxMS, t.Latency.Milliseconds())
		if lang := replyLanguage(r.Reply, sc.Language); lang != sc.Language {
			fail("a reply is in %s, not %s: %q", lang, sc.Language, clip(r.Reply, 120))
		}
	}
	s.Replies = replies
	s.Unverified = s.Citations - s.Verified
	if n := len(out.Turns); n > 0 {
		s.StepsPerTurn = float64(steps) / float64(n)
		s.LatencyMeanMS = latency.Milliseconds() / int64(n)
		tokens := 0
		for _, e := range out.Exchanges {
			tokens += e.Tokens
		}
		s.TokensPerTurn = float64(tokens) / float64(n)
	}
	for _, want := range sc.Expect.Tools {
		if !slices.Contains(used, want) {
			fail("no call of %s", want)
		}
	}
	if s.Verified < sc.Expect.VerifiedCitations {
		fail("%d verified citations, want at least %d", s.Verified, sc.Expect.VerifiedCitations)
	}
	details := strings.Join(jsonStrings(out.CaseDetails), "\n")
	for _, want := range sc.Expect.Facts {
		if !strings.Contains(details, want) {
			fail("the case file lacks %q", want)
		}
	}
	if sc.Expect.Draft && !drafted {
		fail("no draft was produced")
	}
	switch {
	case sc.Expect.Question && !asked:
		fail("the client was not asked, though the ladder should have reached them")
	case !sc.Expect.Question && asked:
		fail("the client was asked a question where none was needed")
	}
	all := strings.Join(replies, "\n")
	for _, want := range sc.Expect.Replies {
		if !strings.Contains(all, want) {
			fail("no reply says %q", want)
		}
	}
	if leaks := leaked(sc.Parties, out.Exchanges); len(leaks) > 0 {
		fail("parties' data reached a model: %s", strings.Join(leaks, ", "))
	}
	s.Success = len(s.Failures) == 0
	return s
}

// quoted matches what a reply quotes of its sources, in their own language: spans
// within quotation marks, and list items with their continuation lines up to a blank
// line, as Markdown reads them (the sources found, each with its text).
var quoted = regexp.MustCompile("\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^”]*”|(?m)^[ \\t]*(?:[-*•]|\\d+[.)])[ \\t].*(?:\\n[ \\t]*\\S.*)*")

// replyLanguage is the language of a reply's own words, what it quotes left out (the
// whole reply when it is all quotations); want when it tells none.
func replyLanguage(reply, want string) string {
	own := quoted.ReplaceAllString(reply, "")
	if strings.TrimSpace(own) == "" {
		own = reply
	}
	return language.GuessOr(own, want)
}

// leaked lists the parties' values (of four characters or more) that appear in a
// model request.
func leaked(parties []map[string]any, exchanges []Exchange) []string {
	var out []string
	for _, p := range parties {
		for _, v := range p {
			text, ok := v.(string)
			if !ok || len(text) < 4 || slices.Contains(out, text) {
				continue
			}
			if slices.ContainsFunc(exchanges, func(e Exchange) bool {
				return slices.ContainsFunc(e.Strings, func(s string) bool { return strings.Contains(s, text) })
			}) {
				out = append(out, text)
			}
		}
	}
	return out
}

// jsonStrings are the strings of a JSON document.
func jsonStrings(raw json.RawMessage) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return stringsOf(v, nil)
}

// clip keeps the first n bytes of s, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
