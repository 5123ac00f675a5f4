package providers

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// Every credential form of the five clouds' request signing is removed from a
// text, whether it appears as a header line, in Go's printing of a header
// map, in a query, in a URL or in JSON.
func TestRedact_EveryCredentialForm(t *testing.T) {
	tests := []redactCase{
		{"aws sigv4 header",
			"Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260825/us-east-1/ec2/aws4_request, SignedHeaders=host;x-amz-date, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024",
			[]string{"AKIAIOSFODNN7EXAMPLE", "20260825/us-east-1/ec2/aws4_request", "fe5f80f77d5f"}, []string{"Authorization"}},
		{"aws sigv4 query",
			"GET https://ec2.amazonaws.com/?Action=DescribeRegions&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20260825%2Fus-east-1%2Fec2%2Faws4_request&X-Amz-Security-Token=IQoJb3JpZ2luX2Vj&X-Amz-Signature=abc123 failed; query X-Amz-Credential=AKIAIOSFODNN7EXAMPLE/20260825/us-east-1/ec2/aws4_request&X-Amz-Signature=abc123",
			[]string{"AKIAIOSFODNN7EXAMPLE", "IQoJb3JpZ2luX2Vj", "abc123"}, []string{"https://ec2.amazonaws.com/[request redacted]", "failed"}},
		{"alibaba signed url",
			`Post "http://127.0.0.1:4242/?AccessKeyId=LTAI5tTESTKEYID00000001&Action=DescribePrice&Signature=abc%2Bdef%3D&SignatureNonce=123&SecurityToken=STS.tok": context deadline exceeded`,
			[]string{"LTAI5tTESTKEYID00000001", "abc%2Bdef", "SignatureNonce=123", "STS.tok", "Action=DescribePrice"}, []string{"http://127.0.0.1:4242/[request redacted]", "context deadline exceeded"}},
		{"alibaba query without url",
			"string to sign: /?AccessKeyId=LTAI5tTESTKEYID00000001&SignatureNonce=77&Signature=xyz; AccessKeyId: LTAI5tTESTKEYID00000001",
			[]string{"LTAI5tTESTKEYID00000001", "=77", "xyz"}, []string{"string to sign"}},
		{"tencent tc3 header",
			"map[Authorization:[TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2026-08-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c] X-Tc-Action:[DescribeRegions]]",
			[]string{"AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", "2230eefd229f"}, []string{"X-Tc-Action:[DescribeRegions]"}},
		{"huawei sdk-hmac header",
			`{"Authorization":"SDK-HMAC-SHA256 Access=HWAKEXAMPLE0001, SignedHeaders=host;x-sdk-date, Signature=9f2f3bd2d35ed1ab"}`,
			[]string{"HWAKEXAMPLE0001", "9f2f3bd2d35ed1ab"}, []string{"Authorization"}},
		{"huawei access parameter in prose",
			"verify aksk signature fail: Access=HWAKEXAMPLE0001, SignedHeaders=host, Signature=9f2f3bd2d35ed1ab",
			[]string{"HWAKEXAMPLE0001", "9f2f3bd2d35ed1ab"}, []string{"verify aksk signature fail", "SignedHeaders=host"}},
		{"volcengine hmac header",
			"Authorization: HMAC-SHA256 Credential=AKLTvolcTestKeyExample0001/20260825/cn-beijing/ecs/request, SignedHeaders=host;x-date, Signature=0a1b2c3d4e5f",
			[]string{"AKLTvolcTestKeyExample0001", "20260825/cn-beijing/ecs/request", "0a1b2c3d4e5f"}, nil},
		{"bearer token",
			"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.secret",
			[]string{"eyJhbGciOiJIUzI1NiJ9"}, nil},
		{"literal secrets, plain and URL-encoded",
			"key wJalrXUtnFEMI/K7MDENG refused; in a query wJalrXUtnFEMI%2FK7MDENG",
			[]string{"wJalrXUtnFEMI"}, []string{"refused", "in a query"}},
		{"nothing to redact",
			"SignatureDoesNotMatch: The request signature we calculated does not match; Access: denied; see http://example.com",
			nil, []string{"SignatureDoesNotMatch: The request signature we calculated does not match; Access: denied; see http://example.com"}},
	}
	checkRedact(t, tests, "wJalrXUtnFEMI/K7MDENG")
}

// A server that echoes the request base64-encoded: the encoded Authorization
// header is removed whole, and a known secret is removed at whatever offset a
// longer encoded text holds it, in either alphabet.
func TestRedact_Base64Forms(t *testing.T) {
	b64 := func(enc *base64.Encoding, s string) string { return enc.EncodeToString([]byte(s)) }
	header := "SDK-HMAC-SHA256 Access=HWAKEXAMPLE0001, SignedHeaders=host;x-sdk-date, Signature=9f2f3bd2d35ed1ab"
	const secret = "VEAKsecretKeyId0123456789"
	tests := []redactCase{
		{"encoded authorization header", "verify fail; header was " + b64(base64.StdEncoding, header) + " (base64)",
			[]string{b64(base64.StdEncoding, header)[:40]}, []string{"verify fail; header was ", " (base64)"}},
		{"url-safe, unpadded", "h=" + b64(base64.RawURLEncoding, "HMAC-SHA256 Credential=AKLTx/20260101/cn-beijing/ecs/request"),
			[]string{b64(base64.RawURLEncoding, "HMAC-SHA256 Credential=AKLTx")[:24]}, []string{"h="}},
		{"a plain word is no base64", "DescribeInstanceTypeOfferingsAndMore failed", nil, []string{"DescribeInstanceTypeOfferingsAndMore failed"}},
	}
	for shift := range 3 {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			text := b64(enc, strings.Repeat("x", shift)+"id="+secret+";")
			tests = append(tests, redactCase{fmt.Sprintf("known secret at offset %d", shift), "got " + text, base64Forms(secret), []string{"got "}})
		}
	}
	checkRedact(t, tests, secret)
	if forms := base64Forms(secret); len(forms) != 6 {
		t.Errorf("%d base64 forms of a 25-byte secret, want 6 (3 offsets × 2 alphabets)", len(forms))
	}
}

// A credential written URL-encoded, once or twice, in any case, after an
// encoded separator (%26, %3F: no word boundary before the name) is removed
// like a plain one.
func TestRedact_URLEncodedCredentials(t *testing.T) {
	tests := []redactCase{
		{"encoded signature after encoded ampersand",
			"request %3FAction%3DDescribeRegions%26Signature%3Dabc123secret%26X-Amz-Credential%3DAKIAIOSFODNN7EXAMPLE%252F20260825 failed",
			[]string{"abc123secret", "AKIAIOSFODNN7EXAMPLE"}, []string{"failed", "Action%3DDescribeRegions"}},
		{"lower-case escapes and names",
			"x%26x-amz-signature%3dfe5f80f77d5fa3be%26x-amz-security-token%3dIQoJb3JpZ2luX2Vj",
			[]string{"fe5f80f77d5fa3be", "IQoJb3JpZ2luX2Vj"}, nil},
		{"double-encoded",
			"echo: a%2526Signature%253Dd0ublesecret%2526AccessKeyId%253DLTAI5tTESTKEYID00000001",
			[]string{"d0ublesecret", "LTAI5tTESTKEYID00000001"}, []string{"echo: "}},
		{"encoded credential in a header value",
			"Authorization%3A%20AWS4-HMAC-SHA256%20Credential%3DAKIAIOSFODNN7EXAMPLE%2F20260825%2C%20Signature%3Dfe5f80f77d5f",
			[]string{"AKIAIOSFODNN7EXAMPLE", "fe5f80f77d5f"}, nil},
		{"encoded JSON colon",
			"%22SecurityToken%22%3A%22STS.tok3n%22 rejected",
			[]string{"STS.tok3n"}, []string{"rejected"}},
		{"encoded words without a credential stay",
			"SignatureDoesNotMatch%3A%20see%20docs",
			nil, []string{"SignatureDoesNotMatch%3A%20see%20docs"}},
	}
	checkRedact(t, tests)
}

// A known secret is removed however it was percent-encoded: once, twice,
// with lower-case hex digits.
func TestRedact_EncodedSecret(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG+bPx"
	for _, in := range []string{
		"k=wJalrXUtnFEMI%2FK7MDENG%2BbPx", "k=wJalrXUtnFEMI%252FK7MDENG%252BbPx",
		"k=wJalrXUtnFEMI%2fK7MDENG%2bbPx", "k=wJalrXUtnFEMI%252fK7MDENG%252bbPx",
	} {
		if got := Redact(in, secret); strings.Contains(got, "K7MDENG") {
			t.Errorf("Redact(%q) = %q: the secret is left", in, got)
		}
	}
}

// redactCase is a text for Redact, what of it must go and what must stay.
type redactCase struct {
	name  string
	in    string
	leaks []string // none may remain
	keeps []string // what the reader still needs
}

// checkRedact runs Redact with the secrets on each case, a subtest each.
func checkRedact(t *testing.T, tests []redactCase, secrets ...string) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.in, secrets...)
			for _, s := range tt.leaks {
				if strings.Contains(got, s) {
					t.Errorf("Redact left %q in %q", s, got)
				}
			}
			for _, s := range tt.keeps {
				if !strings.Contains(got, s) {
					t.Errorf("Redact(%q) = %q, lost %q", tt.in, got, s)
				}
			}
		})
	}
}
