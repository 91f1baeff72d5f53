package schemas

// ToolSystemStats is Edison's system_stats, made an operations view of Lexflow for
// admins: the task queue, the cases, the workers, the store, the corpus and the day's
// tokens.
const ToolSystemStats = "system_stats"

// SystemStatsArgs are system_stats' arguments: none the model sets. OrganizationID is
// bound by the turn (the case's organization) or the admin's run (the admin's own on
// no case): set, the figures are that organization's and what is the deployment's
// alone (the task queue, the workers) is left out; nil, for the operator's staff, they
// are the deployment's.
type SystemStatsArgs struct {
	OrganizationID *string `json:"organization_id"`
}

// StatsOrganizationRefused is system_stats' answer to a model that names another
// organization than the one its turn binds.
const StatsOrganizationRefused = "Organization not found"

// Parts of a system_stats answer, as SystemStats.Failed names those it could not read.
const (
	StatsTaskQueue = "task_queue"
	StatsCases     = "cases"
	StatsCorpus    = "corpus"
	StatsTokens    = "tokens"
	StatsStore     = "store"
)

// SystemStats is system_stats' answer. Each part is nil when it was not read: Failed
// says why for a part whose source did not answer, Omitted why a part was left out
// (the deployment's figures for an organization's admin).
type SystemStats struct {
	Status       string        `json:"status"`
	ErrorMessage string        `json:"error_message,omitempty"`
	Organization string        `json:"organization,omitempty"`
	TaskQueue    *QueueStats   `json:"task_queue,omitempty"`
	Cases        *CaseCounts   `json:"cases,omitempty"`
	Corpus       *CorpusSize   `json:"corpus,omitempty"`
	Store        *StoreSize    `json:"store,omitempty"`
	Tokens       *TokensToday  `json:"tokens_today,omitempty"`
	Failed       []PartFailure `json:"failed,omitempty"`
	Omitted      []PartFailure `json:"omitted,omitempty"`
}

// PartFailure is a part of system_stats that is not in the answer, and why.
type PartFailure struct {
	Part   string `json:"part"`
	Reason string `json:"reason"`
}

// QueueStats is the task queue's backlog, by kind of task, and the workers polling it.
type QueueStats struct {
	Name    string       `json:"name"`
	Kinds   []QueueKind  `json:"kinds"`
	Workers []WorkerInfo `json:"workers"`
}

// QueueKind is the backlog of one kind of task (workflow or activity): the tasks
// waiting and how long the oldest has waited, as the server approximates them.
type QueueKind struct {
	Kind              string  `json:"kind"`
	Backlog           int64   `json:"backlog"`
	BacklogAgeSeconds float64 `json:"backlog_age_seconds"`
	AddRate           float32 `json:"add_rate"`
	DispatchRate      float32 `json:"dispatch_rate"`
}

// WorkerInfo is one worker polling the task queue: its identity, its Worker
// Deployment's build ID and name (empty for an unversioned worker), what it polls and
// when it last did.
type WorkerInfo struct {
	Identity   string   `json:"identity"`
	BuildID    string   `json:"build_id,omitempty"`
	Deployment string   `json:"deployment,omitempty"`
	Polls      []string `json:"polls"`
	LastSeen   string   `json:"last_seen,omitempty"`
}

// CaseCounts are the Case workflows running, and among them those paused for support,
// waiting for the client and stuck (working for the agent with no progress for the
// stuck threshold), as the support lists count them.
type CaseCounts struct {
	Running       int64 `json:"running"`
	PausedSupport int64 `json:"paused_support"`
	WaitingUser   int64 `json:"waiting_user"`
	Stuck         int64 `json:"stuck"`
	StuckAfterMin int64 `json:"stuck_after_minutes"`
}

// CorpusSize is the legal corpus's size: its articles and decisions, in all and by
// source.
type CorpusSize struct {
	Articles  int                     `json:"articles"`
	Decisions int                     `json:"decisions"`
	Sources   map[string]CorpusSource `json:"sources"`
}

// CorpusSource is one source's rows in the corpus.
type CorpusSource struct {
	Articles  int `json:"articles"`
	Decisions int `json:"decisions"`
}

// TokensToday is the model tokens an organization, or for the operator's staff every
// organization together, used on the UTC day.
type TokensToday struct {
	Day    string `json:"day"`
	Tokens int64  `json:"tokens"`
}

// StoreSize is the store's size: the documents of its main collections, every
// organization's together, in the order the store names them.
type StoreSize struct {
	Collections []CollectionSize `json:"collections"`
}

// CollectionSize is one collection's documents.
type CollectionSize struct {
	Name      string `json:"name"`
	Documents int64  `json:"documents"`
}
