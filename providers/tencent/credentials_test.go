package tencent

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const testSessionToken = "TCSESSIONTOKENtest0000000000000000000001"

// tokenHarness signs with a temporary key pair and its session token.
var tokenHarness = providertest.Harness{Factory: WithFamilies(data.FS), Dialect: replay.Tencent, Endpoints: providertest.Hosts("cvm"),
	Env: map[string]string{envSecretID: testSecretID, envSecretKey: testSecretKey, envSessionToken: testSessionToken}, Now: fixedNow}

// With TENCENTCLOUD_SESSION_TOKEN set, every request carries it in the
// X-TC-Token header, as the SDK sends a temporary key's token (issue 32.4).
func TestCredentials_SessionTokenReachesTheRequest(t *testing.T) {
	for _, r := range tokenHarness.RegionsRequests(t, tokenHarness.Start(t)) {
		if got := r.Header.Get("X-TC-Token"); got != testSessionToken {
			t.Errorf("%s: X-TC-Token %q, want the session token", r.Action, got)
		}
	}
}

// The token is redacted like the keys when a server echoes the request.
func TestCredentials_SessionTokenRedacted(t *testing.T) {
	tokenHarness.CheckEchoRedacted(t, "ap-seoul", func(req replay.Request, echo string) *replay.Response {
		return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError("AuthFailure.SignatureFailure", echo)}
	})
}

const (
	testRoleARN      = "qcs::cam::uin/100000000001:roleName/gpuatlas-crawl"
	testOIDCProvider = "github-actions"
	testWebToken     = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmdwdWF0bGFzIn0.dGVuY2VudFNJR05BVFVSRQ"
	stsSecretID      = "AKIDsessionFROMsts000000000000001"
	stsSecretKey     = "sessionKEYfromSTS00000000000000001"
	stsToken         = "STSTOKENfromWEBIDENTITY0000000001"
)

func webIdentityHarness(t *testing.T) providertest.Harness {
	return providertest.Harness{Factory: WithFamilies(data.FS), Dialect: replay.Tencent, Endpoints: providertest.Hosts("cvm", stsService),
		Env: map[string]string{envRoleARN: testRoleARN, envOIDCProvider: testOIDCProvider, envOIDCTokenFile: providertest.TokenFile(t, testWebToken)}, Now: fixedNow}
}

// Without a key pair, TKE_ROLE_ARN, TKE_PROVIDER_ID and
// TKE_WEB_IDENTITY_TOKEN_FILE assume the role (STS
// AssumeRoleWithWebIdentity, unsigned, once, through the runner's transport)
// and the CVM calls are signed with the session's key and carry its token.
func TestCredentials_WebIdentityAssumesTheRole(t *testing.T) {
	h := webIdentityHarness(t)
	srv := h.Start(t)
	expires := strconv.FormatInt(fixedNow.Add(roleDuration).Unix(), 10)
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action != actionAssumeRole {
			return nil
		}
		return &replay.Response{Status: 200, ContentType: "application/json", Body: `{"Response":{"Credentials":{"Token":"` + stsToken +
			`","TmpSecretId":"` + stsSecretID + `","TmpSecretKey":"` + stsSecretKey + `"},"ExpiredTime":` + expires + `,"RequestId":"r1"}}`}
	}
	var sts, cvm int
	for _, r := range h.RegionsRequests(t, srv) {
		if r.Action == actionAssumeRole {
			sts++
			var body map[string]any
			_ = json.Unmarshal(r.Body, &body)
			if body["WebIdentityToken"] != testWebToken || body["RoleArn"] != testRoleARN || body["ProviderId"] != testOIDCProvider {
				t.Errorf("AssumeRoleWithWebIdentity body %v: want the token, the role and the provider", body)
			}
			if a := r.Header.Get("Authorization"); a != "SKIP" {
				t.Errorf("AssumeRoleWithWebIdentity signed (%q), want it unsigned", a)
			}
			continue
		}
		cvm++
		if a := r.Header.Get("Authorization"); !strings.Contains(a, "Credential="+stsSecretID+"/") || r.Header.Get("X-TC-Token") != stsToken {
			t.Errorf("%s: Authorization %q, X-TC-Token %q; want the session's key and token", r.Action, a, r.Header.Get("X-TC-Token"))
		}
	}
	if sts != 1 || cvm == 0 {
		t.Errorf("%d AssumeRoleWithWebIdentity calls and %d CVM calls, want 1 and some", sts, cvm)
	}
}

// A refused token fails the provider (not skipped) with STS's code, and the
// token does not reach the message.
func TestCredentials_WebIdentityRefused(t *testing.T) {
	h := webIdentityHarness(t)
	srv := h.Start(t)
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		return &replay.Response{Status: 200, ContentType: "application/json", Body: replay.TencentError("InvalidParameter.WebIdentityTokenError", "bad token "+testWebToken)}
	}
	if err := h.PrepareRefused(t, srv, testWebToken); !strings.Contains(err.Error(), "WebIdentityTokenError") {
		t.Fatalf("err = %v, want a failure naming STS's code", err)
	}
}
