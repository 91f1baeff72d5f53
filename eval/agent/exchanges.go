package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/llm"
)

// Exchange is one model exchange of a scenario's case, read from its recording.
type Exchange struct {
	Role string
	// Strings are every string of the request's JSON (messages, tool schemas, ...),
	// decoded: what the model was shown.
	Strings []string
	// Tokens are the total tokens the answer reports (0 when it reports none).
	Tokens int
}

// readExchanges reads the recordings in dir, in the order they were made.
func readExchanges(dir string) ([]Exchange, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []Exchange
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var rec llm.Recording
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, err
		}
		var req any
		if err := json.Unmarshal(rec.Request, &req); err != nil {
			return nil, err
		}
		out = append(out, Exchange{Role: rec.Role, Strings: stringsOf(req, nil), Tokens: tokensOf(rec.Response)})
	}
	return out, nil
}

// stringsOf appends every string in the decoded JSON value v to out.
func stringsOf(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, e := range v {
			out = stringsOf(e, out)
		}
	case map[string]any:
		for _, e := range v {
			out = stringsOf(e, out)
		}
	}
	return out
}

// tokensOf is the total_tokens an answer reports: a completion's usage, or a
// stream's usage chunk.
func tokensOf(response string) int {
	type usage struct {
		Usage *struct {
			Total int `json:"total_tokens"`
		} `json:"usage"`
	}
	var whole usage
	if json.Unmarshal([]byte(response), &whole) == nil && whole.Usage != nil {
		return whole.Usage.Total
	}
	total := 0
	for line := range strings.Lines(response) {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data:")
		if !ok {
			continue
		}
		var chunk usage
		if json.Unmarshal([]byte(strings.TrimSpace(data)), &chunk) == nil && chunk.Usage != nil && chunk.Usage.Total > 0 {
			total = chunk.Usage.Total
		}
	}
	return total
}
