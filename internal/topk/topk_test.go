package topk

import (
	"slices"
	"testing"
)

// TestKeepsTheBest: the k best come back best first, whatever the order offered; of
// items scored alike the first offered stays; a keeper of none keeps none.
func TestKeepsTheBest(t *testing.T) {
	kp := New[string](3)
	for _, x := range []struct {
		v string
		s float64
	}{{"c", 3}, {"a", 9}, {"e", 1}, {"b", 5}, {"d", 2}, {"f", 4}} {
		kp.Offer(x.v, x.s)
	}
	if got := kp.Best(); !slices.Equal(got, []string{"a", "b", "f"}) {
		t.Errorf("best three: %q", got)
	}
	none := New[int](0)
	none.Offer(1, 1)
	if got := none.Best(); len(got) != 0 {
		t.Errorf("a keeper of none kept %v", got)
	}
	tie := New[string](2)
	for _, v := range []string{"a", "b", "c", "d"} {
		tie.Offer(v, 1)
	}
	tie.Offer("best", 2)
	if got := tie.Best(); !slices.Equal(got, []string{"best", "a"}) {
		t.Errorf("of four scored alike and a better: %q, want the better and the first offered", got)
	}
}
