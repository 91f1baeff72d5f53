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

// runEval runs `lexflow-bench eval`: the citation check, kb_search's ranking, and
// legislation_search's and kb_search's rankings with each layer of the language
// analysis on and off (eval.Layers), over the evaluation set shipped in eval/, printed
// as the tables of docs/tools.md. It fails when the check or the search misses a target
// (see eval.Targets and eval.LayerTargets); --misses lists every item it got wrong.
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
	laws, err := eval.LegislationItems()
	if err != nil {
		return err
	}
	questions, err := eval.RetrievalItems()
	if err != nil {
		return err
	}
	layers, err := eval.RunLayers(ctx, s, laws, questions)
	if err != nil {
		return err
	}
	var rows []eval.RankRow
	for _, l := range layers {
		rows = append(rows, eval.RankRows(l)...)
	}
	fmt.Fprintf(out, "\n%d legislation questions, each search with its layers\n\n", len(laws))
	eval.WriteLayers(out, rows)
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
		for _, r := range layers[len(layers)-1].Legislation {
			if r.Rank == 0 || r.Rank > 5 {
				fmt.Fprintf(out, "%s (%s, %s) rank %d\n", r.ID, r.Set, r.Language, r.Rank)
			}
		}
	}
	if failed := append(eval.Targets(cits), eval.LayerTargets(rows)...); len(failed) > 0 {
		return errors.New("targets missed:\n" + strings.Join(failed, "\n"))
	}
	return nil
}
