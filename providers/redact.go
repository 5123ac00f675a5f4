package providers

import (
	"net/url"
	"regexp"
	"strings"
)

// The forms a credential takes in a request, and so in an SDK error or a
// server's answer that echoes the request:
//
//	AWS SigV4        Authorization: AWS4-HMAC-SHA256 Credential=AKIA.../20260101/us-east-1/ec2/aws4_request, SignedHeaders=..., Signature=...
//	                 (or X-Amz-Credential=, X-Amz-Signature=, X-Amz-Security-Token= in a presigned query)
//	Alibaba RPC      ?AccessKeyId=LTAI...&Signature=...&SignatureNonce=...&SecurityToken=... (the whole signed URL)
//	Tencent TC3      Authorization: TC3-HMAC-SHA256 Credential=AKID.../2026-01-01/cvm/tc3_request, SignedHeaders=..., Signature=...
//	Huawei APIG      Authorization: SDK-HMAC-SHA256 Access=HWAK..., SignedHeaders=..., Signature=...
//	Volcano Engine   Authorization: HMAC-SHA256 Credential=VEAK.../20260101/cn-beijing/ecs/request, SignedHeaders=..., Signature=...
var (
	// urlPattern is a URL: its path and query are the signed request.
	urlPattern = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]+`)
	// authorizationValue is an Authorization header's value (a signing scheme,
	// then comma-separated key=value pairs or one token), as a header line, a
	// JSON field or Go's printing of a header map.
	authorizationValue = regexp.MustCompile(`(?i)\b(Authorization)("?\s*:\s*"?\[?|=)\s*(?:(?:[A-Za-z0-9]+-)*HMAC-SHA\d+|Bearer|Basic|Digest)` +
		`(?:\s+(?:[A-Za-z0-9-]+=[^\s,"\]]*(?:,\s*[A-Za-z0-9-]+=[^\s,"\]]*)*|[^\s,"\]=]+))?`)
	// signedQuery is a query string that carries a signature.
	signedQuery = regexp.MustCompile(`(?i)\?[^\s"']*(AccessKeyId|Signature|Credential)[^\s"']*`)
	// signedHeader is a signing parameter or header whose name is no English
	// word, with its value, in a query, a header line or JSON.
	signedHeader = regexp.MustCompile(`(?i)\b(X-Amz-Credential|X-Amz-Signature|X-Amz-Security-Token|X-Security-Token|X-TC-Token|` +
		`AccessKeyId|AccessKeySecret|SecurityToken|SignatureNonce)(=|%3D|"?\s*:\s*"?)[^\s&"',;\]]+`)
	// signedParam is an Authorization header's or a query's Credential=,
	// Signature= or (Huawei) Access=, or the same as a JSON field; "Signature:"
	// in prose is left alone.
	signedParam = regexp.MustCompile(`(?i)\b(Credential|Signature|Access)(=|%3D|"\s*:\s*")[^\s&"',;\]]+`)
)

// Redact returns s with every credential form removed: a URL keeps its
// scheme and host ("http://host/[request redacted]"), an Authorization header
// its name, a signing parameter its name ("Signature=[redacted]"), and each of
// secrets (literally or URL-encoded) becomes "[redacted]". Adapter errors pass
// through it (CallErrors.Wrap), since error texts end up in published coverage
// reports.
func Redact(s string, secrets ...string) string {
	s = urlPattern.ReplaceAllStringFunc(s, func(u string) string {
		p, err := url.Parse(u)
		switch {
		case err != nil || p.Host == "":
			return "[url redacted]"
		case (p.Path == "" || p.Path == "/") && p.RawQuery == "" && p.Fragment == "" && p.User == nil:
			return u
		}
		return p.Scheme + "://" + p.Host + "/[request redacted]"
	})
	s = authorizationValue.ReplaceAllString(s, "$1: [redacted]")
	s = signedQuery.ReplaceAllString(s, "?[query redacted]")
	s = signedHeader.ReplaceAllString(s, "$1=[redacted]")
	s = signedParam.ReplaceAllString(s, "$1=[redacted]")
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, "[redacted]")
		if esc := url.QueryEscape(sec); esc != sec {
			s = strings.ReplaceAll(s, esc, "[redacted]")
		}
	}
	return s
}
