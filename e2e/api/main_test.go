// Package api_test tests Lexflow's REST API end to end: cases, turns, tools, parties,
// memory, authentication and errors, against the servers that package stack starts.
package api_test

import (
	"os"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// s is the package's stack, started once for its tests.
var s *stack.Stack

func TestMain(m *testing.M) { os.Exit(stack.Main(m, &s)) }
