package devenv

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// NPMDir is where `make test` installs the npm packages the tests run, under the module
// root.
const NPMDir = "data/npm"

// startNode runs script, one of this package's embedded node programs, from NPMDir,
// where it finds the npm package pkg, with NPM_DIR (that directory) and env added to
// this process's environment.
// The program prints "ready" once it serves; startNode returns then, or fails when the
// program exits or ctx ends first. install says how to install pkg.
func startNode(ctx context.Context, name string, script []byte, pkg, install string, env ...string) (*process, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, NPMDir)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
		return nil, fmt.Errorf("%s is not installed in %s; %s", pkg, dir, install)
	}
	path := filepath.Join(dir, "lexflow-"+name+".mjs")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("node", path)
	cmd.Env = append(append(os.Environ(), "NPM_DIR="+dir), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &tailBuffer{}
	cmd.Stderr = tail
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s with node: %w", name, err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		lines := bufio.NewScanner(out)
		for said := false; lines.Scan(); {
			if lines.Text() == "ready" && !said {
				close(ready)
				said = true
			}
		}
		_ = cmd.Wait()
		close(p.done)
	}()
	select {
	case <-ready:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("%s exited; its last output:\n%s", name, tail.String())
	case <-ctx.Done():
		p.kill()
		return nil, fmt.Errorf("%s not ready: %w", name, ctx.Err())
	}
}
