package firestore

import (
	"testing"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
)

// TestAggregateIntRefusesADouble: a sum Firestore answers as a double (past int64, or
// over a double field) is an error, not 0 tokens; integers read as they are.
func TestAggregateIntRefusesADouble(t *testing.T) {
	for _, c := range []struct {
		v    any
		want int64
		ok   bool
	}{
		{int64(7), 7, true},
		{&firestorepb.Value{ValueType: &firestorepb.Value_IntegerValue{IntegerValue: 42}}, 42, true},
		{&firestorepb.Value{ValueType: &firestorepb.Value_DoubleValue{DoubleValue: 1e19}}, 0, false},
		{&firestorepb.Value{}, 0, false},
		{"7", 0, false},
	} {
		got, err := aggregateInt(c.v)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("aggregateInt(%v) = %d, %v; want %d, ok %v", c.v, got, err, c.want, c.ok)
		}
	}
}
