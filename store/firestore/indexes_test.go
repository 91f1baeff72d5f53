package firestore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// indexFile is the composite indexes Firestore needs for the store's queries, in the
// format `firebase deploy --only firestore:indexes` reads.
const indexFile = "../../deploy/firestore/firestore.indexes.json"

// queryLog records every query a store's client sends.
type queryLog struct {
	mu      sync.Mutex
	queries []*firestorepb.StructuredQuery
}

// option returns the client option that connects to the emulator and records the
// client's queries in l. (The client ignores dial options when it finds the emulator
// by FIRESTORE_EMULATOR_HOST: this connection replaces the one it dials.)
func (l *queryLog) option(t *testing.T) option.ClientOption {
	conn, err := grpc.NewClient(os.Getenv("FIRESTORE_EMULATOR_HOST"), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainStreamInterceptor(
			func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
				s, err := streamer(ctx, desc, cc, method, opts...)
				return recordingStream{ClientStream: s, log: l}, err
			}))
	if err != nil {
		t.Fatal(err)
	}
	return option.WithGRPCConn(conn)
}

type recordingStream struct {
	grpc.ClientStream
	log *queryLog
}

func (s recordingStream) SendMsg(m any) error {
	var q *firestorepb.StructuredQuery
	switch r := m.(type) {
	case *firestorepb.RunQueryRequest:
		q = r.GetStructuredQuery()
	case *firestorepb.RunAggregationQueryRequest:
		q = r.GetStructuredAggregationQuery().GetStructuredQuery()
	}
	if q != nil {
		s.log.mu.Lock()
		s.log.queries = append(s.log.queries, q)
		s.log.mu.Unlock()
	}
	return s.ClientStream.SendMsg(m)
}

// index is one composite index of indexFile.
type index struct {
	CollectionGroup string `json:"collectionGroup"`
	QueryScope      string `json:"queryScope"`
	Fields          []struct {
		FieldPath string `json:"fieldPath"`
		Order     string `json:"order"`
	} `json:"fields"`
}

// need is the composite index a query needs: on its collection, the fields it compares
// for equality (in any order, ascending), then those it orders by, in order.
type need struct {
	collection string
	eq, order  []string // "field DIRECTION"
}

func (n need) String() string {
	return n.collection + ": " + strings.Join(append(slices.Clone(n.eq), n.order...), ", ")
}

// serves reports whether x is the index n.
func (n need) servedBy(x index) bool {
	if x.CollectionGroup != n.collection || x.QueryScope != "COLLECTION" || len(x.Fields) != len(n.eq)+len(n.order) {
		return false
	}
	fields := make([]string, len(x.Fields))
	for i, f := range x.Fields {
		fields[i] = f.FieldPath + " " + f.Order
	}
	eq := fields[:len(n.eq)]
	slices.Sort(eq)
	return slices.Equal(eq, n.eq) && slices.Equal(fields[len(n.eq):], n.order)
}

// needs returns the composite index a query needs, and false when Firestore's
// single-field indexes serve it: a query that only compares fields for equality, or
// that filters and orders by one field. A field with an inequality filter and no order
// is ordered ascending first, as Firestore does; a field compared for equality and
// ordered by counts as ordered.
func needs(q *firestorepb.StructuredQuery) (need, bool) {
	n := need{collection: q.GetFrom()[0].GetCollectionId()}
	ordered := map[string]bool{}
	for _, o := range q.GetOrderBy() {
		f := o.GetField().GetFieldPath()
		dir := "ASCENDING"
		if o.GetDirection() == firestorepb.StructuredQuery_DESCENDING {
			dir = "DESCENDING"
		}
		n.order = append(n.order, f+" "+dir)
		ordered[f] = true
	}
	filters := []*firestorepb.StructuredQuery_FieldFilter{q.GetWhere().GetFieldFilter()}
	for _, f := range q.GetWhere().GetCompositeFilter().GetFilters() {
		filters = append(filters, f.GetFieldFilter())
	}
	for _, f := range filters {
		path := f.GetField().GetFieldPath()
		switch {
		case f == nil || ordered[path]:
		case f.GetOp() == firestorepb.StructuredQuery_FieldFilter_EQUAL || f.GetOp() == firestorepb.StructuredQuery_FieldFilter_IN:
			n.eq = append(n.eq, path+" ASCENDING")
		default:
			n.order = append([]string{path + " ASCENDING"}, n.order...)
			ordered[path] = true
		}
	}
	slices.Sort(n.eq)
	return n, len(n.order) > 0 && len(n.eq)+len(n.order) > 1
}

// checkIndexes fails t for every query in log that no index in indexFile serves, and
// for every index no query needs.
func checkIndexes(t *testing.T, log *queryLog) {
	raw, err := os.ReadFile(indexFile)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Indexes        []index `json:"indexes"`
		FieldOverrides []any   `json:"fieldOverrides"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("%s: %v", indexFile, err)
	}
	used := make([]bool, len(file.Indexes))
	missing := map[string]bool{}
	for _, q := range log.queries {
		n, composite := needs(q)
		if !composite {
			continue
		}
		i := slices.IndexFunc(file.Indexes, n.servedBy)
		if i < 0 {
			missing[n.String()] = true
			continue
		}
		used[i] = true
	}
	for n := range missing {
		t.Errorf("no index in %s serves the queries on %s", indexFile, n)
	}
	for i, x := range file.Indexes {
		if !used[i] {
			t.Errorf("%s: no query needs index %d, on %s %v", indexFile, i, x.CollectionGroup, x.Fields)
		}
	}
}
