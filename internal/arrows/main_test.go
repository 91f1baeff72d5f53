package main

import (
	"slices"
	"strings"
	"testing"
)

// TestCheck checks the rules on a made-up module: the edges they forbid are found, with
// the chain of imports that reaches a forbidden package, and none else.
func TestCheck(t *testing.T) {
	graph := map[string][]string{
		"workflows":     {"activities", "schemas"},
		"activities":    {"store"},
		"api":           {"internal/auth", "store"},
		"internal/auth": {"worker"},
		"worker":        {"activities"},
		"tools":         {"schemas"},
		"store":         {"schemas"},
		"schemas":       {},
	}
	if bad := check(graph, rules); len(bad) != 1 || !strings.HasPrefix(bad[0], "api depends on activities (api → internal/auth → worker → activities)") {
		t.Errorf("found %q; want only api reaching activities, through internal/auth and worker", bad)
	}
	graph["workflows"] = append(graph["workflows"], "store")
	graph["tools"] = append(graph["tools"], "internal/auth")
	graph["internal/auth"] = []string{"store/mongostore"}
	graph["store/mongostore"] = []string{"store"}
	var got []string
	for _, b := range check(graph, rules) {
		got = append(got, strings.SplitN(b, "\n", 2)[0])
	}
	want := []string{"workflows imports store", "internal/auth imports store/mongostore",
		"tools depends on internal/auth (tools → internal/auth)", "tools depends on store/mongostore (tools → internal/auth → store/mongostore)",
		"tools depends on store (tools → internal/auth → store/mongostore → store)"}
	if !slices.Equal(got, want) {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, pkg string
		want         bool
	}{
		{"store", "store", true}, {"store", "store/notify", false}, {"store/...", "store", true},
		{"store/...", "store/notify", true}, {"store/...", "storetest", false}, {"...", "api", true},
	} {
		if got := match(tc.pattern, tc.pkg); got != tc.want {
			t.Errorf("match(%q, %q) = %v", tc.pattern, tc.pkg, got)
		}
	}
}
