package store

import "testing"

// TestAttackOwnerIDIsUnambiguous (issue 36, suspicion: an owner ID ambiguous when an
// organization or subject holds ":user:"): different (organization, subject) pairs
// are different owners, whatever separators their names hold, and names without
// separators keep the IDs they had.
func TestAttackOwnerIDIsUnambiguous(t *testing.T) {
	pairs := [][2]string{
		{"a:user:b", "c"}, {"a", "b:user:c"}, {"a:user", "b:user:c"}, {"", "org:a:user:b:user:c"},
		{"a", "b"}, {"", "a"}, {"a%3Auser%3Ab", "c"}, {"a", "b%3Auser%3Ac"}, {"a:", "b"}, {"a", ":b"}, {"", ""}, {"org", ""},
	}
	seen := map[string][2]string{}
	for _, p := range pairs {
		id := OwnerID(p[0], p[1])
		if other, dup := seen[id]; dup {
			t.Errorf("OwnerID(%q, %q) = OwnerID(%q, %q) = %q", p[0], p[1], other[0], other[1], id)
		}
		seen[id] = p
	}
	if got := OwnerID("acme", "alice"); got != "org:acme:user:alice" {
		t.Errorf("OwnerID(acme, alice) = %q, want it unchanged", got)
	}
	if got := OwnerID("", "auth0|65f1"); got != "user:auth0|65f1" {
		t.Errorf("OwnerID(\"\", auth0|65f1) = %q, want it unchanged", got)
	}
}
