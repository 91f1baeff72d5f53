// Package worker builds the Temporal worker that runs Lexflow's workflows and activities.
package worker

import (
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/blob"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/searxng"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/workflows"
)

// Deps are what the activities need.
type Deps struct {
	Store store.Store
	// Models holds a client per model role (schemas.RoleAssistant, schemas.RoleReasoner).
	Models map[string]*llm.Client
	// Prompts assembles the models' system prompts.
	Prompts *prompts.Library
	// Corpus is the legal corpus the research tools read.
	Corpus *corpus.Store
	// SearXNG serves the web search tools; nil when none is configured.
	SearXNG *searxng.Client
	// Research answers the search tools instead of the corpus; nil means the corpus.
	Research activities.Backend
	// Blobs keeps the draft PDFs.
	Blobs blob.Store
}

// New returns a worker for taskQueue with every workflow and activity registered.
func New(c client.Client, taskQueue string, d Deps) worker.Worker {
	w := worker.New(c, taskQueue, worker.Options{})
	Register(w, d)
	return w
}

// Register registers Lexflow's workflows and activities on r.
func Register(r worker.Registry, d Deps) {
	RegisterWorkflows(r)
	r.RegisterActivity(&activities.Lifecycle{Cases: d.Store, Subscriptions: d.Store, Tickets: d.Store, Transcripts: d.Store})
	r.RegisterActivity(&activities.Drafts{Cases: d.Store, Parties: d.Store, Blobs: d.Blobs})
	r.RegisterActivity(&activities.Cases{Store: d.Store, Parties: d.Store})
	r.RegisterActivity(&activities.Transcript{Store: d.Store})
	web := &activities.Web{SearXNG: d.SearXNG}
	r.RegisterActivity(&activities.Research{Corpus: d.Corpus, Backend: d.Research})
	r.RegisterActivity(web)
	r.RegisterActivity(&activities.Enriched{Web: web, Corpus: d.Corpus, Reasoner: d.Models[schemas.RoleReasoner], Prompts: d.Prompts})
	r.RegisterActivity(&activities.Model{Clients: d.Models, Transcripts: d.Store, Memories: d.Store, Prompts: d.Prompts})
}

// RegisterWorkflows registers Lexflow's workflows on r under their names in schemas: a
// worker's, or a replayer's that checks recorded histories against today's code.
func RegisterWorkflows(r worker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(workflows.Case, workflow.RegisterOptions{Name: schemas.CaseWorkflow})
	r.RegisterWorkflowWithOptions(workflows.ChatTurn, workflow.RegisterOptions{Name: schemas.ChatTurnWorkflow})
	r.RegisterWorkflowWithOptions(workflows.Tiering, workflow.RegisterOptions{Name: schemas.TieringWorkflow})
	r.RegisterWorkflowWithOptions(workflows.Quota, workflow.RegisterOptions{Name: schemas.QuotaWorkflow})
	r.RegisterWorkflowWithOptions(workflows.Draft, workflow.RegisterOptions{Name: schemas.DraftWorkflow})
	r.RegisterWorkflowWithOptions(workflows.SupportTicket, workflow.RegisterOptions{Name: schemas.SupportTicketWorkflow})
}
