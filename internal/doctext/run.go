package doctext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// commandMemory is the address space each command run starts (pdfinfo, pdftotext,
// pdftoppm, tesseract) may take (RLIMIT_AS, on Linux, through util-linux's prlimit):
// tesseract reads a 40-megapixel colour photo, the largest image Read takes, in 0.8 GB.
const commandMemory = 2 << 30

// run runs a command for at most timeout and commandMemory bytes of address space, with
// stdin if not nil, and returns what it wrote to its standard output, at most maxOut
// bytes. Its errors say whose fault a failure is: the command's timeout or failure
// (an allocation past commandMemory among them, and an abort or a crash) is the
// document's (ErrUnreadable), more output than maxOut too (ErrTooLarge); the caller's
// own cancellation, a command that cannot start (not installed) and one killed by a
// signal from outside (the kernel's OOM killer) are not, and come back unclassified, to
// be retried.
func run(ctx context.Context, timeout time.Duration, maxOut int, stdin []byte, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err) // not installed
	}
	prog, argv, err := limited(commandMemory, path, args)
	if err != nil {
		return nil, fmt.Errorf("%s: limit its memory: %w", name, err)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, prog, argv...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	// One thread each: the worker runs several documents and tools at once.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.WaitDelay = time.Second
	out := &capped{max: maxOut}
	var stderr capped
	stderr.max = 64 << 10
	cmd.Stdout, cmd.Stderr = out, &stderr
	err = cmd.Run()
	switch {
	case err == nil:
		return out.buf.Bytes(), nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s: %w", name, ctx.Err())
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("%w: %s took longer than %s", ErrUnreadable, name, timeout)
	case out.over:
		return nil, fmt.Errorf("%w: %s wrote more than %d bytes", ErrTooLarge, name, maxOut)
	case cmd.ProcessState == nil:
		return nil, fmt.Errorf("%s: %w", name, err) // it did not start
	case killedBySignal(cmd.ProcessState):
		// Killed from outside (out of memory, the machine stopping): the document may
		// read fine on another try.
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	msg := strings.TrimSpace(stderr.buf.String())
	if len(msg) > 300 {
		msg = msg[len(msg)-300:]
	}
	return nil, fmt.Errorf("%w: %s: %v: %s", ErrUnreadable, name, err, msg)
}

// killedBySignal reports whether a command was ended by a signal from outside, one it
// did not raise itself nor get from run's own timeout (which is classified before).
// SIGABRT, SIGSEGV and SIGBUS are the command's own: a C or C++ program whose
// allocation fails past commandMemory aborts, and the document is at fault.
func killedBySignal(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return false
	}
	switch ws.Signal() {
	case syscall.SIGABRT, syscall.SIGSEGV, syscall.SIGBUS:
		return false
	}
	return true
}

// capped keeps at most max bytes written to it, and fails the write past them.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

var errCapped = errors.New("output over its limit")

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		return 0, errCapped
	}
	return c.buf.Write(p)
}
