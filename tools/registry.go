// Package tools is Lexflow's tool registry: one entry per tool the model may call, with
// its JSON Schema, the roles that may use it, its default toggle, its policy, its
// formatter and the activity that runs it. Adding a tool means adding an entry here and
// an activity in package activities.
package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/auth"
	"github.com/lexflow/lexflow/schemas"
)

// Tool is one registry entry.
type Tool struct {
	Name        string
	Description string
	Schema      *Schema
	// Roles may use the tool; others never see it.
	Roles []string
	// Toggle is LEXE's request key that switches the tool on or off, if it has one.
	Toggle string
	// DefaultOn says whether the tool is on when a request does not say.
	DefaultOn bool
	// Primary marks the primary legal sources: when all are off, the system prompt
	// warns the model not to invent legal content.
	Primary bool
	Policy  Policy
	Format  Formatter
	// Activity runs the tool, or Child does; with neither the tool is unavailable:
	// listed, never offered to the model.
	Activity any
	Child    *Child
	// Ladder is how far the tool's failure climbs once its retries have run out.
	Ladder Ladder
	// Bound are arguments the turn fills from its case instead of the model.
	Bound []Binding
	// decode turns validated arguments into the activity's argument struct.
	decode func(args []byte) (any, error)
}

// Binding fills an argument from the turn's case. Unless it is only a Default, a model
// that passes another value is refused with Refusal, seed 003's error text, revealing
// nothing about other cases.
type Binding struct {
	Arg     string
	From    string // "case", "user", "org" or "language"
	Refusal string
	// Default fills the argument only when the model leaves it out.
	Default bool
}

// Child runs a tool as a child workflow of the turn instead of an activity.
type Child struct {
	// Workflow is the workflow's registered name.
	Workflow string
	// Start returns the child's workflow ID and input for the tool's decoded arguments,
	// in the turn that calls it.
	Start func(args any, in schemas.ChatTurnInput) (id string, input any)
}

// Available reports whether the tool has an activity or a child workflow.
func (t *Tool) Available() bool { return t.Activity != nil || t.Child != nil }

// Decode turns validated arguments into the activity's argument struct.
func (t *Tool) Decode(args map[string]any) (any, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return t.decode(raw)
}

// AllowedFor reports whether a caller with these roles may use the tool.
func (t *Tool) AllowedFor(roles []string) bool {
	return slices.ContainsFunc(roles, func(r string) bool { return slices.Contains(t.Roles, r) })
}

// casesActs, researchActs and webActs name the activities; the worker registers the
// real structs.
var (
	casesActs     *activities.Cases
	researchActs  *activities.Research
	webActs       *activities.Web
	enrichedActs  *activities.Enriched
	lifecycleActs *activities.Lifecycle
	modelActs     *activities.Model
)

// draftChild runs generate_draft_pdf as the Draft workflow, one per (case, name, revision).
var draftChild = &Child{Workflow: schemas.DraftWorkflow, Start: func(args any, in schemas.ChatTurnInput) (string, any) {
	a := args.(schemas.GenerateDraftPDFArgs)
	return schemas.DraftWorkflowID(a.CaseID, a.DraftName, a.Revision), a
}}

// ticketChild runs create_support_ticket as the SupportTicket workflow, one per turn.
var ticketChild = &Child{Workflow: schemas.SupportTicketWorkflow, Start: func(args any, in schemas.ChatTurnInput) (string, any) {
	id := schemas.TurnTicketWorkflowID(in.TurnID)
	return id, schemas.SupportTicketInput{TicketID: id, UserID: in.UserID, Args: args.(schemas.CreateSupportTicketArgs)}
}}

// bindLanguage fills a search's language from the case unless the model names one.
var bindLanguage = []Binding{{Arg: "language", From: "language", Default: true}}

var (
	allRoles  = []string{auth.RoleUser, auth.RoleAdmin, auth.RoleSupport}
	adminOnly = []string{auth.RoleAdmin}
	bindCase  = []Binding{{Arg: "case_id", From: "case", Refusal: schemas.CaseNotFound}}
)

// registry lists every tool, in the order the model sees them.
var registry = mustLoad([]*Tool{
	// Legal research (seed 000); their activities come with the corpus.
	{Name: schemas.ToolNormattivaSearch, Roles: allRoles, Toggle: "normattiva_enabled", DefaultOn: true, Primary: true,
		Policy: lexeNoRetry, Ladder: fullLadder, Format: formatNormattiva, Activity: researchActs.NormattivaSearch, decode: decodeArgs[schemas.NormattivaSearchArgs]},
	{Name: schemas.ToolEurlexSearch, Roles: allRoles, Toggle: "eurlex_enabled", DefaultOn: true, Primary: true,
		Bound:  []Binding{{Arg: "language", From: "language", Default: true}},
		Policy: lexeNoRetry, Ladder: fullLadder, Format: formatEurlex, Activity: researchActs.EurlexSearch, decode: decodeArgs[schemas.EurlexSearchArgs]},
	{Name: schemas.ToolInfolexSearch, Roles: allRoles, Toggle: "infolex_enabled", DefaultOn: true, Primary: true,
		Policy: lexeNoRetry, Ladder: fullLadder, Format: formatInfolex, Activity: researchActs.InfolexSearch, decode: decodeArgs[schemas.InfolexSearchArgs]},
	{Name: schemas.ToolKBSearch, Roles: allRoles, Toggle: "kb_search_enabled", DefaultOn: true, Primary: true,
		Policy: kbSearchPolicy, Ladder: fullLadder, Format: formatKB, Activity: researchActs.KBSearch, decode: decodeArgs[schemas.KBSearchArgs]},
	{Name: schemas.ToolLexSearch, Roles: allRoles, Toggle: "lex_search_enabled", DefaultOn: true, Primary: true, Bound: bindLanguage,
		Policy: lexSearchPolicy, Ladder: reasonerOnly, Format: formatLexSearch, Activity: webActs.LexSearch, decode: decodeArgs[schemas.LexSearchArgs]},
	{Name: schemas.ToolLexSearchEnriched, Roles: allRoles, Toggle: "lex_search_enriched_enabled", DefaultOn: false, Bound: bindLanguage,
		Policy: lexSearchEnrichedPolicy, Ladder: reasonerOnly, Format: formatLexSearchEnriched, Activity: enrichedActs.LexSearchEnriched,
		decode: decodeArgs[schemas.LexSearchEnrichedArgs]},
	{Name: schemas.ToolWebSearch, Roles: allRoles, Toggle: "web_search_enabled", DefaultOn: false, Bound: bindLanguage,
		Policy: lexeNoRetry, Ladder: reasonerOnly, Format: formatWebSearch, Activity: webActs.WebSearch, decode: decodeArgs[schemas.WebSearchArgs]},
	// Seed 003's query_bigquery; read-only SQL is for admins, as Sanctum's db-query.
	{Name: schemas.ToolLegalSQL, Roles: adminOnly, DefaultOn: true,
		Policy: legalSQLPolicy, Format: formatStatus, Activity: researchActs.LegalSQL, decode: decodeArgs[schemas.LegalSQLArgs]},
	// Case tools (seed 003).
	{Name: schemas.ToolGetCaseDetails, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Ladder: fullLadder, Format: formatStatus, Activity: casesActs.GetCaseDetails, decode: decodeArgs[schemas.GetCaseDetailsArgs]},
	{Name: schemas.ToolUpdateCaseDetails, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Ladder: fullLadder, Format: formatStatus, Activity: casesActs.UpdateCaseDetails, decode: decodeArgs[schemas.UpdateCaseDetailsArgs]},
	{Name: schemas.ToolGetPartyIDByName, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Ladder: fullLadder, Format: formatStatus, Activity: casesActs.GetPartyIDByName, decode: decodeArgs[schemas.GetPartyIDByNameArgs]},
	{Name: schemas.ToolGenerateDraftPDF, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: draftPolicy, Ladder: fullLadder, Format: formatStatus, Child: draftChild, decode: decodeArgs[schemas.GenerateDraftPDFArgs]},
	{Name: schemas.ToolCheckQuota, Roles: allRoles, DefaultOn: true,
		Bound:  []Binding{{Arg: "user_id", From: "user", Refusal: "User not found"}, {Arg: "organization_id", From: "org", Refusal: "Subscription not found"}},
		Policy: caseToolPolicy, Ladder: fullLadder, Format: formatStatus, Activity: lifecycleActs.CheckQuota, decode: decodeArgs[schemas.CheckQuotaArgs]},
	{Name: schemas.ToolCreateSupportTicket, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Format: formatStatus, Child: ticketChild, decode: decodeArgs[schemas.CreateSupportTicketArgs]},
	{Name: schemas.ToolConsultReasoner, Roles: allRoles, DefaultOn: true,
		Bound:  append(slices.Clone(bindCase), Binding{Arg: "language", From: "language"}),
		Policy: reasonerPolicy, Format: formatStatus, Activity: modelActs.ConsultReasoner, decode: decodeArgs[schemas.ConsultReasonerArgs]},
})

// mustLoad reads each tool's schema from schemas/tools and its description from there.
func mustLoad(ts []*Tool) []*Tool {
	for _, t := range ts {
		raw, err := schemas.ToolSchemaJSON(t.Name)
		if err != nil {
			panic(err)
		}
		var s Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			panic(fmt.Sprintf("schema of %s: %v", t.Name, err))
		}
		normalizeDefaults(&s)
		t.Schema, t.Description = &s, s.Description
	}
	return ts
}

// normalizeDefaults turns integer defaults, decoded from JSON as float64, into int64 as
// validated arguments hold them.
func normalizeDefaults(s *Schema) {
	if f, ok := s.Default.(float64); ok && slices.Contains(s.Type, "integer") {
		s.Default = int64(f)
	}
	for _, p := range s.Properties {
		normalizeDefaults(p)
	}
	if s.Items != nil {
		normalizeDefaults(s.Items)
	}
}

// All returns every tool in registry order.
func All() []*Tool { return registry }

// Get returns the named tool.
func Get(name string) (*Tool, bool) {
	for _, t := range registry {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

func decodeArgs[T any](args []byte) (any, error) {
	var v T
	err := json.Unmarshal(args, &v)
	return v, err
}

// NeedsSearXNG are the tools a deployment can serve only with a SearXNG instance.
var NeedsSearXNG = []string{schemas.ToolWebSearch, schemas.ToolLexSearch, schemas.ToolLexSearchEnriched}

// AnyPrimary reports whether any of the named tools is a primary legal source.
func AnyPrimary(names []string) bool {
	for _, n := range names {
		if t, ok := Get(n); ok && t.Primary {
			return true
		}
	}
	return false
}

// lexeLogNames are the short names of LEXE's enabled-tools log line, in its order.
var lexeLogNames = []struct{ short, tool string }{
	{"normattiva", schemas.ToolNormattivaSearch}, {"eurlex", schemas.ToolEurlexSearch},
	{"infolex", schemas.ToolInfolexSearch}, {"web", schemas.ToolWebSearch}, {"kb", schemas.ToolKBSearch},
	{"lex", schemas.ToolLexSearch}, {"lex_enriched", schemas.ToolLexSearchEnriched},
}

// EnabledLine is LEXE's compact log line of a turn's toggles:
// "enabled_tools: normattiva=1, eurlex=1, infolex=1, web=0, kb=1, lex=1, lex_enriched=0".
func EnabledLine(enabled []string) string {
	parts := make([]string, len(lexeLogNames))
	for i, n := range lexeLogNames {
		on := 0
		if slices.Contains(enabled, n.tool) {
			on = 1
		}
		parts[i] = fmt.Sprintf("%s=%d", n.short, on)
	}
	return "enabled_tools: " + strings.Join(parts, ", ")
}

// Table renders the registry as the Markdown table in README.md.
func Table() string {
	var b strings.Builder
	b.WriteString("| tool | roles | toggle (default) | timeout | attempts | retried on | then | available |\n|---|---|---|---|---|---|---|---|\n")
	for _, t := range registry {
		toggle := "no key (on)"
		if !t.DefaultOn {
			toggle = "no key (off)"
		}
		if t.Toggle != "" {
			state := "off"
			if t.DefaultOn {
				state = "on"
			}
			toggle = fmt.Sprintf("`%s` (%s)", t.Toggle, state)
		}
		roles := "all"
		if len(t.Roles) < len(allRoles) {
			roles = strings.Join(t.Roles, ", ")
		}
		retry := t.Policy.RetryOn
		if t.Policy.MaxAttempts == 1 {
			retry = "no retry"
		}
		avail := "yes"
		if !t.Available() {
			avail = "not yet"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d | %s | %s | %s |\n", t.Name, roles, toggle, t.Policy.Timeout, t.Policy.MaxAttempts, retry, t.Ladder, avail)
	}
	return b.String()
}
