// Package topk keeps the k best of a stream of scored items, as a search keeps its
// best hits without sorting every candidate.
package topk

import "container/heap"

// Keeper keeps the k items of highest score offered to it; of items scored alike,
// the one offered first stays.
type Keeper[T any] struct {
	k       int
	kept    scored[T]
	offered int
}

// New returns a Keeper of the k best.
func New[T any](k int) *Keeper[T] { return &Keeper[T]{k: k} }

// Offer considers v, scored score.
func (kp *Keeper[T]) Offer(v T, score float64) {
	it := item[T]{v, score, kp.offered}
	kp.offered++
	switch {
	case kp.k <= 0:
	case len(kp.kept) < kp.k:
		heap.Push(&kp.kept, it)
	case score > kp.kept[0].score:
		kp.kept[0] = it
		heap.Fix(&kp.kept, 0)
	}
}

// Best returns the items kept, best first, and empties the Keeper.
func (kp *Keeper[T]) Best() []T {
	out := make([]T, len(kp.kept))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&kp.kept).(item[T]).v
	}
	return out
}

type item[T any] struct {
	v     T
	score float64
	seq   int // the order it was offered in
}

// scored is a heap with the worst item kept on top: the lowest score, and of those
// scored alike the last offered.
type scored[T any] []item[T]

func (h scored[T]) Len() int { return len(h) }
func (h scored[T]) Less(i, j int) bool {
	return h[i].score < h[j].score || h[i].score == h[j].score && h[i].seq > h[j].seq
}
func (h scored[T]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *scored[T]) Push(x any)   { *h = append(*h, x.(item[T])) }
func (h *scored[T]) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
