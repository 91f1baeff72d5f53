// Command arrows fails when a package of Lexflow imports what its architecture
// forbids. The rules below are the whole table, each with its reason; `make lint`
// runs it from the module's root:
//
//	go run ./internal/arrows
//
// A direct rule looks at a package's own imports (go list's .Imports); a deps rule at
// everything it pulls in, as `go list -deps` lists it. Tests are left out: a test may
// wire what it checks against (the keyring's tests run on MongoDB).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// A rule forbids the packages matching from to import those matching to, unless they
// match one of except. Patterns are import paths within the module: "store" is that
// package, "store/..." it and those below it, "..." every package of the module.
type rule struct {
	from, to string
	deps     bool // to is forbidden anywhere in from's dependencies, not only among its own imports
	except   []string
	why      string
}

var rules = []rule{
	{from: "workflows/...", to: "store/...",
		why: "workflow code must replay: it reaches the store only through activities, whose results the history keeps"},
	{from: "internal/...", to: "store/...",
		why: "internal packages are libraries the store and its adapters build on (store/sealed on internal/keys); one that needed the store declares the interface it uses (keys.Store), and a decorator of the store lives under store/ (store/notify)"},
	{from: "config/...", to: "internal/...",
		why: "config reads settings into plain values, so every package may read them; whoever builds an object from a setting parses it (payments.ParsePrices, keys.NewLocal)"},
	{from: "llm/...", to: "config/...",
		why: "a model client takes its endpoint (llm.Endpoint); which endpoint serves which role is the worker's wiring (worker.Models)"},
	{from: "api/...", to: "activities/...", deps: true,
		why: "the API starts and asks workflows; the worker's code, and what it reaches (models, corpus, search), stays out of the API process"},
	{from: "tools/...", to: "...", deps: true, except: []string{"tools/...", "schemas/..."},
		why: "the tool registry is data that the API, the worker and the workflows share; it depends on the contract in schemas alone, so that none of them drags in another's code"},
}

// match reports whether the module-relative import path pkg matches pattern.
func match(pattern, pkg string) bool {
	if pattern == "..." {
		return true
	}
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == dir || strings.HasPrefix(pkg, dir+"/")
	}
	return pkg == pattern
}

// forbids reports whether r forbids importing pkg.
func (r rule) forbids(pkg string) bool {
	return match(r.to, pkg) && !slices.ContainsFunc(r.except, func(p string) bool { return match(p, pkg) })
}

// check returns one line per forbidden edge in graph, which maps each package of the
// module to the packages of the module it imports (module-relative paths).
func check(graph map[string][]string, rules []rule) []string {
	var out []string
	pkgs := slices.Sorted(func(yield func(string) bool) {
		for p := range graph {
			if !yield(p) {
				return
			}
		}
	})
	for _, r := range rules {
		for _, from := range pkgs {
			if !match(r.from, from) {
				continue
			}
			if !r.deps {
				for _, to := range graph[from] {
					if r.forbids(to) {
						out = append(out, fmt.Sprintf("%s imports %s\n\t%s ↛ %s: %s", from, to, r.from, r.to, r.why))
					}
				}
				continue
			}
			for to, path := range reach(graph, from) {
				if r.forbids(to) {
					out = append(out, fmt.Sprintf("%s depends on %s (%s)\n\t%s ↛ %s, even through others: %s",
						from, to, strings.Join(path, " → "), r.from, r.to, r.why))
				}
			}
		}
	}
	return out
}

// reach returns every package from depends on, with the shortest chain of imports
// that gets there, in a stable order.
func reach(graph map[string][]string, from string) func(yield func(string, []string) bool) {
	return func(yield func(string, []string) bool) {
		via := map[string][]string{from: {from}}
		queue := []string{from}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range slices.Sorted(slices.Values(graph[p])) {
				if _, seen := via[q]; seen {
					continue
				}
				via[q] = append(slices.Clip(via[p]), q)
				queue = append(queue, q)
				if !yield(q, via[q]) {
					return
				}
			}
		}
	}
}

// imports lists the module's packages and what each imports of the module.
func imports() (map[string][]string, error) {
	mod, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m: %w", err)
	}
	prefix := strings.TrimSpace(string(mod)) + "/"
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Stderr = os.Stderr
	list, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./...: %w", err)
	}
	graph := map[string][]string{}
	for line := range strings.Lines(string(list)) {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], prefix)
		if !ok {
			continue // the module's root package, if it had one
		}
		graph[pkg] = []string{}
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, prefix); ok {
				graph[pkg] = append(graph[pkg], rel)
			}
		}
	}
	return graph, nil
}

func main() {
	graph, err := imports()
	if err != nil {
		fmt.Fprintln(os.Stderr, "arrows:", err)
		os.Exit(2)
	}
	bad := check(graph, rules)
	if len(bad) == 0 {
		fmt.Printf("arrows: %d packages, none against the %d rules of internal/arrows\n", len(graph), len(rules))
		return
	}
	for _, line := range bad {
		fmt.Fprintln(os.Stderr, "arrows:", line)
	}
	fmt.Fprintf(os.Stderr, "arrows: %d forbidden imports; the rules are in internal/arrows/main.go\n", len(bad))
	os.Exit(1)
}
