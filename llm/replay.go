package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/openai/openai-go/v3/option"
)

// replay is the middleware that answers each request from the recordings in dir
// instead of sending it: the recording of the same role, step and tools called so far
// (see Recording), and among several, the one whose turn was opened by the same
// message. The rest of the conversation (the system prompt, the case file, the
// tools' results) is not compared, so that a prompt edit does not void the
// recordings. A request no recording answers is answered 404 (a final error),
// naming what was asked and which recordings exist.
func replay(dir string) option.Middleware {
	return func(r *http.Request, _ option.MiddlewareNext) (*http.Response, error) {
		body, err := readBody(r)
		if err != nil {
			return nil, err
		}
		asked, err := exchangeOf(body)
		if err != nil {
			return nil, err
		}
		recs, err := loadRecordings(dir)
		if err != nil {
			return replayError(r, err.Error()), nil
		}
		rec, ok := match(recs, asked)
		if !ok {
			return replayError(r, missMessage(dir, asked, recs)), nil
		}
		h := http.Header{}
		h.Set("Content-Type", rec.ContentType)
		return &http.Response{StatusCode: rec.Status, Status: http.StatusText(rec.Status), Header: h, Request: r,
			Body: io.NopCloser(strings.NewReader(rec.Response)), ContentLength: int64(len(rec.Response)),
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
	}
}

// match picks the recording that answers asked: the only one with its key, or among
// several the first whose turn opened with the same message.
func match(recs []Recording, asked Recording) (Recording, bool) {
	var same []Recording
	for _, r := range recs {
		if r.key() == asked.key() {
			same = append(same, r)
		}
	}
	if len(same) == 1 {
		return same[0], true
	}
	for _, r := range same {
		if r.Asked == asked.Asked {
			return r, true
		}
	}
	return Recording{}, false
}

// loadRecordings reads every recording in dir, in the order of their names.
func loadRecordings(dir string) ([]Recording, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no model recordings in %s", dir)
	}
	slices.Sort(names)
	recs := make([]Recording, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read model recording: %w", err)
		}
		var rec Recording
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("model recording %s: %w", name, err)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// missMessage says what was asked and which recordings there are.
func missMessage(dir string, asked Recording, recs []Recording) string {
	var b strings.Builder
	fmt.Fprintf(&b, "no model recording in %s answers %s, asked %q; the recordings:", dir, asked.key(), clipText(asked.Asked, 80))
	for _, r := range recs {
		fmt.Fprintf(&b, " [%s, asked %q]", r.key(), clipText(r.Asked, 80))
	}
	return b.String()
}

// clipText keeps the first n bytes of s, on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// replayError is the 404 answer of a replay that cannot answer, in the error shape
// of the chat-completions API.
func replayError(r *http.Request, msg string) *http.Response {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "replay_miss"}})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Header: h, Request: r,
		Body: io.NopCloser(strings.NewReader(string(body))), ContentLength: int64(len(body)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}
