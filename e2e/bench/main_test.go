// Package bench_test holds BenchmarkTurn, chat turns through Temporal next to the same
// loop in-process (make bench).
package bench_test

import (
	"os"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// s is the package's stack, started once for its tests.
var s *stack.Stack

func TestMain(m *testing.M) { os.Exit(stack.Main(m, &s)) }
