// Package browser runs Lexflow's web app in headless Chromium (Debian's, driven with
// chromedp) against the real servers of an e2e stack: the client's story runs in `make
// test`; the support and reconnect stories, with LEXFLOW_BROWSER_STORIES=all, in `make
// browser-test`.
package browser

import (
	"os"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

var s *stack.Stack

func TestMain(m *testing.M) { os.Exit(stack.Main(m, &s)) }
