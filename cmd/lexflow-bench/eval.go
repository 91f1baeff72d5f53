package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/eval"
)

// runEval runs `lexflow-bench eval`: the citation check and kb_search's ranking over the
// evaluation set shipped in eval/, printed as the tables of docs/tools.md. It fails when the
// check misses a target (see eval.Targets); --misses lists every item it got wrong.
func runEval(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	misses := fs.Bool("misses", false, "list the items the check or the search got wrong")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, _, err := corpus.Ensure(ctx, cfg.CorpusDB); err != nil {
		return err
	}
	s, err := corpus.Open(cfg.CorpusDB)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := eval.Run(ctx, s)
	if err != nil {
		return err
	}
	cits, ranks := res.Citations, res.Retrieval
	fmt.Fprintf(out, "%d citations, %d questions\n\n", len(cits), len(ranks))
	eval.Write(out, eval.CitationRows(cits), eval.RetrievalRows(ranks))
	if *misses {
		fmt.Fprintln(out)
		for _, r := range cits {
			if !r.Right() {
				fmt.Fprintf(out, "%s (%s) %q: got %q %s %s, want %s %s\n", r.Item.ID, r.Item.Class, r.Item.Citation,
					r.Got.Text, r.Status(), r.Got.DocID, r.Item.Status, r.Item.DocID)
			}
		}
		for _, r := range ranks {
			if r.Rank == 0 || r.Rank > 5 {
				fmt.Fprintf(out, "%s (%s) rank %d: %s\n", r.Item.ID, r.Item.Language, r.Rank, r.Item.Question)
			}
		}
	}
	if failed := eval.Targets(cits); len(failed) > 0 {
		return errors.New("targets missed:\n" + strings.Join(failed, "\n"))
	}
	return nil
}
