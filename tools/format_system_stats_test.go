package tools

import (
	"strings"
	"testing"

	"github.com/lexflow/lexflow/schemas"
)

// TestSystemStatsIsForAdmins: a client's or support's roles neither see nor may run
// system_stats; an admin's may.
func TestSystemStatsIsForAdmins(t *testing.T) {
	tool, _ := Get(schemas.ToolSystemStats)
	for _, roles := range [][]string{{schemas.RoleUser}, {schemas.RoleSupport}, {schemas.RoleBilling}, {schemas.RoleUser, schemas.RoleSupport}} {
		if tool.AllowedFor(roles) {
			t.Errorf("%v may use system_stats", roles)
		}
	}
	if !tool.AllowedFor([]string{schemas.RoleUser, schemas.RoleAdmin}) {
		t.Error("an admin may not use system_stats")
	}
}

// TestFormatSystemStats: every part read, and a partial answer naming the part that
// failed and the part left out; the operator's tokens are named every organization's.
func TestFormatSystemStats(t *testing.T) {
	whole := schemas.SystemStats{Status: schemas.ResultSuccess,
		TaskQueue: &schemas.QueueStats{Name: "lexflow", Kinds: []schemas.QueueKind{{Kind: "workflow", Backlog: 3, BacklogAgeSeconds: 12}, {Kind: "activity", Backlog: 0}},
			Workers: []schemas.WorkerInfo{{Identity: "1@host", BuildID: "b-42", Deployment: "lexflow", Polls: []string{"workflow", "activity"}, LastSeen: "2026-11-27T10:00:00Z"}}},
		Cases:  &schemas.CaseCounts{Running: 9, PausedSupport: 2, WaitingUser: 1, Stuck: 1, StuckAfterMin: 30},
		Corpus: &schemas.CorpusSize{Articles: 10, Decisions: 5, Sources: map[string]schemas.CorpusSource{"ro-codes": {Articles: 10}, "cassazione": {Decisions: 5}}},
		Store:  &schemas.StoreSize{Collections: []schemas.CollectionSize{{Name: "cases", Documents: 9}, {Name: "transcripts", Documents: 120}}},
		Tokens: &schemas.TokensToday{Day: "2026-11-27", Tokens: 98765}}
	text, ok := format(t, schemas.ToolSystemStats, string(mustJSON(t, whole)))
	for _, want := range []string{"the whole deployment", "workflow backlog 3 (oldest 12 s", "- 1@host: b-42 (deployment lexflow), polls workflow and activity",
		"Cases: 9 running, 2 paused for support, 1 waiting for the client, 1 stuck (no progress for 30 min)",
		"Corpus: 10 articles, 5 decisions; cassazione 0+5; ro-codes 10+0", "Store, documents of every organization: cases 9; transcripts 120",
		"Model tokens of every organization on 2026-11-27 (UTC): 98765"} {
		if !ok || !strings.Contains(text, want) {
			t.Errorf("text lacks %q: %q", want, text)
		}
	}
	partial := schemas.SystemStats{Status: schemas.ResultSuccess, Organization: "acme", Tokens: &schemas.TokensToday{Day: "2026-11-27", Tokens: 1234},
		Failed:  []schemas.PartFailure{{Part: schemas.StatsCases, Reason: "count cases: deadline exceeded"}},
		Omitted: []schemas.PartFailure{{Part: schemas.StatsStore, Reason: "counted across every organization"}}}
	text, ok = format(t, schemas.ToolSystemStats, string(mustJSON(t, partial)))
	if !ok || !strings.Contains(text, "organization acme") || !strings.Contains(text, "Model tokens on 2026-11-27 (UTC): 1234") ||
		!strings.Contains(text, "[cases failed: count cases: deadline exceeded]") || strings.Contains(text, "Task queue") ||
		!strings.Contains(text, "(store left out: counted across every organization)") || strings.Contains(text, "every organization on") {
		t.Errorf("partial answer: %q", text)
	}
}
