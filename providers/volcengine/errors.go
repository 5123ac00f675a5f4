package volcengine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/volcengine/volcengine-go-sdk/volcengine/volcengineerr"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// classify reads a Volcano Engine SDK error by its status and code. Flow
// control is AccountFlowLimitExceeded and friends with HTTP 429; the SDK
// reports network failures as RequestError. The detail is status, code,
// message and request id.
func classify(err error) (detail string, class error) {
	var rf volcengineerr.RequestFailure
	if !errors.As(err, &rf) {
		var ve volcengineerr.Error
		if errors.As(err, &ve) && ve.Code() == "RequestError" {
			return "", providers.ErrUnavailable
		}
		return "", nil
	}
	detail = fmt.Sprintf("status %d %s: %s", rf.StatusCode(), rf.Code(), rf.Message())
	if rf.RequestID() != "" {
		detail += " (request id " + rf.RequestID() + ")"
	}
	code, status := rf.Code(), rf.StatusCode()
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(code, p) {
				return true
			}
		}
		return false
	}
	switch {
	case status == 429 || has("FlowLimit", "Throttl", "RequestLimitExceeded"):
		return detail, providers.ErrThrottled
	case status == 401 || status == 403 || has("AccessKey", "Signature", "AccessDenied", "Unauthorized"):
		return detail, providers.ErrAuth
	case status == 404 || has("NotFound"):
		return detail, providers.ErrNotFound
	case status >= 500:
		return detail, providers.ErrUnavailable
	}
	return detail, nil
}

// authHint is what to check when Volcano Engine refuses the credentials.
const authHint = "check " + envAK + " / " + envSK + " and the key's ECS and billing read permissions"

// callErrors wraps the adapter's errors, with secrets (the credentials it was
// given) kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.Volcengine, Classify: classify, Hint: authHint, Secrets: secrets}
}
