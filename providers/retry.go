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

// minThrottlePatience is the fewest throttled answers a call with retries
// accepts (see Retry.Throttles).
const minThrottlePatience = 10

// Retry retries an API call that failed with a throttling or unavailability
// error, with exponential backoff and jitter: the n-th retry of a kind waits a
// random time in [Base·2^(n-1)/2, Base·2^(n-1)], at most 20 s. Adapters whose
// SDK lacks such retries (or retries without backoff, or not 5xx) turn the
// SDK's off and use this, so that retries never double up.
//
// Throttling and hard faults have separate budgets. A throttled answer says
// "later", not "broken": it is retried with its own, longer patience
// (Throttles) and its own backoff, and does not use up the attempts that
// server errors, resets and timeouts get (Attempts). Every attempt passes the
// provider's rate limiter (Transport, APILimiters) like a first one, so
// retrying never sends faster than the provider's documented rate. The
// crawl's deadline (ctx) bounds all of it.
type Retry struct {
	// Attempts bounds a call's attempts against hard faults (unavailability:
	// 5xx, resets, timeouts); 1 means no retries at all, throttled or not.
	Attempts int
	// Throttles is the most throttled answers one call accepts before it gives
	// up; zero means max(10, 3 × Attempts).
	Throttles int
	Base      time.Duration
	// Class is the class of an attempt's error (ErrThrottled, ErrUnavailable
	// or another); nil reads the Err* sentinels the error wraps. Only
	// throttling and unavailability are retried.
	Class func(error) error
	// Detach runs each attempt aside and returns as soon as ctx is done, for SDK
	// calls that take no context (the abandoned request ends at its own timeout).
	Detach bool
	// Stats, when set, counts the calls, faults and retries (the runner's
	// figures for the provider's coverage).
	Stats *Stats
	// After, when set, is the wait an answer asks for before the next try
	// (Azure's Retry-After header); it replaces the backoff when longer, up
	// to the same cap.
	After func(error) time.Duration
}

// NewRetry takes the attempts, base delay and counters from cfg, or the
// adapter's defaults where cfg leaves them unset.
func NewRetry(cfg Config, attempts int, base time.Duration) Retry {
	r := Retry{Attempts: cfg.MaxAttempts, Base: cfg.Backoff, Stats: cfg.Stats}
	if r.Attempts < 1 {
		r.Attempts = attempts
	}
	if r.Base <= 0 {
		r.Base = base
	}
	return r
}

// throttlePatience is Throttles, or its default.
func (r Retry) throttlePatience() int {
	if r.Throttles > 0 {
		return r.Throttles
	}
	return max(minThrottlePatience, 3*r.Attempts)
}

// classOf is the class of err by r.Class, or by the sentinels it wraps.
func (r Retry) classOf(err error) error {
	if r.Class != nil {
		return r.Class(err)
	}
	switch {
	case errors.Is(err, ErrThrottled):
		return ErrThrottled
	case errors.Is(err, ErrUnavailable):
		return ErrUnavailable
	}
	return nil
}

// Do runs call until it succeeds, fails with an error that is not retryable,
// its budget for that kind of fault is used up, or ctx is done. A call made
// while the runner sweeps (see Sweeping) is counted as swept.
func (r Retry) Do(ctx context.Context, call func() error) error {
	r.Stats.call(ctx)
	throttled, failed := 0, 0
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if n > 1 {
			r.Stats.retry()
		}
		var err error
		if r.Detach {
			err = CallContext(ctx, call)
		} else {
			err = call()
		}
		if err == nil || ctx.Err() != nil {
			return err
		}
		var streak int
		switch class := r.classOf(err); {
		case errors.Is(class, ErrThrottled):
			r.Stats.fault(true)
			throttled++
			streak = throttled
			if r.Attempts <= 1 || throttled >= r.throttlePatience() {
				r.Stats.giveUp()
				return err
			}
		case errors.Is(class, ErrUnavailable):
			r.Stats.fault(false)
			failed++
			streak = failed
			if failed >= r.Attempts {
				r.Stats.giveUp()
				return err
			}
		default:
			if errors.Is(class, ErrNotFound) || errors.Is(err, ErrNotFound) {
				r.Stats.notFoundAnswer()
			}
			return err
		}
		wait := backoff(r.Base, streak)
		if r.After != nil {
			wait = max(wait, min(r.After(err), maxBackoff))
		}
		if serr := Sleep(ctx, wait); serr != nil {
			// The context's error is told, not wrapped: the error stays the
			// call's and keeps its class (CallErrors leaves a context.Canceled
			// in the chain unclassified, and this call was not cancelled).
			return fmt.Errorf("%w (gave up waiting to retry: %s)", err, serr.Error())
		}
	}
}

// backoff is the wait before the n-th retry of one kind: a random time in
// [d/2, d] with d = base·2^(n-1), at most maxBackoff. The jitter spreads the
// retries of calls that failed together.
func backoff(base time.Duration, n int) time.Duration {
	d := base << (n - 1)
	if n > 31 || d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	return d/2 + rand.N(d/2+1)
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
