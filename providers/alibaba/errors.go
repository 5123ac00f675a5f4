package alibaba

import (
	"errors"
	"fmt"
	"strings"

	sdkerrors "github.com/aliyun/alibaba-cloud-sdk-go/sdk/errors"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Error codes of the ECS RPC API by class. Throttling comes with HTTP 400;
// see help.aliyun.com "ECS API error codes" and each operation's error list.
var errorCodes = map[string]error{
	"Throttling":          providers.ErrThrottled,
	"Throttling.User":     providers.ErrThrottled,
	"Throttling.Api":      providers.ErrThrottled,
	"Throttling.Resource": providers.ErrThrottled,
	"ServiceUnavailable":  providers.ErrUnavailable,
	"InternalError":       providers.ErrUnavailable,
	"UnknownError":        providers.ErrUnavailable,

	"InvalidAccessKeyId":           providers.ErrAuth,
	"InvalidAccessKeyId.NotFound":  providers.ErrAuth,
	"InvalidAccessKeyId.Inactive":  providers.ErrAuth,
	"SignatureDoesNotMatch":        providers.ErrAuth,
	"IncompleteSignature":          providers.ErrAuth,
	"InvalidSecurityToken.Expired": providers.ErrAuth,
	"Forbidden":                    providers.ErrAuth,
	"Forbidden.RAM":                providers.ErrAuth,
	"NoPermission":                 providers.ErrAuth,

	// DescribePrice answers these when the asked combination has no price
	// (a billing method or zone the type is not sold with).
	"PriceNotFound":                         providers.ErrNotFound,
	"Price.PricingPlanResultNotFound":       providers.ErrNotFound,
	"InvalidInstanceType.ValueNotSupported": providers.ErrNotFound,
	"InvalidInstanceType.NotFound":          providers.ErrNotFound,
	"InvalidZoneId.NotFound":                providers.ErrNotFound,
	"Invalid.PriceUnit":                     providers.ErrNotFound,
}

// classify reads an SDK error: a ServerError by its code (errorCodes, then
// the code's family, then the HTTP status), a ClientError's timeout or network
// failure as unavailability. The detail is code, status and message: the
// SDK's own text of a ClientError or a transport error carries the full signed
// request URL, which CallErrors.Wrap redacts.
func classify(err error) (detail string, class error) {
	var server *sdkerrors.ServerError
	if errors.As(err, &server) {
		code := server.ErrorCode()
		detail = fmt.Sprintf("%s (HTTP %d): %s", code, server.HttpStatus(), server.Message())
		if c, ok := errorCodes[code]; ok {
			return detail, c
		}
		switch {
		case strings.HasPrefix(code, "Throttling"):
			return detail, providers.ErrThrottled
		case strings.HasPrefix(code, "Forbidden") || strings.HasPrefix(code, "InvalidAccessKey"):
			return detail, providers.ErrAuth
		case strings.HasSuffix(code, ".NotFound"):
			return detail, providers.ErrNotFound
		}
		switch s := server.HttpStatus(); {
		case s == 429:
			return detail, providers.ErrThrottled
		case s == 401:
			return detail, providers.ErrAuth
		case s >= 500:
			return detail, providers.ErrUnavailable
		}
		return detail, nil
	}
	var client *sdkerrors.ClientError
	if errors.As(err, &client) {
		detail = client.ErrorCode() + ": " + client.Message()
		if strings.Contains(client.ErrorCode(), "Timeout") || strings.Contains(client.ErrorCode(), "Network") {
			return detail, providers.ErrUnavailable
		}
		return detail, nil
	}
	return "", nil
}

// authHint is what to check when Alibaba Cloud refuses the credentials.
const authHint = "check ALIBABA_CLOUD_ACCESS_KEY_ID / ALIBABA_CLOUD_ACCESS_KEY_SECRET and the key's ECS read permission"

// callErrors wraps the adapter's errors, with secrets (the credentials it was
// given) kept out of their text.
func callErrors(secrets []string) providers.CallErrors {
	return providers.CallErrors{Provider: catalog.Alibaba, Classify: classify, Hint: authHint, Secrets: secrets}
}
