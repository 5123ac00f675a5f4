package alibaba

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"

	sdkerrors "github.com/aliyun/alibaba-cloud-sdk-go/sdk/errors"

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

// classify turns an SDK error into an error of one of the providers classes
// whose text has no URL, AccessKeyId or Signature in it: the SDK's timeout and
// transport errors carry the full signed request URL. The SDK error itself is
// dropped from the chain for that reason; its code and message stay in the text.
func classify(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	class, detail := errorClass(err)
	msg := scrub(detail, secrets)
	if class == nil {
		return errors.New(msg)
	}
	return fmt.Errorf("%w: %s", class, msg)
}

func errorClass(err error) (class error, detail string) {
	var server *sdkerrors.ServerError
	if errors.As(err, &server) {
		code := server.ErrorCode()
		detail = fmt.Sprintf("%s (HTTP %d): %s", code, server.HttpStatus(), server.Message())
		if c, ok := errorCodes[code]; ok {
			return c, detail
		}
		switch {
		case strings.HasPrefix(code, "Throttling"):
			return providers.ErrThrottled, detail
		case strings.HasPrefix(code, "Forbidden") || strings.HasPrefix(code, "InvalidAccessKey"):
			return providers.ErrAuth, detail
		case strings.HasSuffix(code, ".NotFound"):
			return providers.ErrNotFound, detail
		}
		switch s := server.HttpStatus(); {
		case s == 429:
			return providers.ErrThrottled, detail
		case s == 401:
			return providers.ErrAuth, detail
		case s >= 500:
			return providers.ErrUnavailable, detail
		}
		return nil, detail
	}
	var client *sdkerrors.ClientError
	if errors.As(err, &client) {
		detail = client.ErrorCode() + ": " + client.Message()
		if strings.Contains(client.ErrorCode(), "Timeout") || strings.Contains(client.ErrorCode(), "Network") {
			return providers.ErrUnavailable, detail
		}
		return nil, detail
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return providers.ErrUnavailable, err.Error()
	}
	return nil, err.Error()
}

var (
	urlPattern    = regexp.MustCompile(`(?i)\bhttps?://[^\s"']+`)
	signedParam   = regexp.MustCompile(`(?i)\b(AccessKeyId|Signature|SignatureNonce|SecurityToken|AccessKeySecret)(=|%3D|":\s*"|:\s*)[^\s&"',]+`)
	queryFragment = regexp.MustCompile(`\?[^\s"']*(AccessKeyId|Signature)[^\s"']*`)
)

// scrub removes URLs, signed query parameters and the given secrets from s.
func scrub(s string, secrets []string) string {
	s = urlPattern.ReplaceAllStringFunc(s, func(u string) string {
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			return p.Scheme + "://" + p.Host + "/[request redacted]"
		}
		return "[url redacted]"
	})
	s = queryFragment.ReplaceAllString(s, "?[query redacted]")
	s = signedParam.ReplaceAllString(s, "$1=[redacted]")
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}
