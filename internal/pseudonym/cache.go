package pseudonym

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// cacheSize is how many party sets For keeps built, the most recently used; a case
// holds at most a few hundred values, so each is a few hundred kilobytes at most.
const cacheSize = 64

// cache keeps built Pseudonymizers by the hash of their party set.
var cache = struct {
	sync.Mutex
	order *list.List // of *cached, most recently used first
	byKey map[[sha256.Size]byte]*list.Element
}{order: list.New(), byKey: map[[sha256.Size]byte]*list.Element{}}

type cached struct {
	key [sha256.Size]byte
	p   *Pseudonymizer
}

// For returns the Pseudonymizer of a set of parties, built once and kept while it is
// among the cacheSize most recently used: a page of a document's text read again
// costs one pass over the text, not the building of its names again.
func For(parties []Party) *Pseudonymizer {
	key := partySetKey(parties)
	cache.Lock()
	if e, ok := cache.byKey[key]; ok {
		cache.order.MoveToFront(e)
		cache.Unlock()
		return e.Value.(*cached).p
	}
	cache.Unlock()
	p := newPseudonymizer(parties)
	cache.Lock()
	defer cache.Unlock()
	if _, ok := cache.byKey[key]; !ok {
		cache.byKey[key] = cache.order.PushFront(&cached{key: key, p: p})
		if cache.order.Len() > cacheSize {
			last := cache.order.Back()
			cache.order.Remove(last)
			delete(cache.byKey, last.Value.(*cached).key)
		}
	}
	return p
}

// partySetKey is the SHA-256 of the parties' IDs and values, in their order, each
// prefixed by its length so that no two sets share a key.
func partySetKey(parties []Party) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	write := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	for _, p := range parties {
		write(p.ID)
		write(p.FirstName)
		write(p.LastName)
		write(p.CompanyName)
		binary.BigEndian.PutUint64(n[:], uint64(len(p.Aliases)))
		h.Write(n[:])
		for _, a := range p.Aliases {
			write(a)
		}
		write(p.CNP)
		write(p.CUI)
		write(p.Address)
		write(p.Email)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}
