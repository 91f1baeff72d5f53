// Package childproc runs the programs that `lexflow dev` (package devenv) and the test
// harness (package testenv) start beside them, as child processes that die with this
// one: it starts and stops them, keeps the tail of their output for error messages,
// finds their binaries under ./bin or on PATH, runs node scripts from the npm packages
// in NPMDir, and picks free loopback ports for them.
package childproc

import (
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Process is a child process and the channel closed when it has exited.
type Process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// Command is exec.Command for a child that dies with this process (on Linux), so that
// a killed `lexflow dev` or test binary leaves no server behind. The caller may add to
// its SysProcAttr (a Credential) before StartCmd.
func Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = childProcAttr()
	return cmd
}

// Start starts name with args as a child that dies with this process, its output going
// to output (nil: discarded) and to the returned tail, kept for error messages.
func Start(name string, args []string, output io.Writer) (*Process, *Tail, error) {
	return StartCmd(Command(name, args...), output)
}

// StartCmd starts cmd, made by Command, its output going to output (nil: discarded) and
// to the returned tail.
func StartCmd(cmd *exec.Cmd, output io.Writer) (*Process, *Tail, error) {
	tail := &Tail{}
	var out io.Writer = tail
	if output != nil {
		out = io.MultiWriter(output, tail)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, tail, nil
}

// Done is closed once the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pid is the process's ID.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stop asks the process to end and kills it if it has not within 15 seconds.
func (p *Process) Stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// Kill kills the process and waits for it to exit.
func (p *Process) Kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// Tail keeps the last few kilobytes written to it.
type Tail struct {
	mu  sync.Mutex
	buf []byte
}

// tailBytes is how much a Tail keeps.
const tailBytes = 4096

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = t.buf[len(t.buf)-tailBytes:]
	}
	return len(p), nil
}

func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
