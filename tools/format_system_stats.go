package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// maxStatsWorkers bounds the workers system_stats' text lists.
const maxStatsWorkers = 20

// formatSystemStats shows system_stats' parts one per paragraph, then the parts not
// read and why, so that a partial answer says which part failed.
func formatSystemStats(name string, result []byte) (string, string) {
	var r schemas.SystemStats
	if json.Unmarshal(result, &r) != nil || r.Status == schemas.ResultError {
		return formatStatus(name, result)
	}
	var b strings.Builder
	if r.Organization != "" {
		fmt.Fprintf(&b, "Lexflow, organization %s:", r.Organization)
	} else {
		b.WriteString("Lexflow, the whole deployment:")
	}
	if q := r.TaskQueue; q != nil {
		fmt.Fprintf(&b, "\nTask queue %s:", q.Name)
		for _, k := range q.Kinds {
			fmt.Fprintf(&b, " %s backlog %d (oldest %.0f s, %.1f added/s, %.1f dispatched/s);", k.Kind, k.Backlog, k.BacklogAgeSeconds, k.AddRate, k.DispatchRate)
		}
		fmt.Fprintf(&b, "\nWorkers: %d", len(q.Workers))
		for _, w := range first(q.Workers, maxStatsWorkers) {
			build := w.BuildID
			if build == "" {
				build = "no build ID"
			}
			fmt.Fprintf(&b, "\n- %s: %s", w.Identity, build)
			if w.Deployment != "" {
				fmt.Fprintf(&b, " (deployment %s)", w.Deployment)
			}
			fmt.Fprintf(&b, ", polls %s, last seen %s", strings.Join(w.Polls, " and "), w.LastSeen)
		}
	}
	if c := r.Cases; c != nil {
		fmt.Fprintf(&b, "\nCases: %d running, %d paused for support, %d waiting for the client, %d stuck (no progress for %d min)",
			c.Running, c.PausedSupport, c.WaitingUser, c.Stuck, c.StuckAfterMin)
	}
	if c := r.Corpus; c != nil {
		fmt.Fprintf(&b, "\nCorpus: %d articles, %d decisions", c.Articles, c.Decisions)
		for _, n := range slices.Sorted(maps.Keys(c.Sources)) {
			fmt.Fprintf(&b, "; %s %d+%d", n, c.Sources[n].Articles, c.Sources[n].Decisions)
		}
	}
	if sz := r.Store; sz != nil {
		b.WriteString("\nStore, documents of every organization:")
		for i, c := range sz.Collections {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s %d", c.Name, c.Documents)
		}
	}
	if t := r.Tokens; t != nil && r.Organization == "" {
		fmt.Fprintf(&b, "\nModel tokens of every organization on %s (UTC): %d", t.Day, t.Tokens)
	} else if t != nil {
		fmt.Fprintf(&b, "\nModel tokens on %s (UTC): %d", t.Day, t.Tokens)
	}
	for _, f := range r.Failed {
		fmt.Fprintf(&b, "\n[%s failed: %s]", f.Part, f.Reason)
	}
	for _, o := range r.Omitted {
		fmt.Fprintf(&b, "\n(%s left out: %s)", o.Part, o.Reason)
	}
	return b.String(), ""
}
