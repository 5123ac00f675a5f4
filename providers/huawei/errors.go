package huawei

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/huaweicloud/huaweicloud-sdk-go-v3/core/sdkerr"

	"github.com/gpuatlas/gpuatlas/catalog"
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
	var ae *providers.CallError
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("huawei: %s in %s: %w", action, region, err)
	}
	return &providers.CallError{Provider: catalog.Huawei, Action: action, Region: region, Class: classify(err), Err: err, Detail: describe(err)}
}

// newRetry retries throttling and unavailability with backoff and jitter (the
// SDK's own retries are off, so none double up).
func newRetry(cfg providers.Config) providers.Retry {
	r := providers.NewRetry(cfg, 3, 500*time.Millisecond)
	r.Retryable = func(err error) bool {
		c := classify(err)
		return c == providers.ErrThrottled || c == providers.ErrUnavailable
	}
	r.Detach = true // the SDK's calls take no context
	return r
}
