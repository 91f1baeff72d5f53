package pii

// trie holds names byte by byte, in two flat slices, so that a cached one is a few
// allocations however many names it holds.
type trie struct {
	nodes []node
	edges []edge
}

// node is a prefix of names: its first child edge, and the index of the name it ends
// (-1 for none).
type node struct {
	first int32
	name  int32
}

// edge leads from a node to its child on byte b; next is its next sibling edge.
type edge struct {
	b    byte
	to   int32
	next int32
}

// child is the node under from on byte b, or 0 (the root is no one's child).
func (t *trie) child(from int32, b byte) int32 {
	for e := t.nodes[from].first; e != 0; e = t.edges[e-1].next {
		if t.edges[e-1].b == b {
			return t.edges[e-1].to
		}
	}
	return 0
}

// add adds s as name i, unless s is already there, and reports whether it added it.
func (t *trie) add(s string, i int) bool {
	var at int32
	for j := 0; j < len(s); j++ {
		next := t.child(at, s[j])
		if next == 0 {
			next = int32(len(t.nodes))
			t.nodes = append(t.nodes, node{name: -1})
			t.edges = append(t.edges, edge{b: s[j], to: next, next: t.nodes[at].first})
			t.nodes[at].first = int32(len(t.edges)) // edges are numbered from 1
		}
		at = next
	}
	if t.nodes[at].name >= 0 {
		return false
	}
	t.nodes[at].name = int32(i)
	return true
}

// walk calls found with each name that s starts with, shortest first, and its length.
func (t *trie) walk(s string, found func(name, length int)) {
	var at int32
	for j := 0; j < len(s); j++ {
		if at = t.child(at, s[j]); at == 0 {
			return
		}
		if n := t.nodes[at].name; n >= 0 {
			found(int(n), j+1)
		}
	}
}
