package storetest

import (
	"errors"
	"testing"

	"github.com/lexflow/lexflow/store"
)

// feedTests check store.Feeds.
var feedTests = []subtest{
	{"RotateReplacesAndDeleteForgets", testFeeds},
}

func testFeeds(t *testing.T, s store.Store) {
	ctx := t.Context()
	owner, other := newID("user"), newID("user")
	first, second, theirs := newID("hash"), newID("hash"), newID("hash")
	for _, put := range [][2]string{{owner, first}, {other, theirs}, {owner, second}} {
		if err := s.PutFeed(ctx, put[0], put[1]); err != nil {
			t.Fatalf("PutFeed = %v", err)
		}
	}
	if got, err := s.FeedOwner(ctx, second); err != nil || got != owner {
		t.Errorf("FeedOwner(new) = %q, %v; want %q", got, err, owner)
	}
	if _, err := s.FeedOwner(ctx, first); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FeedOwner(rotated out) = %v, want ErrNotFound", err)
	}
	if err := s.DeleteFeed(ctx, owner); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FeedOwner(ctx, second); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FeedOwner after delete = %v, want ErrNotFound", err)
	}
	if err := s.DeleteFeed(ctx, owner); err != nil {
		t.Errorf("DeleteFeed again = %v", err)
	}
	if got, err := s.FeedOwner(ctx, theirs); err != nil || got != other {
		t.Errorf("another user's feed = %q, %v", got, err)
	}
}
