// Package agent evaluates Lexflow's agent end to end: each scenario (a file under
// scenarios/) opens a case on a dev-like stack run in-process (the Temporal dev
// server, FerretDB, a worker and the API, as `lexflow dev` runs them), sends the
// client's messages through the API, and checks what must happen; the model is
// whatever endpoint is configured (the offline model when none is), or the
// recordings under recordings/. Scores per scenario and overall are reported in the
// terminal and as JSON.
package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Scenario is one case to run and what must happen in it.
type Scenario struct {
	// Name is the file's name without .json; it names the case's recordings too.
	Name string `json:"-"`
	// About says in a sentence what the scenario covers.
	About string `json:"about"`
	// Kind is research, drafting, parties, documents, ladder or failing_source.
	Kind string `json:"kind"`
	// Language is the case's: ro, it or en.
	Language    string `json:"language"`
	Description string `json:"description"`
	// Parties are the parties' data as a client posts them.
	Parties []map[string]any `json:"parties,omitempty"`
	// Documents are text files the client uploads before the first message; each is
	// read and summarized before the messages are sent.
	Documents []Document `json:"documents,omitempty"`
	// SourcesDown makes the LEXE research service answer 503 to everything.
	SourcesDown bool      `json:"sources_down,omitempty"`
	Messages    []Message `json:"messages"`
	Expect      Expect    `json:"expect"`
}

// Document is a text file a scenario's client uploads.
type Document struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Message is one of the client's messages, with the tools it switches on.
type Message struct {
	Text string `json:"text"`
	// WebSearch switches web_search on for the turn.
	WebSearch bool `json:"web_search,omitempty"`
}

// Expect is what must happen over the scenario's turns.
type Expect struct {
	// Tools must each be called in some turn: a tool's name, or a name and the
	// status its call ended with ("normattiva_search error").
	Tools []string `json:"tools,omitempty"`
	// VerifiedCitations is how many of the replies' citations at least must be
	// verified against the corpus.
	VerifiedCitations int `json:"verified_citations,omitempty"`
	// Facts must each be found in the case file (case_details) after the last turn.
	Facts []string `json:"facts,omitempty"`
	// Draft asks for a draft PDF produced.
	Draft bool `json:"draft,omitempty"`
	// Question is set when the agent must end asking the client (the ladder's
	// ask_user rung); otherwise no turn may end with a question to the client.
	Question bool `json:"question,omitempty"`
	// Replies must each appear in one of the replies.
	Replies []string `json:"replies,omitempty"`
}

// Kinds are the kinds of scenario there are.
var Kinds = []string{"research", "drafting", "parties", "documents", "ladder", "failing_source"}

// Load reads every scenario in dir, in the order of their names.
func Load(dir string) ([]Scenario, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no scenarios in %s", dir)
	}
	slices.Sort(names)
	out := make([]Scenario, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var s Scenario
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", name, err)
		}
		s.Name = strings.TrimSuffix(filepath.Base(name), ".json")
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", name, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// check reports what makes s unusable.
func (s Scenario) check() error {
	switch {
	case !slices.Contains([]string{"ro", "it", "en"}, s.Language):
		return fmt.Errorf("language %q: want ro, it or en", s.Language)
	case !slices.Contains(Kinds, s.Kind):
		return fmt.Errorf("kind %q: want one of %s", s.Kind, strings.Join(Kinds, ", "))
	case strings.TrimSpace(s.Description) == "":
		return fmt.Errorf("no description")
	case len(s.Messages) == 0:
		return fmt.Errorf("no client message")
	}
	return nil
}

// Select keeps the scenarios named in names (all when names is empty), failing on a
// name no scenario has.
func Select(all []Scenario, names []string) ([]Scenario, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []Scenario
	for _, n := range names {
		i := slices.IndexFunc(all, func(s Scenario) bool { return s.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("no scenario %q", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}
