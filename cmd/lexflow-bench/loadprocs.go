package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// proc is a `lexflow api` or `lexflow worker` process of the load bench, run from the
// lexflow binary exe. The bench kills it and starts it again; an exit it did not cause
// is noted, and fails the run.
type proc struct {
	exe  string
	name string // "api" or "worker"
	env  []string
	log  *os.File

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
	killing bool
	// crashed says how the process exited when nobody killed it.
	crashed []string
}

// startProc starts `lexflow <name>`, exe being the lexflow binary, with the environment
// env, its output appended to log.
func startProc(exe, name string, env []string, log *os.File) (*proc, error) {
	p := &proc{exe: exe, name: name, env: env, log: log}
	return p, p.start()
}

// lexflowBinary is the lexflow binary whose `api` and `worker` the benches run as
// processes: path, when given, else one that go build makes from this module into
// dir (the working directory must be in the module).
func lexflowBinary(ctx context.Context, path, dir string) (string, error) {
	if path != "" {
		return filepath.Abs(path)
	}
	exe := filepath.Join(dir, "lexflow")
	build := exec.CommandContext(ctx, "go", "build", "-o", exe, "github.com/lexflow/lexflow/cmd/lexflow")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build lexflow (--lexflow names a binary instead): %w\n%s", err, out)
	}
	return exe, nil
}

func (p *proc) start() error {
	cmd := exec.Command(p.exe, p.name)
	cmd.Env, cmd.Stdout, cmd.Stderr = p.env, p.log, p.log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start lexflow %s: %w", p.name, err)
	}
	exited := make(chan struct{})
	p.mu.Lock()
	p.cmd, p.exited, p.killing = cmd, exited, false
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		if !p.killing {
			p.crashed = append(p.crashed, fmt.Sprintf("lexflow %s exited by itself: %v; the end of its log (%s):\n%s", p.name, err, p.log.Name(), logTail(p.log.Name())))
		}
		p.mu.Unlock()
		close(exited)
	}()
	return nil
}

// kill sends SIGKILL and waits until the process is gone.
func (p *proc) kill() {
	p.mu.Lock()
	p.killing = true
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	_ = cmd.Process.Kill()
	<-exited
}

// stop kills the process for good and closes its log.
func (p *proc) stop() {
	p.kill()
	p.log.Close()
}

// restart kills the process and starts it again.
func (p *proc) restart() error {
	p.kill()
	return p.start()
}

// crashes are the process's exits that nobody caused; a nil proc has none.
func (p *proc) crashes() []string {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.crashed)
}

// logTailBytes is how much of a crashed process's log its crash quotes.
const logTailBytes = 2048

// logTail is the end of the file at path, or why it cannot be read.
func logTail(path string) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return string(raw[max(len(raw)-logTailBytes, 0):])
}

// chaos is what the load bench's chaos did.
type chaos struct {
	kills, apiRestarts int
}

// runChaos kills the worker with SIGKILL and starts it again, kills times, at random
// moments between half and one and a half times every, and restarts the API
// apiRestarts times, spread evenly among the kills, until done or ctx ends. It stops
// early, with what it did, when a restart fails.
func runChaos(ctx context.Context, worker, api *proc, kills, apiRestarts int, every time.Duration) (chaos, error) {
	var did chaos
	for did.kills < kills {
		pause := time.Duration(float64(every) * (0.5 + rand.Float64()))
		select {
		case <-ctx.Done():
			return did, nil
		case <-time.After(pause):
		}
		if err := worker.restart(); err != nil {
			return did, err
		}
		did.kills++
		// The API restarts after kills k·kills/(apiRestarts+1), for k = 1..apiRestarts.
		if did.apiRestarts < apiRestarts && did.kills*(apiRestarts+1) >= (did.apiRestarts+1)*kills {
			if err := api.restart(); err != nil {
				return did, err
			}
			did.apiRestarts++
		}
	}
	return did, nil
}
