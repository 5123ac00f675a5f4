package gcp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/auth"
	"google.golang.org/api/googleapi"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// classify reads a Google API error by its status: both APIs throttle with
// 429 (and 403 rateLimitExceeded / userRateLimitExceeded), refuse
// credentials with 401 and 403, and answer 5xx when a service is down; the
// token service's refusals are the auth library's errors. The detail is
// status, reason and message.
func classify(err error) (detail string, class error) {
	var ge *googleapi.Error
	var ae *auth.Error
	var status int
	switch {
	case errors.Is(err, providers.ErrRepeatedPageToken):
		// Not the network's failure: asking again would loop.
		return "", providers.ErrRepeatedPageToken
	case errors.As(err, &ge):
		status = ge.Code
		detail = fmt.Sprintf("status %d", status)
		reason := ""
		if len(ge.Errors) > 0 {
			reason = ge.Errors[0].Reason
			detail += " " + reason
		}
		if msg := strings.Join(strings.Fields(ge.Message), " "); msg != "" {
			detail += ": " + msg
		}
		if strings.HasSuffix(reason, "ateLimitExceeded") {
			return detail, providers.ErrThrottled
		}
	case errors.As(err, &ae):
		return providers.TokenRefusal("token service", ae.Response)
	default:
		return "", nil
	}
	return detail, providers.StatusClass(status)
}

// retryAfter is the wait a throttled or unavailable answer asks for in its
// Retry-After header (seconds); zero when it asks none.
func retryAfter(err error) time.Duration {
	var ge *googleapi.Error
	if !errors.As(err, &ge) || ge.Header == nil {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(ge.Header.Get("Retry-After"))); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

// authHint is what to check when Google Cloud refuses the credentials.
const authHint = "check " + envCredentials + " (a service account key or a workload identity federation file) and that its account may list " +
	"machine types in " + envProject + " (roles/compute.viewer) and read the billing catalog"

// callErrors wraps the adapter's errors, with the credentials file's secrets
// kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.GCP, Classify: classify, Hint: authHint, Secrets: secrets}
}
