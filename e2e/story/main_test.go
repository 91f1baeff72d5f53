// Package story_test drives whole cases end to end, with worker processes that the tests
// kill and restart: the full case story with its escalation ladder, a worker killed
// mid-turn, a cancelled turn, and a deadline's reminders across a worker kill and a
// Temporal restart.
package story_test

import (
	"os"
	"testing"

	"github.com/lexflow/lexflow/e2e/stack"
)

// s is the package's stack, started once for its tests.
var s *stack.Stack

func TestMain(m *testing.M) { os.Exit(stack.Main(m, &s)) }
