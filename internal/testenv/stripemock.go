package testenv

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/lexflow/lexflow/internal/childproc"
)

// StripeMockVersion is Stripe's API mock that `make test` installs into ./bin.
const StripeMockVersion = "v0.203.0"

// StripeMock is a running stripe-mock: Stripe's own mock of its API, which answers
// every route in the shape of Stripe's OpenAPI specification.
type StripeMock struct {
	// URL is its HTTP base URL, the stand-in for https://api.stripe.com.
	URL string
	p   *childproc.Process
}

// StartStripeMock starts stripe-mock (./bin/stripe-mock, else on PATH) on a free
// loopback port and waits until it accepts connections or ctx ends.
func StartStripeMock(ctx context.Context) (*StripeMock, error) {
	bin, err := childproc.FindBinary("bin/stripe-mock", "stripe-mock")
	if err != nil {
		return nil, fmt.Errorf("%w; install it with `make bin/stripe-mock` (go install github.com/stripe/stripe-mock@%s)", err, StripeMockVersion)
	}
	port, err := childproc.FreePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p, tail, err := childproc.Start(bin, []string{"-http-addr", addr}, nil)
	if err != nil {
		return nil, fmt.Errorf("start stripe-mock: %w", err)
	}
	m := &StripeMock{URL: "http://" + addr, p: p}
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return m, nil
		}
		select {
		case <-p.Done():
			return nil, fmt.Errorf("stripe-mock exited; its last output:\n%s", tail.String())
		case <-ctx.Done():
			m.Stop()
			return nil, fmt.Errorf("stripe-mock not ready: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop kills stripe-mock and waits for it to exit.
func (m *StripeMock) Stop() { m.p.Kill() }
