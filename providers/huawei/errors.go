package huawei

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/sdkerr"

	"github.com/gpuatlas/gpuatlas/providers"
)

// classify maps a Huawei SDK error to one of the providers sentinels (nil when it
// fits none). Huawei answers throttling with 429 and APIGW.0308, authentication
// problems with 401/403 (APIGW.0301 and friends), and a flavor or project that is
// not there with 404.
func classify(err error) error {
	var sre *sdkerr.ServiceResponseError
	if errors.As(err, &sre) {
		switch {
		case sre.StatusCode == 429 || sre.ErrorCode == "APIGW.0308" || strings.Contains(sre.ErrorCode, "Throttl"):
			return providers.ErrThrottled
		case sre.StatusCode == 401 || sre.StatusCode == 403:
			return providers.ErrAuth
		case sre.StatusCode == 404:
			return providers.ErrNotFound
		case sre.StatusCode >= 500:
			return providers.ErrUnavailable
		}
		return nil
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) {
		return providers.ErrUnavailable
	}
	return nil
}

// apiError is a failed call: what was done, where, and the vendor error with its
// class, so that errors.Is(err, providers.ErrThrottled) and the like work.
type apiError struct {
	action, region string
	class          error
	err            error
}

func (e *apiError) Error() string {
	where := ""
	if e.region != "" {
		where = " in " + e.region
	}
	return fmt.Sprintf("huawei: %s%s: %s", e.action, where, describe(e.err))
}

func (e *apiError) Unwrap() []error {
	if e.class != nil {
		return []error{e.class, e.err}
	}
	return []error{e.err}
}

// describe shortens an SDK error to code, message and request id.
func describe(err error) string {
	var sre *sdkerr.ServiceResponseError
	if errors.As(err, &sre) {
		s := fmt.Sprintf("status %d", sre.StatusCode)
		if sre.ErrorCode != "" {
			s += " " + sre.ErrorCode
		}
		if sre.ErrorMessage != "" {
			s += ": " + sre.ErrorMessage
		}
		if sre.RequestId != "" {
			s += " (request id " + sre.RequestId + ")"
		}
		return s
	}
	return err.Error()
}

func wrap(action, region string, err error) error {
	if err == nil {
		return nil
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("huawei: %s in %s: %w", action, region, err)
	}
	return &apiError{action: action, region: region, class: classify(err), err: err}
}

// retryPolicy retries throttling and unavailability with exponential backoff and
// full jitter. The SDK has no retries of its own unless asked (its invokers'
// WithRetry), so none double up.
type retryPolicy struct {
	attempts int
	base     time.Duration
	sleep    func(ctx context.Context, d time.Duration) error
}

func newRetryPolicy(cfg providers.Config) retryPolicy {
	p := retryPolicy{attempts: cfg.MaxAttempts, base: cfg.Backoff, sleep: sleepCtx}
	if p.attempts < 1 {
		p.attempts = 3
	}
	if p.base <= 0 {
		p.base = 500 * time.Millisecond
	}
	return p
}

func (p retryPolicy) do(ctx context.Context, call func() error) error {
	var err error
	for attempt := 1; ; attempt++ {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		err = callCtx(ctx, call)
		if err == nil {
			return nil
		}
		c := classify(err)
		if attempt >= p.attempts || (c != providers.ErrThrottled && c != providers.ErrUnavailable) {
			return err
		}
		d := p.base << (attempt - 1)
		d = d/2 + rand.N(d/2+1) // jitter: half fixed, half random
		if serr := p.sleep(ctx, d); serr != nil {
			return serr
		}
	}
}

// callCtx runs call, an SDK call that takes no context, aside, and returns
// when it ends or ctx is done, whichever comes first: a cancelled crawl does
// not wait for a stalled request's timeout. An abandoned request ends at its
// own timeout (the HTTP client's).
func callCtx(ctx context.Context, call func() error) error {
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
