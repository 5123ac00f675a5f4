package volcengine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/volcengine/volcengine-go-sdk/volcengine/volcengineerr"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// classify maps a Volcano Engine SDK error to one of the providers sentinels (nil
// when it fits none). Flow control is AccountFlowLimitExceeded and friends with
// HTTP 429; the SDK reports network failures as RequestError.
func classify(err error) error {
	var rf volcengineerr.RequestFailure
	if errors.As(err, &rf) {
		code := rf.Code()
		switch {
		case rf.StatusCode() == 429 || strings.Contains(code, "FlowLimit") || strings.Contains(code, "Throttl") || strings.Contains(code, "RequestLimitExceeded"):
			return providers.ErrThrottled
		case rf.StatusCode() == 401 || rf.StatusCode() == 403 || strings.Contains(code, "AccessKey") || strings.Contains(code, "Signature") || strings.Contains(code, "AccessDenied") || strings.Contains(code, "Unauthorized"):
			return providers.ErrAuth
		case rf.StatusCode() == 404 || strings.Contains(code, "NotFound"):
			return providers.ErrNotFound
		case rf.StatusCode() >= 500:
			return providers.ErrUnavailable
		}
		return nil
	}
	var ve volcengineerr.Error
	if errors.As(err, &ve) && ve.Code() == "RequestError" {
		return providers.ErrUnavailable
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) {
		return providers.ErrUnavailable
	}
	return nil
}

// describe shortens an SDK error to status, code, message and request id.
func describe(err error) string {
	var rf volcengineerr.RequestFailure
	if errors.As(err, &rf) {
		s := fmt.Sprintf("status %d %s: %s", rf.StatusCode(), rf.Code(), rf.Message())
		if rf.RequestID() != "" {
			s += " (request id " + rf.RequestID() + ")"
		}
		return s
	}
	return err.Error()
}

func wrap(action, region string, err error) error {
	if err == nil {
		return nil
	}
	var ae *providers.CallError
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("volcengine: %s in %s: %w", action, region, err)
	}
	return &providers.CallError{Provider: catalog.Volcengine, Action: action, Region: region, Class: classify(err), Err: err, Detail: describe(err)}
}

// newRetry retries throttling and unavailability with backoff and jitter (the
// SDK's own retries are off, so none double up).
func newRetry(cfg providers.Config) providers.Retry {
	r := providers.NewRetry(cfg, 3, 500*time.Millisecond)
	r.Retryable = func(err error) bool {
		c := classify(err)
		return c == providers.ErrThrottled || c == providers.ErrUnavailable
	}
	return r
}
