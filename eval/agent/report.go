package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Report is an evaluation's scores: per scenario, and over all of them.
type Report struct {
	// Model says what answered: an endpoint's base URL and model, the offline
	// model, or the recordings.
	Model     string  `json:"model"`
	Mode      Mode    `json:"mode"`
	Scenarios []Score `json:"scenarios"`
	Overall   Overall `json:"overall"`
}

// Overall sums the scenarios up.
type Overall struct {
	Scenarios int `json:"scenarios"`
	Succeeded int `json:"succeeded"`
	// TaskSuccess is the share of scenarios whose every check passed.
	TaskSuccess float64 `json:"task_success"`
	// VerifiedShare is the share of all the replies' citations that the corpus
	// verified (0 when there were none); Unverified counts the others.
	VerifiedShare float64 `json:"verified_citation_share"`
	Citations     int     `json:"citations"`
	Unverified    int     `json:"unverified_citations"`
	// StepsPerTurn, TokensPerTurn and LatencyMeanMS are per client turn, over all
	// the scenarios' turns.
	StepsPerTurn  float64 `json:"steps_per_turn"`
	TokensPerTurn float64 `json:"tokens_per_turn"`
	LatencyMeanMS int64   `json:"latency_mean_ms"`
	LatencyMaxMS  int64   `json:"latency_max_ms"`
	// ByKind and ByLanguage count the scenarios that succeeded, out of those run.
	ByKind     map[string][2]int `json:"by_kind"`
	ByLanguage map[string][2]int `json:"by_language"`
}

// NewReport sums scores up.
func NewReport(model string, mode Mode, scores []Score) Report {
	r := Report{Model: model, Mode: mode, Scenarios: scores,
		Overall: Overall{Scenarios: len(scores), ByKind: map[string][2]int{}, ByLanguage: map[string][2]int{}}}
	o := &r.Overall
	turns := 0
	var steps, tokens float64
	var latency int64
	for _, s := range scores {
		ok := 0
		if s.Success {
			o.Succeeded++
			ok = 1
		}
		k, l := o.ByKind[s.Kind], o.ByLanguage[s.Language]
		o.ByKind[s.Kind], o.ByLanguage[s.Language] = [2]int{k[0] + ok, k[1] + 1}, [2]int{l[0] + ok, l[1] + 1}
		o.Citations += s.Citations
		o.Unverified += s.Unverified
		turns += s.Turns
		steps += s.StepsPerTurn * float64(s.Turns)
		tokens += s.TokensPerTurn * float64(s.Turns)
		latency += s.LatencyMeanMS * int64(s.Turns)
		o.LatencyMaxMS = max(o.LatencyMaxMS, s.LatencyMaxMS)
	}
	if o.Scenarios > 0 {
		o.TaskSuccess = float64(o.Succeeded) / float64(o.Scenarios)
	}
	if o.Citations > 0 {
		o.VerifiedShare = float64(o.Citations-o.Unverified) / float64(o.Citations)
	}
	if turns > 0 {
		o.StepsPerTurn, o.TokensPerTurn, o.LatencyMeanMS = steps/float64(turns), tokens/float64(turns), latency/int64(turns)
	}
	return r
}

// WriteText writes the report as a table per scenario, the failed checks under it,
// and the overall scores.
func (r Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Agent evaluation: %d scenarios, model %s (%s)\n\n", r.Overall.Scenarios, r.Model, r.Mode)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tkind\tlang\tresult\tturns\tcitations (verified)\tsteps/turn\ttokens/turn\tlatency mean/max")
	for _, s := range r.Scenarios {
		result := "ok"
		if !s.Success {
			result = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d (%d)\t%.1f\t%.0f\t%d/%d ms\n", s.Scenario, s.Kind, s.Language, result, s.Turns,
			s.Citations, s.Verified, s.StepsPerTurn, s.TokensPerTurn, s.LatencyMeanMS, s.LatencyMaxMS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range r.Scenarios {
		for _, f := range s.Failures {
			fmt.Fprintf(w, "  %s: %s\n", s.Scenario, f)
		}
		if s.Error != "" {
			fmt.Fprintf(w, "  %s: error: %s\n", s.Scenario, s.Error)
		}
	}
	o := r.Overall
	fmt.Fprintf(w, "\nTask success %d/%d (%.0f%%); verified citations %.0f%% of %d, %d unverified; %.1f steps and %.0f tokens per turn; latency %d ms mean, %d ms max\n",
		o.Succeeded, o.Scenarios, 100*o.TaskSuccess, 100*o.VerifiedShare, o.Citations, o.Unverified, o.StepsPerTurn, o.TokensPerTurn, o.LatencyMeanMS, o.LatencyMaxMS)
	fmt.Fprintf(w, "By kind: %s\nBy language: %s\n", counts(o.ByKind, Kinds), counts(o.ByLanguage, []string{"ro", "it", "en"}))
	return nil
}

// counts prints succeeded/run for each key, in order.
func counts(m map[string][2]int, order []string) string {
	var parts []string
	for _, k := range order {
		if c, ok := m[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %d/%d", k, c[0], c[1]))
		}
	}
	return strings.Join(parts, ", ")
}

// WriteJSON writes the report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
