package devenv

import (
	"io"
	"os/exec"
	"syscall"
	"time"
)

// process is a child process and the channel closed when it has exited.
type process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// startProcess starts name with args as a child that dies with this process, its
// output going to output (nil: discarded) and to the returned tail, kept for error
// messages.
func startProcess(name string, args []string, output io.Writer) (*process, *tailBuffer, error) {
	cmd := exec.Command(name, args...)
	tail := &tailBuffer{}
	var out io.Writer = tail
	if output != nil {
		out = io.MultiWriter(output, tail)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, tail, nil
}

// stop asks the process to end and kills it if it has not within 15 seconds.
func (p *process) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// kill kills the process and waits for it to exit.
func (p *process) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}
