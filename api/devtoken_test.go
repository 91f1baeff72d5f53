package api

import (
	"net/http/httptest"
	"testing"
)

// TestFromLoopback: a dev token is minted only for a request from a loopback address
// that names a loopback host.
func TestFromLoopback(t *testing.T) {
	for _, tc := range []struct {
		remote, host string
		want         bool
	}{
		{"127.0.0.1:5000", "127.0.0.1:8080", true},
		{"127.0.0.1:5000", "localhost:8080", true},
		{"[::1]:5000", "[::1]:8080", true},
		{"[::ffff:127.0.0.1]:5000", "localhost", true},
		{"192.0.2.7:5000", "localhost:8080", false},    // another machine
		{"127.0.0.1:5000", "evil.example:8080", false}, // DNS rebinding
		{"127.0.0.1:5000", "127.0.0.1.evil.example", false},
		{"garbage", "localhost", false},
	} {
		r := httptest.NewRequest("POST", "/dev/token", nil)
		r.RemoteAddr, r.Host = tc.remote, tc.host
		if got := fromLoopback(r); got != tc.want {
			t.Errorf("fromLoopback(%s, Host %s) = %v, want %v", tc.remote, tc.host, got, tc.want)
		}
	}
}
