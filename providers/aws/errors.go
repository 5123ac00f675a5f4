package aws

import (
	"errors"
	"fmt"
	"strings"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
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

// sdkThrottles and sdkRetryables are the SDK standard retryer's own tests of
// an error, which the adapter's retries (sdk.go) use where errorCodes and the
// status say nothing: the SDK's retryer is off, and what it would have
// retried is still retried.
var (
	sdkThrottles  = retry.IsErrorThrottles(retry.DefaultThrottles)
	sdkRetryables = retry.IsErrorRetryables(retry.DefaultRetryables)
)

// classify reads an SDK error's class from its API error code, or from the
// HTTP status where the code is not in errorCodes, or else from the SDK
// retryer's tests; the detail is the SDK's own text (operation, status,
// request id, code and message).
func classify(err error) (detail string, class error) {
	class = classifyCode(err)
	switch {
	case class != nil:
	case sdkThrottles.IsErrorThrottle(err) == awsv2.TrueTernary:
		class = providers.ErrThrottled
	case sdkRetryables.IsErrorRetryable(err) == awsv2.TrueTernary:
		class = providers.ErrUnavailable
	}
	return "", class
}

// classifyCode is the class errorCodes or the HTTP status give, or nil.
func classifyCode(err error) error {
	var api smithy.APIError
	if errors.As(err, &api) {
		if class, ok := errorCodes[api.ErrorCode()]; ok {
			return class
		}
		if strings.HasSuffix(api.ErrorCode(), ".NotFound") {
			return providers.ErrNotFound
		}
	}
	var resp *awshttp.ResponseError
	if errors.As(err, &resp) {
		switch s := resp.HTTPStatusCode(); {
		case s == 429:
			return providers.ErrThrottled
		case s == 401 || s == 403:
			return providers.ErrAuth
		case s == 404:
			return providers.ErrNotFound
		case s >= 500:
			return providers.ErrUnavailable
		}
	}
	return nil
}

// authHint is what to check when AWS refuses the credentials.
const authHint = "check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or AWS_PROFILE, and the key's ec2:Describe* and pricing:GetProducts permissions"

// errNoCredentials is New's answer when neither the variables nor the SDK's
// default chain give credentials.
var errNoCredentials = fmt.Errorf("aws: %w: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (an instance role only with %s=1)", providers.ErrNoCredentials, providers.AllowMetadataCredentials)

// callErrors wraps the adapter's errors, with secrets (the credentials it was
// given) kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.AWS, Classify: classify, Hint: authHint, Secrets: secrets}
}
