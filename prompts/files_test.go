package prompts_test

import (
	"io/fs"
	"testing"
	"testing/fstest"

	promptfiles "github.com/lexflow/lexflow/prompts"
)

// promptFiles is a copy of the embedded prompt files that a test may break.
func promptFiles(t *testing.T) fstest.MapFS {
	t.Helper()
	entries, err := promptfiles.Files.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, e := range entries {
		raw, err := promptfiles.Files.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = &fstest.MapFile{Data: raw}
	}
	return out
}

// readDoc is a prompt file's text; empty when there is none.
func readDoc(files fs.FS, name string) string {
	raw, err := fs.ReadFile(files, name)
	if err != nil {
		return ""
	}
	return string(raw)
}
