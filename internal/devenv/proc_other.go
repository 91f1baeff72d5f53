//go:build !linux

package devenv

import (
	"errors"
	"syscall"
	"time"
)

// childProcAttr has no parent-death signal outside Linux; Stop must be called.
func childProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

// cpuTime is read from /proc, which only Linux has.
func cpuTime(int) (time.Duration, error) {
	return 0, errors.New("a process's CPU time is read from /proc, which this system has not")
}
