package azure

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// classify reads an Azure error by its status: Resource Manager and the
// Retail Prices API throttle with 429 (ARM's code TooManyRequests), refuse
// credentials with 401/403 (and the identity library's AuthenticationFailed),
// and answer 5xx when a service is down. The detail is status, code, message
// and request id.
func classify(err error) (detail string, class error) {
	var re *azcore.ResponseError
	var pe *pricesError
	var af *azidentity.AuthenticationFailedError
	var status int
	switch {
	case errors.As(err, &af):
		return providers.TokenRefusal("identity service", af.RawResponse)
	case errors.As(err, &re):
		status = re.StatusCode
		detail = fmt.Sprintf("status %d", status)
		if re.ErrorCode != "" {
			detail += " " + re.ErrorCode
		}
		if msg := armMessage(re.RawResponse); msg != "" {
			detail += ": " + msg
		}
		if re.RawResponse != nil {
			if id := re.RawResponse.Header.Get("x-ms-request-id"); id != "" {
				detail += " (request id " + id + ")"
			}
		}
		if strings.Contains(re.ErrorCode, "Throttl") || re.ErrorCode == "TooManyRequests" {
			return detail, providers.ErrThrottled
		}
	case errors.As(err, &pe):
		status, detail = pe.Status, pe.Error()
	default:
		return "", nil
	}
	return detail, providers.StatusClass(status)
}

// armMessage is the message of a Resource Manager error body
// ({"error":{"code","message"}}), on one line; "" where it has none.
func armMessage(resp *http.Response) string {
	if resp == nil {
		return ""
	}
	body, err := runtime.Payload(resp)
	if err != nil {
		return ""
	}
	var b struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &b) != nil {
		return ""
	}
	return strings.Join(strings.Fields(b.Error.Message), " ")
}

// retryAfter is the wait a throttled or unavailable answer asks for in its
// Retry-After header (seconds or an HTTP date); zero when it asks none.
func retryAfter(err error) time.Duration {
	var re *azcore.ResponseError
	var pe *pricesError
	switch {
	case errors.As(err, &pe):
		return pe.RetryAfter
	case errors.As(err, &re) && re.RawResponse != nil:
		return parseRetryAfter(re.RawResponse.Header.Get("Retry-After"))
	}
	return 0
}

func parseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// authHint is what to check when Azure refuses the credentials.
const authHint = "check " + envTenant + ", " + envClientID + " and " + envSecret + " (or " + envTokenFile +
	"), and that the service principal may read " + envSubscription + " (Reader)"

// callErrors wraps the adapter's errors, with the secret kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.Azure, Classify: classify, Hint: authHint, Secrets: secrets}
}
