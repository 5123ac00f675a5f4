package providers

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
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
//
// A parameter's name starts the text, or follows a character that is not a
// letter or digit, or a percent-escape (an encoded & or ? leaves no word
// boundary before the name: "%26Signature%3D…"); the prefix is kept.
const namePrefix = `(^|[^A-Za-z0-9]|%(?:25)*[0-9A-Fa-f]{2})`

// encoded is the percent-escape of a byte (hex, any case), encoded once or
// more: "3D" matches %3D, %3d, %253D, %25253d.
func encoded(hex string) string { return `%(?:25)*` + hex }

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
	signedHeader = regexp.MustCompile(`(?i)` + namePrefix + `(X-Amz-Credential|X-Amz-Signature|X-Amz-Security-Token|X-Security-Token|X-TC-Token|` +
		`AccessKeyId|AccessKeySecret|SecurityToken|SignatureNonce)(=|` + encoded("3D") + `|"?\s*:\s*"?|` +
		`(?:` + encoded("22") + `)?` + encoded("3A") + `(?:` + encoded("20") + `)*(?:` + encoded("22") + `)?)[^\s&"',;\]]+`)
	// signedParam is an Authorization header's or a query's Credential=,
	// Signature= or (Huawei) Access=, or the same as a JSON field; "Signature:"
	// in prose is left alone.
	signedParam = regexp.MustCompile(`(?i)` + namePrefix + `(Credential|Signature|Access)(=|` + encoded("3D") + `|"\s*:\s*"|` +
		encoded("22") + encoded("3A") + `(?:` + encoded("20") + `)*` + encoded("22") + `)[^\s&"',;\]]+`)
	// base64Run is a run of base64 text long enough to hide a signed header
	// (standard or URL-safe alphabet).
	base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{24,}={0,2}`)
	// signedText is what a decoded base64 run must not hold: a signing
	// scheme's credential or signature parameter, or a signed query's key id.
	signedText = regexp.MustCompile(`(?i)(Credential|Signature|Access|AccessKeyId|X-Amz-Credential)(=|` + encoded("3D") + `)|HMAC-SHA\d`)
)

// Redact returns s with every credential form removed: a URL keeps its
// scheme and host ("http://host/[request redacted]"), an Authorization header
// its name, a signing parameter its name ("Signature=[redacted]"), base64 text
// that decodes to a signed header or query becomes "[base64 redacted]", and
// each of secrets (literally, URL-encoded once or twice in either case, or
// base64-encoded at any offset) becomes "[redacted]". A parameter's name and
// its = or : are recognised percent-encoded too (Signature%3D, %253D, %3d).
// Adapter errors pass through it (CallErrors.Wrap), since error texts end up
// in published coverage reports.
func Redact(s string, secrets ...string) string {
	s = base64Run.ReplaceAllStringFunc(s, func(run string) string {
		if signedText.Match(decodeBase64(run)) {
			return "[base64 redacted]"
		}
		return run
	})
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
	s = signedHeader.ReplaceAllString(s, "$1$2=[redacted]")
	s = signedParam.ReplaceAllString(s, "$1$2=[redacted]")
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, "[redacted]")
		for _, esc := range escapedForms(sec) {
			s = strings.ReplaceAll(s, esc, "[redacted]")
		}
		for _, b := range base64Forms(sec) {
			s = strings.ReplaceAll(s, b, "[redacted]")
		}
	}
	return s
}

// escapedForms are the percent-encoded texts of secret that differ from it:
// query and path escaping, once and twice (a signed URL inside a query), with
// upper- and lower-case hex digits.
func escapedForms(secret string) []string {
	var out []string
	add := func(f string) {
		if f != secret && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, e := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		for _, once := range []string{e, lowerEscapes(e)} {
			add(once)
			add(url.QueryEscape(once))
		}
	}
	return out
}

// lowerEscapes writes the hex digits of every percent-escape in lower case.
func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lowerHex(b[i+1]), lowerHex(b[i+2])
		}
	}
	return string(b)
}

func lowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// decodeBase64 decodes a base64 run in whichever alphabet and padding it is
// written, dropping a partial last group; nil when it is not base64.
func decodeBase64(run string) []byte {
	trimmed := strings.TrimRight(run, "=")
	trimmed = trimmed[:len(trimmed)-len(trimmed)%4]
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(trimmed); err == nil {
			return b
		}
	}
	return nil
}

// base64Forms are the base64 texts that encode secret wherever it sits in a
// longer encoded text: for each of the three byte offsets, in the standard
// and URL-safe alphabets, the characters that secret alone decides (the
// first and last few also hold neighbouring bytes). Forms shorter than 8
// characters are left out: they would match unrelated text.
func base64Forms(secret string) []string {
	var out []string
	for shift := range 3 {
		text := strings.Repeat("\x00", shift) + secret
		lo, hi := (shift*8+5)/6, len(text)*8/6
		if hi-lo < 8 {
			continue
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			out = append(out, enc.EncodeToString([]byte(text))[lo:hi])
		}
	}
	return out
}
