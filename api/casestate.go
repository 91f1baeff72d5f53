package api

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
	"golang.org/x/sync/singleflight"

	"github.com/lexflow/lexflow/schemas"
)

// maxCaseStates bounds the states caseStates keeps; past it, it forgets one at random.
const maxCaseStates = 10_000

// queryTimeout bounds a state query that readers share.
const queryTimeout = 10 * time.Second

// caseStates answers a case workflow's state without running the workflow's code
// while nothing happened to it. A workflow's state is what its history made it, so
// while DescribeWorkflowExecution reports the run and the history length that a query
// answered at, that answer stands. A describe reads the server's record of the
// workflow; a query makes a worker run the workflow's code, replaying its whole history
// when the worker no longer holds it. Concurrent reads of one case at one length share
// one query.
type caseStates struct {
	mu     sync.Mutex
	byCase map[string]answeredState
	flight singleflight.Group
}

// answeredState is a query's answer and where in which run's history it was given.
type answeredState struct {
	runID  string
	length int64
	state  schemas.CaseState
}

// get returns the state of the case's workflow.
func (s *caseStates) get(ctx context.Context, tc client.Client, caseID string) (schemas.CaseState, error) {
	d, err := tc.DescribeWorkflowExecution(ctx, schemas.CaseWorkflowID(caseID), "")
	if err != nil {
		return schemas.CaseState{}, err
	}
	now := answeredState{runID: d.GetWorkflowExecutionInfo().GetExecution().GetRunId(),
		length: d.GetWorkflowExecutionInfo().GetHistoryLength()}
	s.mu.Lock()
	last, ok := s.byCase[caseID]
	s.mu.Unlock()
	if ok && last.runID == now.runID && last.length == now.length {
		return last.state, nil
	}
	key := fmt.Sprintf("%s/%s/%d", caseID, now.runID, now.length)
	v, err, _ := s.flight.Do(key, func() (any, error) {
		// The query is shared: the first reader's cancellation must not fail the others.
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), queryTimeout)
		defer cancel()
		var st schemas.CaseState
		v, err := tc.QueryWorkflow(qctx, schemas.CaseWorkflowID(caseID), now.runID, schemas.QueryState)
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			return nil, err
		}
		now.state = st
		s.keep(caseID, now)
		return st, nil
	})
	if err != nil {
		return schemas.CaseState{}, err
	}
	return v.(schemas.CaseState), nil
}

// keep stores a case's latest answer, unless one of a longer history of the same run
// came first.
func (s *caseStates) keep(caseID string, a answeredState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byCase == nil {
		s.byCase = map[string]answeredState{}
	}
	if last, ok := s.byCase[caseID]; ok && last.runID == a.runID && last.length > a.length {
		return
	}
	if _, ok := s.byCase[caseID]; !ok && len(s.byCase) >= maxCaseStates {
		for id := range s.byCase {
			delete(s.byCase, id)
			break
		}
	}
	s.byCase[caseID] = a
}
