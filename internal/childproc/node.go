package childproc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// NPMDir is where `make npm` installs the npm packages that node scripts run, under
// the module root.
const NPMDir = "data/npm"

// StartNode runs script, a node program its caller embeds, from NPMDir, where it finds
// the npm package pkg, with NPM_DIR (that directory) and env added to this process's
// environment. The program prints "ready" once it serves; StartNode returns then, or fails when the
// program exits or ctx ends first. install says how to install pkg.
func StartNode(ctx context.Context, name string, script []byte, pkg, install string, env ...string) (*Process, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, NPMDir)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
		return nil, fmt.Errorf("%s is not installed in %s; %s", pkg, dir, install)
	}
	path, err := writeScript(dir, "lexflow-"+name+".mjs", script)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", path)
	cmd.Env = append(append(os.Environ(), "NPM_DIR="+dir), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &Tail{}
	cmd.Stderr = tail
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s with node: %w", name, err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}
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
		p.Kill()
		return nil, fmt.Errorf("%s not ready: %w", name, ctx.Err())
	}
}

// writeScript writes script into dir as name, by a rename, so that a node process that
// another test package starts meanwhile reads the whole file, never a half-written one.
func writeScript(dir, name string, script []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(script)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	path := filepath.Join(dir, name)
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}
