package aws

import (
	"errors"
	"fmt"
	"strings"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Error codes of EC2 (query API) and the Price List API (JSON), by class. EC2's
// are listed at docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html.
var errorCodes = map[string]error{
	"RequestLimitExceeded":      providers.ErrThrottled,
	"Throttling":                providers.ErrThrottled,
	"ThrottlingException":       providers.ErrThrottled,
	"RequestThrottled":          providers.ErrThrottled,
	"RequestThrottledException": providers.ErrThrottled,
	"TooManyRequestsException":  providers.ErrThrottled,
	"EC2ThrottledException":     providers.ErrThrottled,
	"PriorRequestNotComplete":   providers.ErrThrottled,

	"AuthFailure":                 providers.ErrAuth,
	"UnauthorizedOperation":       providers.ErrAuth,
	"InvalidClientTokenId":        providers.ErrAuth,
	"SignatureDoesNotMatch":       providers.ErrAuth,
	"IncompleteSignature":         providers.ErrAuth,
	"AccessDenied":                providers.ErrAuth,
	"AccessDeniedException":       providers.ErrAuth,
	"UnrecognizedClientException": providers.ErrAuth,
	"ExpiredToken":                providers.ErrAuth,
	"ExpiredTokenException":       providers.ErrAuth,
	"RequestExpired":              providers.ErrAuth,
	"OptInRequired":               providers.ErrAuth, // region not enabled for the account
	"Blocked":                     providers.ErrAuth,

	"NotFoundException":         providers.ErrNotFound,
	"InvalidInstanceType":       providers.ErrNotFound,
	"UnsupportedOperation":      providers.ErrNotFound,
	"InvalidNextToken":          providers.ErrNotFound,
	"ExpiredNextTokenException": providers.ErrNotFound,

	"InternalError":               providers.ErrUnavailable,
	"InternalFailure":             providers.ErrUnavailable,
	"InternalErrorException":      providers.ErrUnavailable,
	"ServiceUnavailable":          providers.ErrUnavailable,
	"ServiceUnavailableException": providers.ErrUnavailable,
	"Unavailable":                 providers.ErrUnavailable,
}

// classify reads an SDK error's class from its API error code, or from the
// HTTP status where the code is not in errorCodes; the detail is the SDK's own
// text (operation, status, request id, code and message).
func classify(err error) (detail string, class error) {
	var api smithy.APIError
	if errors.As(err, &api) {
		if class, ok := errorCodes[api.ErrorCode()]; ok {
			return "", class
		}
		if strings.HasSuffix(api.ErrorCode(), ".NotFound") {
			return "", providers.ErrNotFound
		}
	}
	var resp *awshttp.ResponseError
	if errors.As(err, &resp) {
		switch s := resp.HTTPStatusCode(); {
		case s == 429:
			return "", providers.ErrThrottled
		case s == 401 || s == 403:
			return "", providers.ErrAuth
		case s == 404:
			return "", providers.ErrNotFound
		case s >= 500:
			return "", providers.ErrUnavailable
		}
	}
	return "", nil
}

// authHint is what to check when AWS refuses the credentials.
const authHint = "check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or AWS_PROFILE, and the key's ec2:Describe* and pricing:GetProducts permissions"

// errNoCredentials is New's answer when neither the variables nor the SDK's
// default chain give credentials.
var errNoCredentials = fmt.Errorf("aws: %w: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE", providers.ErrNoCredentials)

// callErrors wraps the adapter's errors, with secrets (the credentials it was
// given) kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.AWS, Classify: classify, Hint: authHint, Secrets: secrets}
}
