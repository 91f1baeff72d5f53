package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/lexflow/lexflow/store/backend"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/wiring"
)

// runKeys runs `lexflow keys rotate`: every data key that a retired master key wrapped
// (LEXFLOW_MASTER_KEY_PREVIOUS) is rewrapped under LEXFLOW_MASTER_KEY. Histories,
// documents and blobs are not touched: the data keys stay the same.
func runKeys(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	if len(args) != 1 || args[0] != "rotate" {
		return errors.New("usage: lexflow keys rotate")
	}
	if err := wiring.RequireSecrets(cfg, false); err != nil {
		return err
	}
	st, err := backend.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	kr, err := wiring.Keyring(cfg, st)
	if err != nil {
		return err
	}
	n, err := kr.Rotate(ctx)
	fmt.Fprintf(out, "rewrapped %d data keys under master key %s\n", n, kr.Wrapper.Current())
	return err
}
