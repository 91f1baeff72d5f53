package activities

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/schemas"
)

// heartbeats counts the heartbeats the activities it intercepts record.
type heartbeats struct {
	interceptor.WorkerInterceptorBase
	n atomic.Int64
}

func (h *heartbeats) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	in := &heartbeatsIn{h: h}
	in.Next = next
	return in
}

type heartbeatsIn struct {
	interceptor.ActivityInboundInterceptorBase
	h *heartbeats
}

func (i *heartbeatsIn) Init(outbound interceptor.ActivityOutboundInterceptor) error {
	out := &heartbeatsOut{h: i.h}
	out.Next = outbound
	return i.Next.Init(out)
}

type heartbeatsOut struct {
	interceptor.ActivityOutboundInterceptorBase
	h *heartbeats
}

func (o *heartbeatsOut) RecordHeartbeat(ctx context.Context, details ...any) {
	o.h.n.Add(1)
	o.Next.RecordHeartbeat(ctx, details...)
}

// waitingPut is a blob store whose Put of a document's text waits for a heartbeat
// recorded after it began, and fails if none comes within heartbeatEvery three times.
type waitingPut struct {
	blob.Store
	beats *heartbeats
}

func (w waitingPut) Put(ctx context.Context, key string, data []byte) error {
	if strings.HasSuffix(key, string(schemas.DocText)) {
		before := w.beats.n.Load()
		for deadline := time.Now().Add(3 * heartbeatEvery); w.beats.n.Load() == before; {
			if time.Now().After(deadline) {
				return errors.New("no heartbeat while the text was stored")
			}
			time.Sleep(10 * time.Millisecond) // polling a counter, with a deadline
		}
	}
	return w.Store.Put(ctx, key, data)
}

// TestAttackExtractHeartbeatsUntilStored (issue 36, finding 3): the read heartbeats
// until its text is stored, not only while doctext reads it: the split and the
// store came after the heartbeat had stopped, so Temporal took the worker for lost
// and read the document again elsewhere while the first attempt still ran.
func TestAttackExtractHeartbeatsUntilStored(t *testing.T) {
	ctx := context.Background()
	dir, err := blob.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	beats := &heartbeats{}
	a := &Documents{Cases: st, Parties: st, Blobs: waitingPut{Store: dir, beats: beats}}
	id, doc := newCase(t, "heartbeat"), "d"+strings.Repeat("c", 32)
	if err := dir.Put(ctx, schemas.DocumentBlob(id, doc, schemas.DocOriginal), []byte("Chiria se plătește lunar.\n")); err != nil {
		t.Fatal(err)
	}
	d := schemas.Document{ID: doc, Name: "a.txt", Title: "a", Kind: "text", Status: schemas.DocReceived, UploadedAt: time.Now()}
	if _, err := st.UpdateDetails(ctx, id, 0, "", map[string]any{schemas.DocumentsField + "." + doc: d.Map()}); err != nil {
		t.Fatal(err)
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{beats}})
	env.RegisterActivity(a)
	v, err := env.ExecuteActivity(a.ExtractDocument, schemas.DocumentInput{CaseID: id, DocID: doc})
	if err != nil {
		t.Fatal(err)
	}
	var read schemas.DocumentRead
	if err := v.Get(&read); err != nil || read.Pages != 1 || read.Reason != "" {
		t.Errorf("read %+v, %v", read, err)
	}
}
