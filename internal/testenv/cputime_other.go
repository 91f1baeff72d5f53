//go:build !linux

package testenv

import (
	"errors"
	"time"
)

// CPUTime is read from /proc, which only Linux has.
func CPUTime(int) (time.Duration, error) {
	return 0, errors.New("a process's CPU time is read from /proc, which this system has not")
}
