//go:build !linux

package childproc

import "syscall"

// childProcAttr has no parent-death signal outside Linux; Stop must be called.
func childProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
