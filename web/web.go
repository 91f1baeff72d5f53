// Package web holds Lexflow's web app: the HTML, CSS and JavaScript that `lexflow api`
// serves at /, embedded in the binary. The app talks only to the public /v1 API (and,
// under `lexflow dev`, to POST /dev/token), so anything it does a client program can do.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files returns the app's files: index.html at the root, the rest under it.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
