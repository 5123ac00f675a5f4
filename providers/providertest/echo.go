package providertest

import (
	"context"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// EchoMarker starts every echo, so that a test can see the server's message
// reached the error it checks.
const EchoMarker = "echoed request:"

// Echo is what a careless server says back about a request: its
// Authorization header, its signed URL and its query.
func Echo(srvURL string, req replay.Request) string {
	q := url.Values{}
	for k, v := range req.Params {
		q.Set(k, v)
	}
	echo := EchoMarker + " Authorization: " + req.Header.Get("Authorization")
	for _, h := range tokenHeaders {
		if v := req.Header.Get(h); v != "" {
			echo += " " + h + ": " + v
		}
	}
	return echo + " url " + srvURL + req.Path + "?" + q.Encode() + " query " + q.Encode()
}

// tokenHeaders carry a session token beside the signature (AWS, Tencent).
var tokenHeaders = []string{"X-Amz-Security-Token", "X-TC-Token"}

var (
	// signedValue finds the credential and the signature in an Authorization
	// header of any of the five schemes.
	signedValue = regexp.MustCompile(`(?:Credential|Access|Signature)=([^,\s]+)`)
	// signingParams are query parameters whose values sign a request.
	signingParams = map[string]bool{"accesskeyid": true, "signature": true, "signaturenonce": true, "securitytoken": true,
		"x-amz-credential": true, "x-amz-signature": true, "x-amz-security-token": true}
)

// CheckEchoRedacted answers every request with the provider's own error
// (answer builds it from the request and Echo's text), asks the adapter for
// its regions and to crawl region, and fails t where a credential reaches an
// error's text: one of Env's values for the Factory's credential variables,
// or the credential, signature, nonce or token any request carried.
func (h Harness) CheckEchoRedacted(t *testing.T, region string, answer func(req replay.Request, echo string) *replay.Response) {
	t.Helper()
	srv := h.Start(t)
	srv.Fault = func(req replay.Request, _ int) *replay.Response { return answer(req, Echo(srv.URL, req)) }
	cfg := h.Config(srv)
	cfg.MaxAttempts = 1
	target := providers.Prepare(h.Unlimited(), cfg)
	if target.Err != nil {
		t.Fatal(target.Err)
	}
	_, regionsErr := target.Provider.Regions(context.Background())
	_, crawlErr := target.Provider.Crawl(context.Background(), region)
	if regionsErr == nil || !strings.Contains(regionsErr.Error(), EchoMarker) {
		t.Fatalf("regions: error %v does not carry the server's message; the test did not exercise redaction", regionsErr)
	}
	t.Logf("regions: %v", regionsErr)
	secrets := h.credentialValues()
	for _, r := range srv.Requests() {
		for _, m := range signedValue.FindAllStringSubmatch(r.Header.Get("Authorization"), -1) {
			secrets = append(secrets, m[1])
		}
		for _, h := range tokenHeaders {
			if v := r.Header.Get(h); v != "" {
				secrets = append(secrets, v)
			}
		}
		for k, v := range r.Params {
			if signingParams[strings.ToLower(k)] && v != "" {
				secrets = append(secrets, v, url.QueryEscape(v))
			}
		}
	}
	sort.Strings(secrets)
	for name, err := range map[string]error{"regions": regionsErr, "crawl": crawlErr} {
		if err == nil {
			continue
		}
		for _, s := range secrets {
			if strings.Contains(err.Error(), s) {
				t.Errorf("%s: error shows %q: %v", name, s, err)
			}
		}
	}
}

// credentialValues are the values Env gives the Factory's credential
// variables.
func (h Harness) credentialValues() []string {
	var out []string
	for _, name := range h.Factory.Credentials {
		if v := h.Env[name]; v != "" {
			out = append(out, v)
		}
	}
	return out
}
