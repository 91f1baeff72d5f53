package workflows

import (
	"encoding/json"
	"strings"
)

// withSources ends reply with one sources line naming used, replacing a sources line
// the model may have written itself; without sources it leaves the reply alone.
func withSources(reply, label string, used []string) string {
	lines := strings.Split(strings.TrimRight(reply, " \n"), "\n")
	if isSourcesLine(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	reply = strings.TrimRight(strings.Join(lines, "\n"), " \n")
	if len(used) == 0 {
		return reply
	}
	return reply + "\n\n" + label + " " + strings.Join(used, ", ")
}

// sourcesLabels are the sources-line labels of every language, in a fixed order.
var sourcesLabels = []string{wordings["en"].sources, wordings["ro"].sources, wordings["it"].sources}

func isSourcesLine(line string) bool {
	for _, label := range sourcesLabels {
		if strings.HasPrefix(strings.TrimSpace(line), label) {
			return true
		}
	}
	return false
}

// trimFence removes a Markdown code fence around s, if there is one.
func trimFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

// jsonObjectIn is the JSON object a model wrote, perhaps in a code fence or with words
// around it: from its first "{" to its last "}".
func jsonObjectIn(content string) string {
	s := trimFence(content)
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		s = s[i : j+1]
	}
	return s
}

// rawArgs keeps a model's arguments for the record: as they are when they are JSON,
// as a JSON string when they are not.
func rawArgs(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	return mustJSON(s)
}

func orEmptyObject(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	return s
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
