// Package worker builds the Temporal worker that runs Lexflow's workflows and activities.
package worker

import (
	"maps"
	"slices"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/mailer"
	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/searxng"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/workflows"
)

// Deps are what the activities need.
type Deps struct {
	Store store.Store
	// Models holds a client per model role (schemas.ModelAssistant, schemas.ModelReasoner).
	Models map[schemas.ModelRole]*llm.Client
	// Prompts assembles the models' system prompts.
	Prompts *prompts.Library
	// Corpus is the legal corpus the research tools read.
	Corpus *corpus.Store
	// SearXNG serves the web search tools; nil when none is configured.
	SearXNG *searxng.Client
	// Research answers the search tools instead of the corpus; nil means the corpus.
	Research activities.Backend
	// LexeSearch answers lex_search and lex_search_enriched instead of SearXNG; nil
	// means SearXNG.
	LexeSearch activities.LexeSearch
	// Portal is the courts' portal the court watch polls; nil when none is configured.
	Portal *portal.Client
	// Blobs keeps the draft PDFs.
	Blobs blob.Store
	// Prices is a case's price by tier, which a payment must be.
	Prices map[int]payments.Price
	// Budgets are the default model-token budgets the Meter enforces.
	Budgets schemas.TokenLimits
	// ContextTokens is the assistant model's context size, which budgets what a model
	// call reads of tool results and earlier turns (0: schemas.DefaultContextTokens).
	ContextTokens int
	// SearchLayers are the layers legislation search adds to its lexical ranking.
	SearchLayers activities.SearchLayers
	// Keys are the data keys an erasure destroys.
	Keys *keys.Keyring
	// Temporal is the client an erasure closes a case's workflow with; New sets it to
	// the worker's.
	Temporal client.Client
	// Retention is how long each organization keeps its closed cases (none: for ever).
	Retention map[string]time.Duration
	// Mail sends notifications by e-mail; nil when no mail server is configured.
	Mail *mailer.Sender
	// DefaultLanguage is a notification's language when its user and case chose none.
	DefaultLanguage string
	// Now is the clock that names the day of the budgets the Meter enforces; nil
	// means time.Now.
	Now func() time.Time
	// Legislatie reads the current texts of Romanian acts at the Portal Legislativ; nil
	// when LEXFLOW_LEGISLATIE_URL is not set.
	Legislatie activities.Portal
	// TaskQueue is the task queue system_stats describes; New sets it to the worker's.
	TaskQueue string
	// StuckAfter is how long a case works without progress before system_stats counts
	// it as stuck (LEXFLOW_STUCK_AFTER, as support's list).
	StuckAfter time.Duration
}

// New returns a worker for taskQueue with every workflow and activity registered, in
// the Worker Deployment version v names, if it names one.
func New(c client.Client, taskQueue string, d Deps, v Version) worker.Worker {
	w := worker.New(c, taskQueue, v.Options())
	d.Temporal = c
	d.TaskQueue = taskQueue
	Register(w, d)
	return w
}

// Register registers Lexflow's workflows and activities on r. Each activity struct's
// methods are registered under their names, which the tool registry's Activity fields
// name (tested).
func Register(r worker.Registry, d Deps) {
	RegisterWorkflows(r)
	for _, a := range Activities(d) {
		r.RegisterActivity(a)
	}
}

// Activities are the activity structs a worker registers, holding their dependencies,
// and the ToolRunner that runs the tools among their methods.
func Activities(d Deps) []any {
	web := &activities.Web{SearXNG: d.SearXNG, Lexe: d.LexeSearch}
	system := &activities.SystemPrompts{Library: d.Prompts, Versions: d.Store}
	meter := &activities.Meter{Cases: d.Store, Budgets: d.Store, Parties: d.Store, Limits: d.Budgets, Now: d.Now}
	events := &activities.Publisher{Events: d.Store}
	// The store's current texts count only where a service keeps them.
	var current store.CurrentTexts
	if d.Legislatie != nil {
		current = d.Store
	}
	now := d.Now
	if now == nil {
		now = time.Now
	}
	acts := []any{
		&activities.Cases{Store: d.Store, Parties: d.Store, Events: events},
		&activities.Parties{Cases: d.Store, Parties: d.Store},
		&activities.Transcript{Store: d.Store, Parties: d.Store, Events: events},
		&activities.Quota{Subscriptions: d.Store},
		&activities.Payments{Store: d.Store, Prices: d.Prices},
		&activities.Actions{Audit: d.Store},
		&activities.Tickets{Cases: d.Store, Tickets: d.Store, Sources: d.Store, Events: events},
		&activities.Drafts{Cases: d.Store, Parties: d.Store, Blobs: d.Blobs, Events: events,
			Disclosures: d.Store},
		&activities.Documents{Cases: d.Store, Parties: d.Store, Blobs: d.Blobs, Model: d.Models[schemas.ModelAssistant],
			Prompts: system, Meter: meter, Events: events,
			Transcripts: d.Store},
		&activities.Operations{Temporal: d.Temporal, TaskQueue: d.TaskQueue, StuckAfter: d.StuckAfter, Corpus: d.Corpus, Budgets: d.Store, Now: d.Now,
			Sizes: d.Store},
		&activities.Research{Corpus: d.Corpus, Backend: d.Research, Events: events, Current: current, Layers: d.SearchLayers},
		&activities.CurrentLaw{Corpus: d.Corpus, Store: d.Store, Portal: d.Legislatie, Now: now},
		web,
		&activities.Enriched{Web: web, Corpus: d.Corpus, Reasoner: d.Models[schemas.ModelReasoner], Prompts: system, Meter: meter},
		&activities.Model{Clients: d.Models, Transcripts: d.Store, Memories: d.Store, Prompts: system, Meter: meter, Events: events,
			ContextTokens: d.ContextTokens},
		&activities.Deadlines{Cases: d.Store, Deadlines: d.Store},
		&activities.Timelines{Cases: d.Store, Parties: d.Store, Deadlines: d.Store, CourtFiles: d.Store, Blobs: d.Blobs, Now: now, Events: events},
		&activities.CourtWatch{Files: d.Store, Cases: d.Store, Parties: d.Store, Events: d.Store, Portal: d.Portal, Now: d.Now},
		&activities.Erasure{Store: d.Store, Cases: d.Store, Deadlines: d.Store, Notifications: d.Store, Audit: d.Store, Blobs: d.Blobs,
			Keys: d.Keys, Temporal: d.Temporal, Retention: d.Retention, Facts: d.Store, Parties: d.Store},
		&activities.Notifications{Store: d.Store, Mail: d.Mail, DefaultLanguage: d.DefaultLanguage, Now: d.Now},
		&activities.MemoryProposals{Erasures: d.Store, Cases: d.Store, Transcripts: d.Store, Facts: d.Store, Parties: d.Store,
			Model: d.Models[schemas.ModelAssistant], Prompts: system, Meter: meter},
	}
	runner := activities.NewToolRunner(d.Blobs, acts...)
	runner.Events, runner.ContextTokens = events, d.ContextTokens
	return append(acts, runner)
}

// RegisterWorkflows registers Lexflow's workflows on r under their names in schemas,
// each with its versioning behavior (see Version): a worker's, or a replayer's that
// checks recorded histories against today's code.
func RegisterWorkflows(r worker.WorkflowRegistry) {
	for _, name := range slices.Sorted(maps.Keys(workflowsByName)) {
		r.RegisterWorkflowWithOptions(workflowsByName[name], workflow.RegisterOptions{Name: name, VersioningBehavior: behaviors[name]})
	}
}

// workflowsByName are Lexflow's workflows under their registered names.
var workflowsByName = map[string]any{
	schemas.CaseWorkflow:            workflows.Case,
	schemas.ChatTurnWorkflow:        workflows.ChatTurn,
	schemas.TieringWorkflow:         workflows.Tiering,
	schemas.QuotaWorkflow:           workflows.Quota,
	schemas.DraftWorkflow:           workflows.Draft,
	schemas.SupportTicketWorkflow:   workflows.SupportTicket,
	schemas.EraseWorkflow:           workflows.Erase,
	schemas.RetentionWorkflow:       workflows.Retention,
	schemas.RefreshLawWorkflow:      workflows.RefreshLaw,
	schemas.CitationCheckWorkflow:   workflows.CitationCheck,
	schemas.ToolExecutionWorkflow:   workflows.ToolExecution,
	schemas.QueryWorkflow:           workflows.Query,
	schemas.ChatWorkflow:            workflows.Chat,
	schemas.DocumentWorkflow:        workflows.Document,
	schemas.ProposeDeadlineWorkflow: workflows.ProposeDeadline,
	schemas.CourtWatchWorkflow:      workflows.CourtWatch,
	schemas.DeadlineWorkflow:        workflows.Deadline,
	schemas.ProposeMemoryWorkflow:   workflows.ProposeMemory,
}
