package portal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"golang.org/x/time/rate"
)

// Defaults of a Client's bounds.
const (
	// DefaultTimeout bounds one call, the answer read whole.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxBytes caps an answer: a file's whole history is some tens of KiB, and a
	// search the service answers with up to 1000 files stays under it.
	DefaultMaxBytes = 8 << 20
	// DefaultInterval is the least time between two calls from one Client: the portal
	// is a public service, asked politely.
	DefaultInterval = time.Second
)

// ErrTooLarge is an answer past the Client's MaxBytes.
var ErrTooLarge = errors.New("portal: answer too large")

// StatusError is an HTTP status the service answered without a SOAP fault.
type StatusError struct{ StatusCode int }

func (e *StatusError) Error() string {
	return fmt.Sprintf("portal: the service answered HTTP %d", e.StatusCode)
}

// Options bound a Client; zero values take the defaults.
type Options struct {
	Timeout  time.Duration
	MaxBytes int64
	// Interval is the least time between two calls (at most one a second by default).
	Interval time.Duration
}

// Client calls the service at one URL (http://portalquery.just.ro/query.asmx) over
// SOAP 1.1. Each call is sent once: the caller's retry policy (a Temporal activity's)
// decides about retries. Calls from one Client, concurrent or not, are spaced by its
// Interval; a call waiting for its turn gives up when its context ends.
type Client struct {
	url      string
	http     *http.Client
	maxBytes int64
	limiter  *rate.Limiter
}

// New returns a client of the service at url.
func New(url string, o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	return &Client{url: url, http: &http.Client{Timeout: o.Timeout}, maxBytes: o.MaxBytes, limiter: rate.NewLimiter(rate.Every(o.Interval), 1)}
}

// CautareDosare searches files.
func (c *Client) CautareDosare(ctx context.Context, q CautareDosare) ([]Dosar, error) {
	r, err := call[CautareDosareResponse](ctx, c, OpCautareDosare, q)
	if err != nil {
		return nil, err
	}
	return r.Result, nil
}

// File returns the file of a number at a court, or ok false when the service knows
// none. Only a file of that exact number and court is returned, whatever else the
// search finds.
func (c *Client) File(ctx context.Context, number, court string) (Dosar, bool, error) {
	files, err := c.CautareDosare(ctx, CautareDosare{NumarDosar: number, Institutie: Nillable(court)})
	if err != nil {
		return Dosar{}, false, err
	}
	for _, f := range files {
		if f.Numar == number && f.Institutie == court {
			return f, true, nil
		}
	}
	return Dosar{}, false, nil
}

// call sends one request and reads its answer: a *Fault, a *StatusError, ErrTooLarge,
// or a transport error.
func call[T any](ctx context.Context, c *Client, op string, body any) (*T, error) {
	if err := c.limiter.Wait(ctx); err != nil {
		return nil, fmt.Errorf("portal: wait for a turn: %w", err)
	}
	data, err := Envelope(SOAP11Namespace, body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("portal: %w", err)
	}
	req.Header.Set("Content-Type", SOAP11MediaType)
	req.Header.Set("SOAPAction", `"`+SOAPAction(op)+`"`)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("portal: %s: %w", op, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("portal: read %s's answer: %w", op, err)
	}
	if int64(len(answer)) > c.maxBytes {
		return nil, fmt.Errorf("%w: %s answered more than %d bytes", ErrTooLarge, op, c.maxBytes)
	}
	out, err := DecodeEnvelope[T](answer)
	var fault *Fault
	switch {
	case errors.As(err, &fault):
		return nil, fault // ASP.NET answers a fault with HTTP 500
	case resp.StatusCode != http.StatusOK:
		return nil, &StatusError{StatusCode: resp.StatusCode}
	case err != nil:
		return nil, err
	}
	return out, nil
}
