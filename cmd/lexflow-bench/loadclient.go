package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Bounds of the load client's retries: it retries as the "Retrying" table of docs/api.md
// allows (a GET, or a POST with its Idempotency-Key) after a dropped connection, a 429
// or a 5xx, at most retryAttempts times, waiting retryFirst and doubling up to
// retryMax, or what Retry-After says, up to retryAfterMax.
const (
	retryAttempts = 30
	retryFirst    = 100 * time.Millisecond
	retryMax      = 2 * time.Second
	retryAfterMax = 10 * time.Second
	// requestTimeout bounds one attempt: a turn waits for its workflow, which a
	// killed worker delays by an activity's heartbeat or start-to-close timeout.
	requestTimeout = 3 * time.Minute
)

// loadStats counts what the load's clients saw, across all of them.
type loadStats struct {
	mu sync.Mutex
	// statuses counts every answer by HTTP status, retried ones included.
	statuses map[int]int
	// dropped counts attempts that got no answer: a refused or cut connection, or an
	// attempt's timeout.
	dropped int
	// retries counts attempts after a request's first.
	retries int
	// failed are the requests that never succeeded, with why.
	failed []string
}

func (s *loadStats) answer(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses[status]++
}

func (s *loadStats) add(f func(*loadStats)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// loadClient is one user of the API under load: its token, and the stats it adds to.
type loadClient struct {
	base, tok string
	stats     *loadStats
	stream    bool
}

// retryable reports whether an answer with this status may be sent again.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// send sends a request until it succeeds (a 2xx) or it is not to be retried, and
// decodes the answer into out; key is its Idempotency-Key, if any. A POST is only
// retried with a key.
func (c *loadClient) send(ctx context.Context, method, path, key, body string, out any) error {
	wait := retryFirst
	var last string
	for attempt := 1; attempt <= retryAttempts; attempt++ {
		if attempt > 1 {
			c.stats.add(func(s *loadStats) { s.retries++ })
		}
		status, after, err := c.attempt(ctx, method, path, key, body, out)
		switch {
		case err == nil && status/100 == 2:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil && status == 0:
			c.stats.add(func(s *loadStats) { s.dropped++ })
			last = err.Error()
		case !retryable(status):
			return fmt.Errorf("%s %s: %d %v", method, path, status, err)
		default:
			last = fmt.Sprintf("%d %v", status, err)
		}
		if method == http.MethodPost && key == "" {
			return fmt.Errorf("%s %s: %s, and a POST without an Idempotency-Key is not retried", method, path, last)
		}
		pause := wait
		if after > 0 {
			pause = min(after, retryAfterMax)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		wait = min(wait*2, retryMax)
	}
	return fmt.Errorf("%s %s: still failing after %d attempts: %s", method, path, retryAttempts, last)
}

// attempt sends the request once and returns the answer's status (0 for none), its
// Retry-After, and an error for a failed attempt.
func (c *loadClient) attempt(ctx context.Context, method, path, key, body string, out any) (int, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, strings.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	streamed := c.stream && method == http.MethodPost && strings.HasSuffix(path, "/messages")
	if streamed {
		req.Header.Set("Accept", "text/event-stream")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	c.stats.answer(resp.StatusCode)
	after := time.Duration(0)
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		after = time.Duration(s) * time.Second
	}
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return resp.StatusCode, after, fmt.Errorf("%s", strings.TrimSpace(string(msg)))
	}
	if streamed {
		// A cut stream is an attempt without an answer: the retry, with the same key,
		// answers the turn's result.
		if err := readTurnStream(resp.Body, out); err != nil {
			return 0, 0, err
		}
		return resp.StatusCode, 0, nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return 0, 0, fmt.Errorf("read the answer: %w", err)
	}
	return resp.StatusCode, 0, nil
}

// readTurnStream reads a streamed turn's Server-Sent Events until turn.completed,
// whose data is decoded into out.
func readTurnStream(r io.Reader, out any) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	typ := ""
	for sc.Scan() {
		line := sc.Text()
		if t, ok := strings.CutPrefix(line, "event: "); ok {
			typ = t
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		switch typ {
		case schemas.EventTurnCompleted:
			return json.Unmarshal([]byte(data), out)
		case schemas.EventTurnFailed, schemas.EventTurnCancelled:
			return fmt.Errorf("the turn ended with %s: %s", typ, data)
		}
	}
	return errors.Join(errors.New("the stream ended before turn.completed"), sc.Err())
}

// openCase opens a case (retried with its key) and waits, a bounded time, until its
// tiering is done and it is active: it reads the case's events, as the web app does,
// until a status event says so.
func (c *loadClient) openCase(ctx context.Context, key, description string) (string, error) {
	var created struct {
		CaseID string `json:"case_id"`
	}
	body, _ := json.Marshal(map[string]string{"description": description})
	if err := c.send(ctx, http.MethodPost, "/v1/cases", key, string(body), &created); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var after int64
	for {
		active, err := c.awaitActive(ctx, created.CaseID, &after)
		switch {
		case active:
			return created.CaseID, nil
		case ctx.Err() != nil:
			return "", fmt.Errorf("case %s is not active after two minutes: %w", created.CaseID, errors.Join(err, ctx.Err()))
		}
		select { // the stream was cut: read on from the last event seen
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// awaitActive reads the case's event stream from after *after until a status event
// says the case is active, keeping in *after the last event read.
func (c *loadClient) awaitActive(ctx context.Context, caseID string, after *int64) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/v1/cases/%s/events?after=%d", c.base, caseID, *after), nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	c.stats.answer(resp.StatusCode)
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("events: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e struct {
			Seq  int64  `json:"seq"`
			Type string `json:"type"`
			Body struct {
				Phase string `json:"phase"`
			} `json:"body"`
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return false, fmt.Errorf("read event: %w", err)
		}
		*after = e.Seq
		if e.Type == schemas.EventStatus && e.Body.Phase == schemas.PhaseActive {
			return true, nil
		}
	}
	return false, errors.Join(errors.New("the event stream ended"), sc.Err())
}
