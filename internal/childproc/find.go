package childproc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// FindBinary resolves a program: path itself when it exists, else path relative to the
// module root (so tests find ./bin/<name> from their package directories), else name on
// PATH.
func FindBinary(path, name string) (string, error) {
	if _, err := os.Stat(path); err == nil {
		return filepath.Abs(path)
	}
	if !filepath.IsAbs(path) {
		if root, err := ModuleRoot(); err == nil {
			p := filepath.Join(root, path)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s not found at %s or on PATH", name, path)
}

// ModuleRoot is the nearest directory above the working directory holding go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
