package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"time"
)

// wrkConnections and wrkThreads are how wrk loads the API's read path.
const (
	wrkConnections = 64
	wrkThreads     = 2
)

// wrkResult is one wrk run's figures.
type wrkResult struct {
	rps      float64
	p50, p99 string
	// errors counts the answers that were not 2xx or 3xx.
	errors int
}

var (
	wrkRPS    = regexp.MustCompile(`(?m)^Requests/sec:\s+([\d.]+)`)
	wrkP50    = regexp.MustCompile(`(?m)^\s+50%\s+(\S+)`)
	wrkP99    = regexp.MustCompile(`(?m)^\s+99%\s+(\S+)`)
	wrkErrors = regexp.MustCompile(`(?m)^\s+Non-2xx or 3xx responses:\s+(\d+)`)
)

// runWrk runs wrk (Debian's package) on url for d, with wrkConnections connections
// carrying the token, and reads its figures.
func runWrk(ctx context.Context, url, token string, d time.Duration) (wrkResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d+time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "wrk", "-t", strconv.Itoa(wrkThreads), "-c", strconv.Itoa(wrkConnections),
		"-d", fmt.Sprintf("%ds", int(d.Seconds())), "--latency", "-H", "Authorization: Bearer "+token, url).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %w\n%s", err, out)
	}
	return parseWrk(string(out))
}

// parseWrk reads wrk --latency's report.
func parseWrk(out string) (wrkResult, error) {
	rps, p50, p99 := wrkRPS.FindStringSubmatch(out), wrkP50.FindStringSubmatch(out), wrkP99.FindStringSubmatch(out)
	if rps == nil || p50 == nil || p99 == nil {
		return wrkResult{}, fmt.Errorf("wrk's report lacks its figures:\n%s", out)
	}
	r := wrkResult{p50: p50[1], p99: p99[1]}
	r.rps, _ = strconv.ParseFloat(rps[1], 64)
	if m := wrkErrors.FindStringSubmatch(out); m != nil {
		r.errors, _ = strconv.Atoi(m[1])
	}
	return r, nil
}

// wrkReads runs wrk on the API's read path for one case of the load, owned by the
// token's user: the case, its first page of events, and the empty page a client that
// has seen every event polls for. It writes a row per route.
func wrkReads(ctx context.Context, out io.Writer, base, token, caseID string, lastSeq int64, d time.Duration) error {
	fmt.Fprintf(out, "\nwrk, %d connections, %d threads, %s each\n%-46s %10s %9s %9s %8s\n", wrkConnections, wrkThreads, d, "route", "req/s", "p50", "p99", "non-2xx")
	for _, r := range []struct{ name, path string }{
		{"GET /v1/cases/{id}", "/v1/cases/" + caseID},
		{"GET /v1/cases/{id}/events?after=0", "/v1/cases/" + caseID + "/events?after=0"},
		{"GET /v1/cases/{id}/events?after=<last>", fmt.Sprintf("/v1/cases/%s/events?after=%d", caseID, lastSeq)},
	} {
		res, err := runWrk(ctx, base+r.path, token, d)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-46s %10.0f %9s %9s %8d\n", r.name, res.rps, res.p50, res.p99, res.errors)
		if res.errors > 0 {
			return fmt.Errorf("wrk: %s answered %d times with neither 2xx nor 3xx", r.name, res.errors)
		}
	}
	return nil
}
