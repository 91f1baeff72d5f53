package devenv

import "syscall"

// childProcAttr makes a child process die with its parent, so that a killed `lexflow dev`
// or test binary leaves no dev server behind.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
