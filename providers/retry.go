package providers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// maxBackoff caps the wait before one retry.
const maxBackoff = 20 * time.Second

// Retry retries an API call that failed with a throttling or unavailability
// error, with exponential backoff and jitter: attempt n (from 1) waits a random
// time in [Base·2^(n-1)/2, Base·2^(n-1)], at most 20 s. Adapters whose SDK lacks
// such retries (or retries without backoff, or not 5xx) turn the SDK's off and
// use this, so that retries never double up.
type Retry struct {
	Attempts int
	Base     time.Duration
	// Retryable says whether another attempt may succeed; nil means an error
	// that is (wraps) ErrThrottled or ErrUnavailable.
	Retryable func(error) bool
	// Detach runs each attempt aside and returns as soon as ctx is done, for SDK
	// calls that take no context (the abandoned request ends at its own timeout).
	Detach bool
}

// NewRetry takes the attempts and base delay from cfg, or the adapter's
// defaults where cfg leaves them unset.
func NewRetry(cfg Config, attempts int, base time.Duration) Retry {
	r := Retry{Attempts: cfg.MaxAttempts, Base: cfg.Backoff}
	if r.Attempts < 1 {
		r.Attempts = attempts
	}
	if r.Base <= 0 {
		r.Base = base
	}
	return r
}

// Do runs call until it succeeds, fails with an error that is not retryable, the
// attempts are used up, or ctx is done.
func (r Retry) Do(ctx context.Context, call func() error) error {
	retryable := r.Retryable
	if retryable == nil {
		retryable = func(err error) bool { return errors.Is(err, ErrThrottled) || errors.Is(err, ErrUnavailable) }
	}
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		if r.Detach {
			err = CallContext(ctx, call)
		} else {
			err = call()
		}
		if err == nil || !retryable(err) || n >= r.Attempts {
			return err
		}
		d := r.Base << (n - 1)
		if d > maxBackoff || d <= 0 {
			d = maxBackoff
		}
		d = d/2 + rand.N(d/2+1)
		if serr := Sleep(ctx, d); serr != nil {
			// The context's error is told, not wrapped: the error stays the
			// call's and keeps its class (CallErrors leaves a context.Canceled
			// in the chain unclassified, and this call was not cancelled).
			return fmt.Errorf("%w (gave up waiting to retry: %s)", err, serr.Error())
		}
	}
}

// CallContext runs call aside and returns when it ends or ctx is done, whichever
// comes first: a cancelled crawl does not wait for a stalled request.
func CallContext(ctx context.Context, call func() error) error {
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Sleep waits for d or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
