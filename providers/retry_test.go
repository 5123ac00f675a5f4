package providers

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestRetry_Do(t *testing.T) {
	throttled := fmt.Errorf("aws: describe: %w", ErrThrottled)
	down := fmt.Errorf("aws: describe: %w", ErrUnavailable)
	n := func(err error, k int) []error {
		out := make([]error, k)
		for i := range out {
			out[i] = err
		}
		return out
	}
	tests := []struct {
		name      string
		failures  []error
		attempts  int
		throttles int
		wantCalls int
		wantErr   error
		want      StatsFigures
	}{
		{"succeeds first", nil, 3, 0, 1, nil, StatsFigures{Calls: 1}},
		{"throttled then ok", n(throttled, 2), 3, 0, 3, nil, StatsFigures{Calls: 1, Faults: 2, Throttled: 2, Retries: 2}},
		{"unavailable then ok", n(down, 2), 3, 0, 3, nil, StatsFigures{Calls: 1, Faults: 2, Retries: 2}},
		{"gives up after its attempts", n(down, 4), 3, 0, 3, ErrUnavailable, StatsFigures{Calls: 1, Faults: 3, Retries: 2, GaveUp: 1}},
		// Throttling does not use up the attempts hard faults get: four
		// throttled answers and two server errors pass with 3 attempts.
		{"throttles have their own budget", append(n(throttled, 4), down, down), 3, 0, 7, nil,
			StatsFigures{Calls: 1, Faults: 6, Throttled: 4, Retries: 6}},
		{"throttling patience defaults to at least 10", n(throttled, 12), 3, 0, 10, ErrThrottled,
			StatsFigures{Calls: 1, Faults: 10, Throttled: 10, Retries: 9, GaveUp: 1}},
		{"throttling patience set", n(throttled, 12), 3, 5, 5, ErrThrottled,
			StatsFigures{Calls: 1, Faults: 5, Throttled: 5, Retries: 4, GaveUp: 1}},
		{"one attempt retries nothing", n(throttled, 1), 1, 0, 1, ErrThrottled, StatsFigures{Calls: 1, Faults: 1, Throttled: 1, GaveUp: 1}},
		{"not retryable", []error{fmt.Errorf("x: %w", ErrAuth)}, 3, 0, 1, ErrAuth, StatsFigures{Calls: 1}},
		{"not found is counted, not retried", []error{fmt.Errorf("x: %w", ErrNotFound)}, 3, 0, 1, ErrNotFound, StatsFigures{Calls: 1, NotFound: 1}},
		{"unavailable then not found", []error{fmt.Errorf("x: %w", ErrUnavailable), fmt.Errorf("x: %w", ErrNotFound)}, 3, 0, 2, ErrNotFound,
			StatsFigures{Calls: 1, Faults: 1, Retries: 1, NotFound: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			stats := &Stats{}
			r := Retry{Attempts: tt.attempts, Throttles: tt.throttles, Base: time.Microsecond, Stats: stats}
			err := r.Do(context.Background(), func() error {
				calls++
				if calls <= len(tt.failures) {
					return tt.failures[calls-1]
				}
				return nil
			})
			if calls != tt.wantCalls || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("calls %d err %v; want %d calls, error %v", calls, err, tt.wantCalls, tt.wantErr)
			}
			if got := stats.Figures(); got != tt.want {
				t.Errorf("stats %+v, want %+v", got, tt.want)
			}
		})
	}
}

// Calls made in the runner's sweep count as swept.
func TestRetry_CountsSweptCalls(t *testing.T) {
	stats := &Stats{}
	r := Retry{Attempts: 2, Base: time.Microsecond, Stats: stats}
	_ = r.Do(context.Background(), func() error { return nil })
	_ = r.Do(WithSweep(context.Background()), func() error { return nil })
	if got := stats.Figures(); got.Calls != 2 || got.Swept != 1 {
		t.Errorf("stats %+v, want 2 calls, 1 swept", got)
	}
	var none *Stats
	if none.Figures() != (StatsFigures{}) {
		t.Error("a nil Stats has figures")
	}
}

// Backoff doubles per retry of a kind, with jitter in its upper half, and
// stops at maxBackoff.
func TestBackoff(t *testing.T) {
	for n, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 30: maxBackoff, 64: maxBackoff} {
		for range 20 {
			if d := backoff(100*time.Millisecond, n); d < want/2 || d > want {
				t.Errorf("backoff(100ms, %d) = %s, want within [%s, %s]", n, d, want/2, want)
			}
		}
	}
}

func TestRetry_CancelledWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := Retry{Attempts: 5, Base: time.Hour}.Do(ctx, func() error { return ErrUnavailable })
	if !errors.Is(err, ErrUnavailable) || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %s; want the last error, promptly", err, time.Since(start))
	}
}

func TestRetry_DetachReturnsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	err := Retry{Attempts: 1, Detach: true}.Do(ctx, func() error { <-release; return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled while the call still hangs", err)
	}
}

// Retries back off from the provider's rate: two token intervals, at least
// 50 ms; none without a rate (the adapter's default then).
func TestRetryBackoff(t *testing.T) {
	for rate, want := range map[float64]time.Duration{20: 100 * time.Millisecond, 5: 400 * time.Millisecond, 100: 50 * time.Millisecond, 0: 0} {
		if got := RetryBackoff(rate); got != want {
			t.Errorf("RetryBackoff(%g) = %s, want %s", rate, got, want)
		}
	}
	var got Config
	f := Factory{ID: "x", RatePerSecond: 8, New: func(cfg Config) (Provider, error) { got = cfg; return nil, nil }}
	Prepare(f, Config{})
	if got.Backoff != 250*time.Millisecond || got.Stats == nil {
		t.Errorf("Prepare gave the adapter backoff %s, stats %v; want 250ms and counters", got.Backoff, got.Stats)
	}
	Prepare(f, Config{Backoff: time.Millisecond})
	if got.Backoff != time.Millisecond {
		t.Errorf("Prepare replaced a set backoff with %s", got.Backoff)
	}
}
