package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// probeTimeout bounds a probe: a health check that hangs is a failed one.
const probeTimeout = 5 * time.Second

// runProbe GETs a URL and fails unless it answers 2xx within probeTimeout: the
// container images' health check, which have no shell or curl.
func runProbe(ctx context.Context, args []string, out io.Writer) error {
	if len(args) != 1 {
		return errors.New("usage: lexflow probe <url>, e.g. lexflow probe http://127.0.0.1:8080/readyz")
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args[0], nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	fmt.Fprintf(out, "%s %s\n", resp.Status, body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", args[0], resp.Status)
	}
	return nil
}
