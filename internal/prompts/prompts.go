// Package prompts assembles the system prompts of the model roles from the Markdown
// files of the top-level prompts directory: <role>.<language>.md for each model role and
// language (en, ro, it), tiers.<language>.md, legal_tools_off.<language>.md for the
// warning given when every legal tool is off, and any other document whose front
// matter names the role (and language) whose prompt it joins. The files ship
// embedded; a directory on disk can replace them and is reloaded when its files change
// or when Reload is called.
package prompts

import (
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	promptfiles "github.com/lexflow/lexflow/prompts"
	"github.com/lexflow/lexflow/schemas"
)

// Roles are the model roles that must each have a file in every language.
var Roles = []schemas.ModelRole{schemas.ModelAssistant, schemas.ModelReasoner, schemas.ModelTiering, schemas.ModelEscalation, schemas.ModelQuery, schemas.ModelDocument, schemas.ModelToolArgs, schemas.ModelChat,
	schemas.ModelMemory}

// warningDoc is the base name of the anti-hallucination warning's files, and tiersDoc
// that of the tier definitions the tiering prompt carries.
const (
	warningDoc = "legal_tools_off"
	tiersDoc   = "tiers"
)

// Doc is one loaded file.
type Doc struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
	// For says which prompts a document beyond the roles' own files joins
	// ("assistant.ro", or "assistant.*" for every language), or "none" for one
	// without front matter; empty for the roles' own files.
	For string `json:"for,omitempty"`
}

// Report says what a load found, as seed 002's update_docs does, and the size of each
// prompt as assembled, by "<role>.<language>", without a case's own sections.
type Report struct {
	Source      string         `json:"source"`
	DocCount    int            `json:"docs_count"`
	Docs        []Doc          `json:"docs_details"`
	PromptBytes map[string]int `json:"prompt_bytes"`
	LoadedAt    time.Time      `json:"loaded_at"`
}

// Library holds the loaded prompt files.
type Library struct {
	dir string // empty: the embedded files

	mu      sync.RWMutex
	docs    map[string]string
	extras  []extra
	stamp   string // the files' names, sizes and modification times when loaded
	report  Report
	checked time.Time
	// version is the store's prompts version this library last followed.
	version int64
}

// Load reads the prompt files from dir, or the embedded ones when dir is empty.
func Load(dir string) (*Library, error) {
	l := &Library{dir: dir}
	if _, err := l.Reload(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Library) files() fs.FS {
	if l.dir == "" {
		return promptfiles.Files
	}
	return os.DirFS(l.dir)
}

// Reload reads every file again. A missing role or language file is an error, and the
// library keeps what it had.
func (l *Library) Reload() (Report, error) {
	fsys := l.files()
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return Report{}, err
	}
	docs := map[string]string{}
	var extras []extra
	rep := Report{Source: "embedded", LoadedAt: time.Now().UTC(), PromptBytes: map[string]int{}}
	if l.dir != "" {
		rep.Source = l.dir
	}
	for _, name := range names {
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return Report{}, err
		}
		doc := Doc{Name: name, Bytes: len(raw)}
		if base := strings.TrimSuffix(name, ".md"); ownFile(base) {
			docs[base] = strings.TrimSpace(string(raw))
		} else {
			e, ok, err := parseExtra(name, strings.ReplaceAll(string(raw), "\r\n", "\n"))
			if err != nil {
				return Report{}, err
			}
			doc.For = "none"
			if ok {
				extras, doc.For = append(extras, e), e.forLabel()
			}
		}
		rep.Docs = append(rep.Docs, doc)
	}
	bases := []string{warningDoc, tiersDoc}
	for _, r := range Roles {
		bases = append(bases, string(r))
	}
	for _, base := range bases {
		for _, lang := range schemas.Languages {
			if docs[base+"."+lang] == "" {
				return Report{}, fmt.Errorf("prompts: %s.%s.md is missing or empty in %s", base, lang, rep.Source)
			}
		}
	}
	rep.DocCount = len(rep.Docs)
	stamp := l.stampNow()
	l.mu.Lock()
	l.docs, l.extras, l.stamp, l.checked = docs, extras, stamp, time.Now()
	l.mu.Unlock()
	for _, r := range Roles {
		for _, lang := range schemas.Languages {
			rep.PromptBytes[string(r)+"."+lang] = len(l.assemble(r, Context{Language: lang}))
		}
	}
	l.mu.Lock()
	l.report = rep
	l.mu.Unlock()
	return rep, nil
}

// Follow reloads the files when version, the store's prompts version, is not the one
// the library last followed: an admin's reload in any process bumps it, so every
// process that follows it picks up the files as they are now, even edits its own
// change check cannot see. A reload that fails keeps the previous prompts and is not
// tried again until the version moves.
func (l *Library) Follow(version int64) error {
	l.mu.Lock()
	if l.version == version {
		l.mu.Unlock()
		return nil
	}
	l.version = version
	l.mu.Unlock()
	_, err := l.Reload()
	return err
}

// Report returns what the last load found.
func (l *Library) Report() Report {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.report
}

// stampNow describes the directory's files, so that a change can be noticed.
func (l *Library) stampNow() string {
	if l.dir == "" {
		return ""
	}
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".md") {
			fmt.Fprintf(&b, "%s:%d:%d;", e.Name(), info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}

// refresh reloads the files when they changed on disk, looking at most once a second,
// so that every worker picks up edited prompts without a restart.
func (l *Library) refresh() {
	if l.dir == "" {
		return
	}
	l.mu.RLock()
	fresh := time.Since(l.checked) < time.Second
	stamp := l.stamp
	l.mu.RUnlock()
	if fresh {
		return
	}
	if l.stampNow() != stamp {
		_, _ = l.Reload() // a broken edit keeps the previous prompts
		return
	}
	l.mu.Lock()
	l.checked = time.Now()
	l.mu.Unlock()
}

// Context is what a system prompt is assembled around.
type Context struct {
	CaseID   string
	Language string
	// LegalToolsOff adds the warning that no legal source can be consulted.
	LegalToolsOff bool
	// Memory is the user's memory note, and Facts the facts about the user they chose
	// to keep across cases, as the model may read them: shown together, the facts as
	// a list, under seed 000's "## Memoria dell'utente" heading (its equivalent in the
	// prompt's language).
	Memory string
	Facts  []string
	// Earlier are excerpts of the case's earlier turns found relevant to the message.
	Earlier []string
}

// headings of the context sections, per language.
var headings = map[string][2]string{
	"en": {"## Memory", "## Earlier in this case"},
	"ro": {"## Memorie", "## Mai devreme în acest caz"},
	"it": {"## Memoria dell'utente", "## In precedenza in questo caso"},
}

// System assembles the system prompt of a role: the role's file in the case's language
// (English when there is none), the documents whose front matter joins them to it, in
// their names' order, the "Case ID:", "Language:" and "Role:" lines, the warning when
// every legal tool is off, and the memory (the user's kept facts and note) and
// earlier-turn sections when given.
func (l *Library) System(role schemas.ModelRole, c Context) string {
	l.refresh()
	return l.assemble(role, c)
}

// assemble is System without looking for changed files.
func (l *Library) assemble(role schemas.ModelRole, c Context) string {
	lang := c.Language
	if !slices.Contains(schemas.Languages, lang) {
		lang = "en"
	}
	l.mu.RLock()
	body, warning, tiers := l.docs[string(role)+"."+lang], l.docs[warningDoc+"."+lang], l.docs[tiersDoc+"."+lang]
	var joined []string
	for _, e := range l.extras {
		if e.role == role && slices.Contains(e.langs, lang) && e.text != "" {
			joined = append(joined, e.text)
		}
	}
	l.mu.RUnlock()
	var b strings.Builder
	b.WriteString(body)
	for _, text := range joined {
		b.WriteString("\n\n" + text)
	}
	if role == schemas.ModelTiering {
		b.WriteString("\n\n" + tiers)
	}
	fmt.Fprintf(&b, "\n\nCase ID: %s\nLanguage: %s\nRole: %s\n", c.CaseID, lang, role)
	if c.LegalToolsOff {
		b.WriteString("\n" + warning + "\n")
	}
	h := headings[lang]
	if strings.TrimSpace(c.Memory) != "" || len(c.Facts) > 0 {
		b.WriteString("\n" + h[0] + "\n")
		for _, f := range c.Facts {
			b.WriteString("- " + f + "\n")
		}
		if note := strings.TrimSpace(c.Memory); note != "" {
			b.WriteString(note + "\n")
		}
	}
	if len(c.Earlier) > 0 {
		b.WriteString("\n" + h[1] + "\n")
		for _, e := range c.Earlier {
			b.WriteString("- " + e + "\n")
		}
	}
	return b.String()
}
