package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/lexflow/lexflow/internal/draft"
)

// weasyprintRuns caps the WeasyPrint runs: each takes over a second.
const weasyprintRuns = 5

// benchPDF runs `lexflow-bench pdf [--pages 10] [--runs 20]` (args are the flags after
// "pdf"): it times draft.Render on a synthetic draft of about that many pages and, if
// WeasyPrint is installed, WeasyPrint on the same draft as HTML, and prints a table of
// median and p90 times, page counts and sizes.
func benchPDF(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("pdf", flag.ContinueOnError)
	pages := fs.Int("pages", 10, "pages in the synthetic draft")
	runs := fs.Int("runs", 20, "renderings timed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *pages < 1 || *runs < 1 {
		return errors.New("usage: lexflow-bench pdf [--pages N] [--runs N] (both at least 1)")
	}
	sample := draft.Sample(*pages)
	fmt.Fprintf(out, "draft: Sample(%d), %d bytes of Markdown\n", *pages, len(sample))
	fmt.Fprintf(out, "%-12s %5s %10s %10s %6s %10s\n", "renderer", "runs", "median", "p90", "pages", "size")

	var pdf []byte
	times, err := timeRuns(ctx, *runs, func() (err error) {
		pdf, err = draft.Render(sample, draft.Options{Title: "Cerere de chemare în judecată"})
		return err
	})
	if err != nil {
		return err
	}
	printBenchRow(out, "go fpdf", times, pdf)

	weasyprint, err := exec.LookPath("weasyprint")
	if err != nil {
		fmt.Fprintln(out, "weasyprint is not installed; apt-get install weasyprint to compare with it")
		return nil
	}
	dir, err := os.MkdirTemp("", "lexflow-bench-pdf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	in, outPDF := filepath.Join(dir, "in.html"), filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(in, []byte(draft.HTML(sample)), 0o600); err != nil {
		return err
	}
	times, err = timeRuns(ctx, min(*runs, weasyprintRuns), func() error {
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, weasyprint, in, outPDF)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("weasyprint: %w: %s", err, stderr.Bytes())
		}
		return nil
	})
	if err != nil {
		return err
	}
	if pdf, err = os.ReadFile(outPDF); err != nil {
		return err
	}
	printBenchRow(out, "weasyprint", times, pdf)
	return nil
}

// timeRuns calls f n times and returns how long each call took, sorted.
func timeRuns(ctx context.Context, n int, f func() error) ([]time.Duration, error) {
	var times []time.Duration
	for range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times, nil
}

// pageObject matches a page object in a PDF (and not the /Pages tree).
var pageObject = regexp.MustCompile(`/Type\s*/Page\b`)

// printBenchRow prints one renderer's line: sorted run times, and the last PDF's page
// count and size.
func printBenchRow(out io.Writer, name string, sorted []time.Duration, pdf []byte) {
	median := sorted[len(sorted)/2]
	p90 := sorted[(len(sorted)*9+9)/10-1]
	fmt.Fprintf(out, "%-12s %5d %10s %10s %6d %7.1f KiB\n", name, len(sorted), roundDuration(median),
		roundDuration(p90), len(pageObject.FindAll(pdf, -1)), float64(len(pdf))/1024)
}

// roundDuration keeps three or four significant digits.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(100 * time.Microsecond)
}
