package stack

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/proxy"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store/mongostore"
)

// CheckErased fails unless case id is erased: no document of it in the collections
// that hold cases' data and none of canaries in those that outlive it, no file under
// its blob folder, a destroyed key, no sealed payload of its histories that opens, and
// none of canaries in those never sealed.
func (s *Stack) CheckErased(t *testing.T, id string, canaries ...string) {
	t.Helper()
	ctx := t.Context()
	left, err := s.db.caseDocuments(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for coll, n := range left {
		if n != 0 {
			t.Errorf("%s holds %d documents of the erased case", coll, n)
		}
	}
	// What outlives the case (its receipt, the audit log, payments, token counts)
	// holds its ID, never its content.
	s.CheckDocumentsFree(t, []string{mongostore.ErasuresCollection, mongostore.AuditCollection, mongostore.CheckoutsCollection,
		mongostore.TokenUseCollection}, canaries)
	if _, err := os.Stat(filepath.Join(s.BlobDir, "cases", id)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the erased case's blob folder: %v", err)
	}
	dk, err := s.Raw.GetKey(ctx, keys.CaseKeyID(id))
	if err != nil || dk.DestroyedAt == nil || len(dk.Wrapped) != 0 {
		t.Errorf("the case's key = %+v, %v; want it destroyed", dk, err)
	}
	if _, err := s.Keys.Key(ctx, keys.CaseKeyID(id)); !errors.Is(err, keys.ErrDestroyed) {
		t.Errorf("Keys.Key = %v, want ErrDestroyed", err)
	}
	sealedPayloads, opened := 0, 0
	c := &codec.Codec{Keys: s.Keys}
	var token []byte
	for {
		resp, err := s.TC.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: "WorkflowId STARTS_WITH '" + schemas.CaseWorkflowID(id) + "'", NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.Executions {
			s.VisitHistoryPayloads(t, e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId(), func(p *commonpb.Payload) {
				if !codec.Encrypted(p) {
					for _, canary := range canaries {
						if strings.Contains(string(p.GetData()), canary) {
							t.Errorf("an unsealed payload of the erased case holds its canary %q", canary)
						}
					}
					return
				}
				sealedPayloads++
				if out, err := c.Decode([]*commonpb.Payload{p}); err == nil {
					opened++
					for _, canary := range canaries {
						if strings.Contains(string(out[0].GetData()), canary) {
							t.Errorf("a payload of the erased case opens to its canary %q", canary)
						}
					}
				}
			})
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	if sealedPayloads < 3 || opened != 0 {
		t.Errorf("%d of the erased case's %d sealed history payloads open; want none of them, and some", opened, sealedPayloads)
	}
}

// VisitHistoryPayloads calls visit with every payload of a workflow run's history, as
// the server stores it (search attributes aside).
func (s *Stack) VisitHistoryPayloads(t *testing.T, workflowID, runID string, visit func(*commonpb.Payload)) {
	t.Helper()
	ctx := t.Context()
	iter := s.TC.GetWorkflowHistory(ctx, workflowID, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		err = proxy.VisitPayloads(ctx, ev, proxy.VisitPayloadsOptions{SkipSearchAttributes: true,
			Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
				for _, p := range ps {
					visit(p)
				}
				return ps, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// CheckDocumentsFree reads every document of the named collections of the stack's
// database (every collection when names is nil), fails t for each that holds one of
// canaries, and returns how many documents it read.
func (s *Stack) CheckDocumentsFree(t *testing.T, names, canaries []string) int {
	t.Helper()
	docs, err := s.db.documents(t.Context(), names)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, texts := range docs {
		for _, text := range texts {
			n++
			for _, c := range canaries {
				if strings.Contains(text, c) {
					t.Errorf("a document of %s holds the canary %q", name, c)
				}
			}
		}
	}
	return n
}
