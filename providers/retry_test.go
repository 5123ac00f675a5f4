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
	tests := []struct {
		name      string
		failures  []error
		attempts  int
		wantCalls int
		wantErr   error
	}{
		{"succeeds first", nil, 3, 1, nil},
		{"throttled then ok", []error{throttled, throttled}, 3, 3, nil},
		{"gives up", []error{throttled, throttled, throttled, throttled}, 3, 3, ErrThrottled},
		{"not retryable", []error{fmt.Errorf("x: %w", ErrAuth)}, 3, 1, ErrAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			r := Retry{Attempts: tt.attempts, Base: time.Microsecond}
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
		})
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
