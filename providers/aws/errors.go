package aws

import (
	"errors"
	"net"
	"strings"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

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

// classify maps an SDK error to one of the providers error classes, keeping the
// SDK error in the chain: errors.Is(err, providers.ErrThrottled) and
// errors.As(err, &smithy.APIError) both hold. An error it cannot place is
// returned unchanged.
func classify(err error) error {
	if err == nil {
		return nil
	}
	if class := errorClass(err); class != nil {
		return &classified{class: class, err: err}
	}
	return err
}

func errorClass(err error) error {
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
	var netErr net.Error
	if errors.As(err, &netErr) {
		return providers.ErrUnavailable
	}
	return nil
}

// classified is an SDK error with its class. Its text is the SDK's.
type classified struct {
	class error
	err   error
}

func (e *classified) Error() string   { return e.err.Error() }
func (e *classified) Unwrap() []error { return []error{e.class, e.err} }

// redact keeps err's chain but removes the given credential strings from its
// text. SDK errors do not carry credentials, but a transport error or a future SDK
// change could, and error texts end up in published coverage reports.
func redact(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := msg
	for _, s := range secrets {
		if s != "" {
			clean = strings.ReplaceAll(clean, s, "[redacted]")
		}
	}
	if clean == msg {
		return err
	}
	return &redacted{msg: clean, err: err}
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
