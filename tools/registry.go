// Package tools is Lexflow's tool registry, as data: for every tool the model may call,
// its name, JSON Schema and description, the roles that may use it, its toggle and
// default, its policy, failure class and escalation ladder, its formatter, the
// arguments the turn binds, and the name of the activity or child workflow that runs
// it. The worker binds those names to code; the registry itself depends only on the
// contract in package schemas.
package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// Tool is one registry entry.
type Tool struct {
	Name        string
	Description string
	// Schema validates the model's arguments.
	Schema *Schema
	// JSONSchema is schemas/tools/<name>.json as written, as GET /v1/tools shows it.
	JSONSchema map[string]any
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
	// Budget is how much of the model's context one result may take, and how it is
	// cut to it (see Show).
	Budget Budget
	// Activity is the name of the activity that runs the tool, as the worker registers
	// it (the method's name); Workflow is the name of the child workflow that runs it
	// instead. A tool with neither is listed but never offered to the model.
	Activity string
	Workflow string
	// Failure is the tool's failure class: whether a failure that survived its
	// retries climbs Ladder (Escalate) or is told to the model (Degrade).
	Failure Failure
	// Ladder is how far an Escalate tool's failure climbs once its retries have run
	// out; a Degrade tool has none.
	Ladder Ladder
	// Bound are arguments the turn fills from its case instead of the model.
	Bound []Binding
	// Writes marks a tool that changes its case's content (case_details, drafts): a
	// legal hold refuses it.
	Writes bool
	// parameters are JSONSchema without its $schema, title and description.
	parameters map[string]any
	// decode turns validated arguments into the tool's argument struct.
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

// Definition is what the model is offered of a tool: its name, its description and
// the JSON Schema of its parameters.
type Definition struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// Definition returns what the model sees of the tool: schemas/tools/<name>.json's
// description, and the rest of that schema, without its $schema and title, as the
// parameters.
func (t *Tool) Definition() Definition {
	return Definition{Name: t.Name, Description: t.Description, Parameters: t.parameters}
}

// Available reports whether an activity or a child workflow runs the tool.
func (t *Tool) Available() bool { return t.Activity != "" || t.Workflow != "" }

// Decode turns validated arguments into the tool's argument struct.
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

// bindLanguage fills a search's language from the case unless the model names one.
var bindLanguage = []Binding{{Arg: "language", From: "language", Default: true}}

var (
	allRoles  = schemas.TokenRoles
	adminOnly = []string{schemas.RoleAdmin}
	bindCase  = []Binding{{Arg: "case_id", From: "case", Refusal: schemas.CaseNotFound}}
)

// registry lists every tool, in the order the model sees them. Activity names are the
// methods of the activity structs that worker.Register registers (tested).
var registry = withBudgets(mustLoad([]*Tool{
	// Legal research (seed 000).
	{Name: schemas.ToolNormattivaSearch, Roles: allRoles, Toggle: schemas.ToggleNormattiva, DefaultOn: true, Primary: true,
		Policy: lexeNoRetry, Failure: Degrade, Format: formatNormattiva, Activity: "NormattivaSearch", decode: decodeArgs[schemas.NormattivaSearchArgs]},
	{Name: schemas.ToolEurlexSearch, Roles: allRoles, Toggle: schemas.ToggleEurlex, DefaultOn: true, Primary: true, Bound: bindLanguage,
		Policy: lexeNoRetry, Failure: Degrade, Format: formatEurlex, Activity: "EurlexSearch", decode: decodeArgs[schemas.EurlexSearchArgs]},
	{Name: schemas.ToolInfolexSearch, Roles: allRoles, Toggle: schemas.ToggleInfolex, DefaultOn: true, Primary: true,
		Policy: lexeNoRetry, Failure: Degrade, Format: formatInfolex, Activity: "InfolexSearch", decode: decodeArgs[schemas.InfolexSearchArgs]},
	{Name: schemas.ToolKBSearch, Roles: allRoles, Toggle: schemas.ToggleKBSearch, DefaultOn: true, Primary: true,
		Policy: kbSearchPolicy, Failure: Degrade, Format: formatKB, Activity: "KBSearch", decode: decodeArgs[schemas.KBSearchArgs]},
	{Name: schemas.ToolLegislationSearch, Roles: allRoles, Toggle: schemas.ToggleLegislation, DefaultOn: true, Primary: true,
		Policy: legislationSearchPolicy, Failure: Degrade, Format: formatLegislation, Activity: "LegislationSearch",
		decode: decodeArgs[schemas.LegislationSearchArgs]},
	{Name: schemas.ToolLexSearch, Roles: allRoles, Toggle: schemas.ToggleLexSearch, DefaultOn: true, Primary: true, Bound: bindLanguage,
		Policy: lexSearchPolicy, Failure: Degrade, Format: formatLexSearch, Activity: "LexSearch", decode: decodeArgs[schemas.LexSearchArgs]},
	{Name: schemas.ToolLexSearchEnriched, Roles: allRoles, Toggle: schemas.ToggleLexSearchEnriched, DefaultOn: false, Bound: bindLanguage,
		Policy: lexSearchEnrichedPolicy, Failure: Degrade, Format: formatLexSearchEnriched, Activity: "LexSearchEnriched",
		decode: decodeArgs[schemas.LexSearchEnrichedArgs]},
	{Name: schemas.ToolWebSearch, Roles: allRoles, Toggle: schemas.ToggleWebSearch, DefaultOn: false, Bound: bindLanguage,
		Policy: lexeNoRetry, Failure: Degrade, Format: formatWebSearch, Activity: "WebSearch", decode: decodeArgs[schemas.WebSearchArgs]},
	// Seed 003's second research step: the full text of what the searches summarized.
	{Name: schemas.ToolReadLegalText, Roles: allRoles, DefaultOn: true,
		Policy: legalTextPolicy, Failure: Degrade, Format: formatReadLegalText, Activity: "ReadLegalText", decode: decodeArgs[schemas.ReadLegalTextArgs]},
	// Seed 003's query_bigquery; read-only SQL is for admins, as Sanctum's db-query.
	{Name: schemas.ToolLegalSQL, Roles: adminOnly, DefaultOn: true,
		Policy: legalSQLPolicy, Failure: Degrade, Format: formatStatus, Activity: "LegalSQL", decode: decodeArgs[schemas.LegalSQLArgs]},
	// Case tools (seed 003).
	{Name: schemas.ToolGetCaseDetails, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatStatus, Activity: "GetCaseDetails", decode: decodeArgs[schemas.GetCaseDetailsArgs]},
	{Name: schemas.ToolUpdateCaseDetails, Roles: allRoles, DefaultOn: true, Bound: bindCase, Writes: true,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatStatus, Activity: "UpdateCaseDetails", decode: decodeArgs[schemas.UpdateCaseDetailsArgs]},
	{Name: schemas.ToolGetPartyIDByName, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatStatus, Activity: "GetPartyIDByName", decode: decodeArgs[schemas.GetPartyIDByNameArgs]},
	{Name: schemas.ToolGenerateDraftPDF, Roles: allRoles, DefaultOn: true, Bound: bindCase, Writes: true,
		Policy: draftPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatStatus, Workflow: schemas.DraftWorkflow, decode: decodeArgs[schemas.GenerateDraftPDFArgs]},
	// Documents the client uploaded, pseudonymized.
	{Name: schemas.ToolListDocuments, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatListDocuments, Activity: "ListDocuments", decode: decodeArgs[schemas.ListDocumentsArgs]},
	{Name: schemas.ToolReadDocument, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatReadDocument, Activity: "ReadDocument", decode: decodeArgs[schemas.ReadDocumentArgs]},
	{Name: schemas.ToolCheckQuota, Roles: allRoles, DefaultOn: true,
		Bound:  []Binding{{Arg: "user_id", From: "user", Refusal: schemas.QuotaUserNotFound}, {Arg: "organization_id", From: "org", Refusal: schemas.QuotaSubscriptionNotFound}},
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatStatus, Activity: "CheckQuota", decode: decodeArgs[schemas.CheckQuotaArgs]},
	{Name: schemas.ToolCreateSupportTicket, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: reasonerOnly, Format: formatStatus, Workflow: schemas.SupportTicketWorkflow, decode: decodeArgs[schemas.CreateSupportTicketArgs]},
	{Name: schemas.ToolConsultReasoner, Roles: allRoles, DefaultOn: true,
		Bound:  append(slices.Clone(bindCase), Binding{Arg: "language", From: "language"}),
		Policy: reasonerPolicy, Failure: Degrade, Format: formatStatus, Activity: "ConsultReasoner", decode: decodeArgs[schemas.ConsultReasonerArgs]},
	// Deadlines (issue 41): computing one is pure and bounded; proposing one writes to
	// the case, and only a person's confirmation makes it run.
	{Name: schemas.ToolComputeDeadline, Roles: allRoles, DefaultOn: true,
		Policy: caseToolPolicy, Failure: Degrade, Format: formatStatus, Activity: "ComputeDeadline", decode: decodeArgs[schemas.ComputeDeadlineArgs]},
	{Name: schemas.ToolProposeDeadline, Roles: allRoles, DefaultOn: true, Bound: bindCase, Writes: true,
		Policy: caseToolPolicy, Failure: Escalate, Ladder: fullLadder, Format: formatStatus, Workflow: schemas.ProposeDeadlineWorkflow,
		decode: decodeArgs[schemas.ProposeDeadlineArgs]},
	// Seed 001's generate_image, made the case's timeline chart (issue 42): it draws
	// from the case and degrades, for a chart the turn can do without; it changes no
	// content of the case, so a legal hold lets it draw.
	{Name: schemas.ToolGenerateImage, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: caseToolPolicy, Failure: Degrade, Format: formatStatus, Activity: "GenerateImage", decode: decodeArgs[schemas.GenerateImageArgs]},
	// Edison's tools (seed 001), made tools of a case (issue 42). rag_search reads
	// only the turn's own case: its case_id is bound and its global refused.
	{Name: schemas.ToolRagSearch, Roles: allRoles, DefaultOn: true, Bound: bindCase,
		Policy: ragSearchPolicy, Failure: Degrade, Format: formatRagSearch, Activity: "RagSearch", decode: decodeArgs[schemas.RagSearchArgs]},
	// system_stats is for admins: an organization's admin reads its own cases and
	// tokens, the operator's staff the deployment's task queue, workers, cases, store
	// sizes and tokens.
	{Name: schemas.ToolSystemStats, Roles: adminOnly, DefaultOn: true,
		Bound:  []Binding{{Arg: "organization_id", From: "org", Refusal: schemas.StatsOrganizationRefused}},
		Policy: systemStatsPolicy, Failure: Degrade, Format: formatSystemStats, Activity: "SystemStats", decode: decodeArgs[schemas.SystemStatsArgs]},
}))

// mustLoad reads each tool's schema and description from schemas/tools/<name>.json.
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
		if err := json.Unmarshal(raw, &t.JSONSchema); err != nil {
			panic(fmt.Sprintf("schema of %s: %v", t.Name, err))
		}
		normalizeDefaults(&s)
		t.Schema, t.Description = &s, s.Description
		t.parameters = maps.Clone(t.JSONSchema)
		for _, k := range []string{"$schema", "title", "description"} {
			delete(t.parameters, k)
		}
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

// EnabledLine is LEXE's compact log line of a turn's toggles, with its prefix:
// "[CustomerStream] enabled_tools: normattiva=1, eurlex=1, infolex=1, web=0, kb=1,
// lex=1, lex_enriched=0".
func EnabledLine(enabled []string) string {
	parts := make([]string, len(lexeLogNames))
	for i, n := range lexeLogNames {
		on := 0
		if slices.Contains(enabled, n.tool) {
			on = 1
		}
		parts[i] = fmt.Sprintf("%s=%d", n.short, on)
	}
	return "[CustomerStream] enabled_tools: " + strings.Join(parts, ", ")
}

// Table renders the registry as the Markdown table in docs/tools.md.
func Table() string {
	var b strings.Builder
	b.WriteString("| tool | roles | toggle (default) | timeout | attempts | retried on | failure | then | available | budget |\n|---|---|---|---|---|---|---|---|---|---|\n")
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
		budget := fmt.Sprintf("%d%% (%d tokens)", t.Budget.Percent, t.Budget.Tokens(schemas.DefaultContextTokens))
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", t.Name, roles, toggle, t.Policy.Timeout, t.Policy.MaxAttempts, retry, t.Failure, t.Ladder, avail, budget)
	}
	return b.String()
}
