package childproc

import "syscall"

// childProcAttr makes a child process die with its parent.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
