package api_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/api"
)

// npmBin is where `make npm` installs the generator and the compiler.
var npmBin = filepath.Join("..", "..", "data", "npm", "node_modules")

// TestGeneratedTypeScriptClientCompiles generates TypeScript types from the API's
// OpenAPI document with openapi-typescript, as docs/api.md shows, and compiles a client
// of POST /v1/citations/check against them with tsc: it compiles, reading the fields
// the API always writes without checking for their absence, and a request of the wrong
// shape does not.
func TestGeneratedTypeScriptClientCompiles(t *testing.T) {
	t.Parallel()
	doc, err := api.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "openapi.json")
	if err := os.WriteFile(spec, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	node(t, filepath.Join(npmBin, "openapi-typescript", "bin", "cli.js"), spec, "-o", filepath.Join(dir, "lexflow.d.ts"))
	client := `import type { paths } from "./lexflow";

type Check = paths["/v1/citations/check"]["post"];
export const request: Check["requestBody"]["content"]["application/json"] = { text: TEXT, language: "it" };
type Report = Check["responses"]["200"]["content"]["application/json"];
export function statuses(r: Report): string[] {
  return r.citations.map((c) => c.status);
}
`
	for _, tc := range []struct {
		text     string
		compiles bool
	}{{`"art. 2043 c.c."`, true}, {`5`, false}} {
		src := filepath.Join(dir, "client.ts")
		if err := os.WriteFile(src, []byte(strings.Replace(client, "TEXT", tc.text, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("node", filepath.Join(npmBin, "typescript", "bin", "tsc"), "--noEmit", "--strict", src).CombinedOutput()
		if (err == nil) != tc.compiles {
			t.Errorf("text %s: compiles = %v, want %v:\n%s", tc.text, err == nil, tc.compiles, out)
		}
	}
}

// node runs a node program, failing the test with its output.
func node(t *testing.T, script string, args ...string) {
	t.Helper()
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("%s is missing: run `make npm`", script)
	}
	if out, err := exec.Command("node", append([]string{script}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("node %s: %v\n%s", filepath.Base(script), err, out)
	}
}
