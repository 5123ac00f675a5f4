package tencent

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	tcerr "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common/errors"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

var statusInMessage = regexp.MustCompile(`http status code: (\d{3})`)

// classify reads a Tencent Cloud SDK error by its code. API errors arrive
// with HTTP 200 and an Error body (TencentCloudSDKError with the API's code); a
// non-200 status becomes ClientError.HttpStatusCodeError with the status in the
// message; a transport failure ClientError.NetworkError. The detail is code,
// message and request id.
func classify(err error) (detail string, class error) {
	var sdk *tcerr.TencentCloudSDKError
	if !errors.As(err, &sdk) {
		return "", nil
	}
	code := sdk.GetCode()
	detail = code + ": " + sdk.GetMessage()
	if id := sdk.GetRequestId(); id != "" {
		detail += " (request " + id + ")"
	}
	switch {
	case strings.HasPrefix(code, "RequestLimitExceeded"):
		return detail, providers.ErrThrottled
	case strings.HasPrefix(code, "AuthFailure"), code == "UnauthorizedOperation", strings.HasPrefix(code, "UnauthorizedOperation."):
		return detail, providers.ErrAuth
	case strings.HasPrefix(code, "ResourceNotFound"), strings.HasPrefix(code, "ResourcesSoldOut"),
		strings.HasPrefix(code, "ResourceInsufficient"), code == "InvalidInstanceType.NotSupported",
		strings.HasPrefix(code, "InvalidZone"), code == "InvalidRegion.NotFound", code == "UnsupportedRegion",
		code == "InvalidParameterValue.InstanceTypeNotFound", code == "InvalidParameterValue.InstanceTypeNotSupport",
		code == "UnsupportedOperation.InvalidInstanceType":
		return detail, providers.ErrNotFound
	case code == "InternalError", strings.HasPrefix(code, "InternalError."), code == "InternalServerError",
		code == "ServiceUnavailable", strings.HasPrefix(code, "ResourceUnavailable."), code == "ClientError.IOError":
		return detail, providers.ErrUnavailable
	case code == "ClientError.HttpStatusCodeError", code == "ClientError.NetworkError":
		// statusTransport reports 429 and 5xx as network errors with the
		// status in the message; other network errors are unavailability too.
		if m := statusInMessage.FindStringSubmatch(sdk.GetMessage()); m != nil {
			s, _ := strconv.Atoi(m[1])
			switch {
			case s == 429:
				return detail, providers.ErrThrottled
			case s >= 500:
				return detail, providers.ErrUnavailable
			}
		}
		if code == "ClientError.NetworkError" {
			return detail, providers.ErrUnavailable
		}
	}
	return detail, nil
}

// authHint is what to check when Tencent Cloud refuses the credentials.
const authHint = "check TENCENTCLOUD_SECRET_ID / TENCENTCLOUD_SECRET_KEY; the key needs CVM read access"

// callErrors wraps the adapter's errors, with secrets (the credentials it was
// given) kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.Tencent, Classify: classify, Hint: authHint, Secrets: secrets}
}
