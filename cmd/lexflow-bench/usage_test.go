package main

import (
	"testing"

	"github.com/lexflow/lexflow/internal/usagecheck"
)

// TestUsageListsEveryCommand: the commands main dispatches on are those the usage text
// lists and those the package documentation lists, no more and no fewer.
func TestUsageListsEveryCommand(t *testing.T) { usagecheck.Check(t, "main.go", usage) }
