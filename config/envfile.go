package config

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// ReadEnvFile reads a file of KEY=VALUE lines, such as the bench profile
// deploy/bench.env, skipping blank lines and comments.
func ReadEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s:%d: not KEY=VALUE", path, n)
		}
		env[k] = v
	}
	return env, sc.Err()
}
