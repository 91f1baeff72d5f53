package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestBenchPDF runs `lexflow-bench pdf` once on a two-page draft with no WeasyPrint on
// the PATH: it prints the Go renderer's figures and says how to install WeasyPrint.
func TestBenchPDF(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var out bytes.Buffer
	if err := benchPDF(context.Background(), []string{"--pages", "2", "--runs", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d lines, want 4:\n%s", len(lines), out.String())
	}
	if !strings.HasPrefix(lines[1], "renderer") {
		t.Errorf("no table header:\n%s", out.String())
	}
	if row := regexp.MustCompile(`^go fpdf\s+1\s+\S+s\s+\S+s\s+2\s+\d+\.\d KiB$`); !row.MatchString(lines[2]) {
		t.Errorf("Go renderer line %q does not match %v", lines[2], row)
	}
	if !strings.Contains(lines[3], "apt-get install weasyprint") {
		t.Errorf("no hint to install weasyprint:\n%s", out.String())
	}
}

func TestBenchPDFRejectsZeroRuns(t *testing.T) {
	if err := benchPDF(context.Background(), []string{"--runs", "0"}, &bytes.Buffer{}); err == nil {
		t.Fatal("bench pdf --runs 0 succeeded")
	}
}
