package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Operations is the system_stats tool: what an admin asks of Lexflow's running state.
type Operations struct {
	Temporal client.Client
	// TaskQueue is the task queue the workers poll.
	TaskQueue string
	// StuckAfter is how long a case works without progress before it counts as stuck,
	// as the support lists count it.
	StuckAfter time.Duration
	Corpus     *corpus.Store
	Budgets    store.Budgets
	// Sizes counts the store's collections for the operator's staff.
	Sizes store.Sizes
	// CallTimeout bounds each part's calls (statsCallTimeout when 0): a source that
	// does not answer in it is told as failed, and the rest answered.
	CallTimeout time.Duration
	// Now is the clock of the stuck threshold and of the day's tokens; time.Now when
	// nil.
	Now func() time.Time
}

// statsCallTimeout bounds the calls of one part of system_stats, below the tool's
// policy's timeout: the parts are read at once, so a source that does not answer
// costs this long, and the answer still comes in time with the other parts.
const statsCallTimeout = 5 * time.Second

// SystemStats is the system_stats tool: the task queue's backlog and its workers with
// their build IDs, the Case workflows running, paused for support, waiting for the
// client and stuck, the store's and the corpus's sizes and the model tokens of the
// day. For an organization's admin (OrganizationID set) the cases and
// tokens are that organization's, and the task queue and the store's sizes, which are
// every tenant's (the stores count no collection by organization cheaply), are left
// out; for the operator's staff the cases and the tokens are every tenant's. The parts are read at once, each within CallTimeout; a
// part whose source fails is named with its reason in Failed (for an organization's
// admin, "unavailable", the reason logged), and the others are answered (the tool
// degrades); a part that panics fails as an error. When every part read fails, the error is returned, so
// that Temporal retries it under the tool's policy.
func (a *Operations) SystemStats(ctx context.Context, args schemas.SystemStatsArgs) (schemas.SystemStats, error) {
	org := ""
	if args.OrganizationID != nil {
		org = *args.OrganizationID
	}
	out := schemas.SystemStats{Status: schemas.ResultSuccess, Organization: org}
	var mu sync.Mutex
	var wg sync.WaitGroup
	tried := 0
	part := func(name string, read func(context.Context) error) {
		tried++
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, a.callTimeout())
			defer cancel()
			err := readPart(pctx, read)
			if err == nil {
				return
			}
			reason := err.Error()
			if org != "" { // an organization's admin is not told how the shared services fail
				if activity.IsActivity(ctx) {
					activity.GetLogger(ctx).Warn("A part of system_stats failed", "Part", name, "Error", err)
				}
				reason = "unavailable"
			}
			mu.Lock()
			out.Failed = append(out.Failed, schemas.PartFailure{Part: name, Reason: reason})
			mu.Unlock()
		})
	}
	if org == "" {
		part(schemas.StatsTaskQueue, func(ctx context.Context) error {
			q, err := a.queue(ctx)
			mu.Lock()
			out.TaskQueue = q
			mu.Unlock()
			return err
		})
		part(schemas.StatsStore, func(ctx context.Context) error {
			sz, err := a.storeSize(ctx)
			mu.Lock()
			out.Store = sz
			mu.Unlock()
			return err
		})
	} else {
		out.Omitted = append(out.Omitted, schemas.PartFailure{Part: schemas.StatsTaskQueue,
			Reason: "the task queue and its workers serve every organization: the operator's staff read them"})
		out.Omitted = append(out.Omitted, schemas.PartFailure{Part: schemas.StatsStore,
			Reason: "the store's sizes are counted across every organization, not by organization: the operator's staff read them"})
	}
	part(schemas.StatsTokens, func(ctx context.Context) error {
		day := Day(a.now())
		used, err := a.tokensOn(ctx, org, day)
		if err != nil {
			return fmt.Errorf("read the day's tokens: %w", err)
		}
		mu.Lock()
		out.Tokens = &schemas.TokensToday{Day: day, Tokens: used}
		mu.Unlock()
		return nil
	})
	part(schemas.StatsCases, func(ctx context.Context) error {
		c, err := a.cases(ctx, org)
		mu.Lock()
		out.Cases = c
		mu.Unlock()
		return err
	})
	part(schemas.StatsCorpus, func(ctx context.Context) error {
		c, err := a.corpus(ctx)
		mu.Lock()
		out.Corpus = c
		mu.Unlock()
		return err
	})
	wg.Wait()
	slices.SortFunc(out.Failed, func(x, y schemas.PartFailure) int { return strings.Compare(x.Part, y.Part) })
	if len(out.Failed) == tried {
		errs := make([]error, len(out.Failed))
		for i, f := range out.Failed {
			errs[i] = fmt.Errorf("%s: %s", f.Part, f.Reason)
		}
		return schemas.SystemStats{}, fmt.Errorf("system stats: %w", errors.Join(errs...))
	}
	return out, nil
}

// queue describes the task queue, its workflow and its activity tasks: each kind's
// backlog, and the workers polling it with their build IDs. A failure leaves it nil.
func (a *Operations) queue(ctx context.Context) (*schemas.QueueStats, error) {
	if a.Temporal == nil {
		return nil, errors.New("no Temporal client")
	}
	q := &schemas.QueueStats{Name: a.TaskQueue, Kinds: []schemas.QueueKind{}, Workers: []schemas.WorkerInfo{}}
	for _, kind := range []enumspb.TaskQueueType{enumspb.TASK_QUEUE_TYPE_WORKFLOW, enumspb.TASK_QUEUE_TYPE_ACTIVITY} {
		resp, err := a.Temporal.WorkflowService().DescribeTaskQueue(ctx, &workflowservice.DescribeTaskQueueRequest{
			Namespace: namespaceOf(ctx), TaskQueue: &taskqueuepb.TaskQueue{Name: a.TaskQueue, Kind: enumspb.TASK_QUEUE_KIND_NORMAL},
			TaskQueueType: kind, ReportStats: true,
		})
		if err != nil {
			return nil, fmt.Errorf("describe task queue %s: %w", a.TaskQueue, err)
		}
		name := map[enumspb.TaskQueueType]string{enumspb.TASK_QUEUE_TYPE_WORKFLOW: "workflow", enumspb.TASK_QUEUE_TYPE_ACTIVITY: "activity"}[kind]
		st := resp.GetStats()
		q.Kinds = append(q.Kinds, schemas.QueueKind{Kind: name, Backlog: st.GetApproximateBacklogCount(),
			BacklogAgeSeconds: st.GetApproximateBacklogAge().AsDuration().Seconds(), AddRate: st.GetTasksAddRate(), DispatchRate: st.GetTasksDispatchRate()})
		for _, p := range resp.GetPollers() {
			i := slices.IndexFunc(q.Workers, func(w schemas.WorkerInfo) bool { return w.Identity == p.GetIdentity() })
			if i < 0 {
				w := schemas.WorkerInfo{Identity: p.GetIdentity(), BuildID: p.GetDeploymentOptions().GetBuildId(),
					Deployment: p.GetDeploymentOptions().GetDeploymentName(), Polls: []string{}}
				if t := p.GetLastAccessTime(); t != nil {
					w.LastSeen = t.AsTime().UTC().Format(time.RFC3339)
				}
				q.Workers = append(q.Workers, w)
				i = len(q.Workers) - 1
			}
			q.Workers[i].Polls = append(q.Workers[i].Polls, name)
		}
	}
	return q, nil
}

// cases counts the Case workflows by the visibility queries support's lists use,
// kept to the organization's cases when org is set. A failure leaves it nil.
func (a *Operations) cases(ctx context.Context, org string) (*schemas.CaseCounts, error) {
	if a.Temporal == nil {
		return nil, errors.New("no Temporal client")
	}
	now := a.now()
	c := &schemas.CaseCounts{StuckAfterMin: int64(a.StuckAfter / time.Minute)}
	for _, q := range []struct {
		query string
		to    *int64
	}{
		{schemas.RunningCasesQuery(org), &c.Running},
		{schemas.SupportQuery(schemas.StatusPausedSupport, org, now, a.StuckAfter), &c.PausedSupport},
		{schemas.SupportQuery(schemas.StatusWaitingUser, org, now, a.StuckAfter), &c.WaitingUser},
		{schemas.SupportQuery(schemas.SupportStuck, org, now, a.StuckAfter), &c.Stuck},
	} {
		resp, err := a.Temporal.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: q.query})
		if err != nil {
			return nil, fmt.Errorf("count cases: %w", err)
		}
		*q.to = resp.GetCount()
	}
	return c, nil
}

// corpus counts the corpus's rows by source.
func (a *Operations) corpus(ctx context.Context) (*schemas.CorpusSize, error) {
	if a.Corpus == nil {
		return nil, errors.New("no corpus")
	}
	counts, err := a.Corpus.Counts(ctx)
	if err != nil {
		return nil, fmt.Errorf("count the corpus: %w", err)
	}
	c := &schemas.CorpusSize{Sources: map[string]schemas.CorpusSource{}}
	for name, n := range counts {
		c.Sources[name] = schemas.CorpusSource{Articles: n.Articles, Decisions: n.Decisions}
		c.Articles += n.Articles
		c.Decisions += n.Decisions
	}
	return c, nil
}

// storeSize counts the store's main collections, in store.SizedCollections' order.
// A failure leaves it nil.
func (a *Operations) storeSize(ctx context.Context) (*schemas.StoreSize, error) {
	if a.Sizes == nil {
		return nil, errors.New("no store")
	}
	counts, err := a.Sizes.CollectionSizes(ctx)
	if err != nil {
		return nil, fmt.Errorf("count the store: %w", err)
	}
	sz := &schemas.StoreSize{Collections: make([]schemas.CollectionSize, 0, len(store.SizedCollections))}
	for _, name := range store.SizedCollections {
		sz.Collections = append(sz.Collections, schemas.CollectionSize{Name: name, Documents: counts[name]})
	}
	return sz, nil
}

// namespaceOf is the namespace of the activity ctx runs in; "default" outside one.
func namespaceOf(ctx context.Context) string {
	if activity.IsActivity(ctx) {
		return activity.GetInfo(ctx).Namespace
	}
	return "default"
}

func (a *Operations) callTimeout() time.Duration {
	if a.CallTimeout > 0 {
		return a.CallTimeout
	}
	return statsCallTimeout
}

func (a *Operations) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// readPart runs read, answering a panic as its error: a part runs in a goroutine of
// its own, where a panic would end the worker's process rather than the activity.
func readPart(ctx context.Context, read func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return read(ctx)
}

// tokensOn reads the model tokens of a UTC day: an organization's, or, for no
// organization, every organization's together.
func (a *Operations) tokensOn(ctx context.Context, org, day string) (int64, error) {
	if org == "" {
		return a.Budgets.DeploymentTokens(ctx, day)
	}
	used, err := a.Budgets.TokensUsed(ctx, schemas.TenantKey(org, ""), "", day)
	return used.Tenant, err
}
