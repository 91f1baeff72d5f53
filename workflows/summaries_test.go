package workflows_test

import (
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// markdownSummaries are the forms a workflow's own summary may take. The Temporal
// Web UI (v2.42.1) renders a workflow's summary and details as Markdown, in a
// sandboxed frame on its own origin, where the codec session's CORS grant lives;
// so they carry only text Lexflow owns: fixed words, the registry's tool names,
// numbers and IDs Lexflow makes (docs/security.md, "The control plane: Temporal").
var markdownSummaries = []*regexp.Regexp{
	regexp.MustCompile(`^Chat turn [0-9]+$`),
	regexp.MustCompile(`^Tiering$`),
	regexp.MustCompile(`^Quota for tier [0-9]+$`),
	regexp.MustCompile(`^Tool [a-z_]+$`),
	regexp.MustCompile(`^Admin runs [a-z_]+$`),
	regexp.MustCompile(`^Support ticket case:[0-9a-f-]{36}:(ticket:[0-9]+|turn:[0-9]+:ticket)$`),
	regexp.MustCompile(`^Propose the deadline that follows court news [a-z]+ of [0-9]{4}-[0-9]{2}-[0-9]{2}$`),
	regexp.MustCompile(`^Propose memory facts from case [0-9a-f-]{36}$`),
}

// TestWorkflowSummariesCarryNoClientText (issue 36, suspicion on Markdown summaries)
// reads every workflow summary and details in the recorded histories (a workflow's
// start, a child workflow's start) and checks that each takes one of the forms of
// markdownSummaries, and that no workflow sets details.
func TestWorkflowSummariesCarryNoClientText(t *testing.T) {
	seen := 0
	err := filepath.WalkDir("testdata/histories", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var h struct {
			Events []struct {
				EventType    string
				UserMetadata map[string]struct {
					Metadata map[string]string
					Data     string
				}
			}
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			return err
		}
		for _, e := range h.Events {
			if e.EventType != "EVENT_TYPE_WORKFLOW_EXECUTION_STARTED" && e.EventType != "EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED" {
				continue
			}
			for field, p := range e.UserMetadata {
				text, err := plainString(p.Metadata["encoding"], p.Data)
				if err != nil {
					t.Errorf("%s: %s %s: %v", path, e.EventType, field, err)
					continue
				}
				seen++
				if field != "summary" {
					t.Errorf("%s: %s sets %s %q; only summaries are expected", path, e.EventType, field, text)
					continue
				}
				if !matchesOne(text) {
					t.Errorf("%s: %s's summary %q is none of the known forms", path, e.EventType, text)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no workflow summary in the recorded histories")
	}
}

// plainString decodes a json/plain payload holding a string.
func plainString(encoding, data string) (string, error) {
	enc, err := base64.StdEncoding.DecodeString(encoding)
	if err != nil {
		return "", err
	}
	if string(enc) != "json/plain" {
		return "", &json.UnsupportedValueError{Str: "encoding " + string(enc)}
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", err
	}
	var s string
	return s, json.Unmarshal(raw, &s)
}

func matchesOne(s string) bool {
	for _, re := range markdownSummaries {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
