package testenv

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestCPUTime reads this test's own process, whose CPU time getrusage knows too.
func TestCPUTime(t *testing.T) {
	rusage := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for x := 0; rusage() < 200*time.Millisecond; x++ {
		_ = x * x // spend CPU time until there is some to read
	}
	before := rusage()
	got, err := CPUTime(os.Getpid())
	after := rusage()
	// /proc counts in 10 ms ticks, and may lag getrusage by one.
	if err != nil || got < before-20*time.Millisecond || got > after+20*time.Millisecond {
		t.Errorf("CPUTime = %v, %v; getrusage says between %v and %v", got, err, before, after)
	}
}
