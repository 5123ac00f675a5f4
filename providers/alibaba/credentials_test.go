package alibaba

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const testSecurityToken = "CAIS8gF1q6Ft5B2yfSjIr5bSTESTSTSTOKEN0001"

// stsHarness signs with an AccessKey pair and an STS token.
var stsHarness = providertest.Harness{Factory: Factory, Dialect: replay.Alibaba, Endpoints: providertest.Hosts("ecs"),
	Env: map[string]string{envKeyID: testKeyID, envKeySecret: testSecret, envSecurityToken: testSecurityToken}, Now: fixedNow}

// With ALIBABA_CLOUD_SECURITY_TOKEN set, every request carries the token in
// its SecurityToken parameter, as the RPC signer sends it (issue 32.4).
func TestCredentials_STSTokenReachesTheRequest(t *testing.T) {
	for _, r := range stsHarness.RegionsRequests(t, stsHarness.Start(t)) {
		if r.Params["SecurityToken"] != testSecurityToken || r.Params["AccessKeyId"] != testKeyID {
			t.Errorf("%s: SecurityToken %q, AccessKeyId %q; want the STS token with the key", r.Action, r.Params["SecurityToken"], r.Params["AccessKeyId"])
		}
	}
}

// The token is redacted like the keys when a server echoes the request.
func TestCredentials_STSTokenRedacted(t *testing.T) {
	stsHarness.CheckEchoRedacted(t, "cn-nanjing", func(req replay.Request, echo string) *replay.Response {
		return &replay.Response{Status: 400, ContentType: "application/json", Body: replay.AlibabaError("IncompleteSignature", echo)}
	})
}

const (
	testRoleARN      = "acs:ram::1234567890123456:role/gpuatlas-crawl"
	testOIDCProvider = "acs:ram::1234567890123456:oidc-provider/github"
	testOIDCToken    = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZXBvOmdwdWF0bGFzIn0.c2lnbmF0dXJlVEVTVA"
	stsKeyID         = "STS.NUgYrLnoC37mZZCNnAbez2yvK"
	stsSecret        = "stsSecretValue000000000000001"
	stsToken         = "CAISSTSTOKENFROMOIDC000000001"
)

// oidcHarness has no keys: the role is assumed with the OIDC token in file.
func oidcHarness(t *testing.T) providertest.Harness {
	return providertest.Harness{Factory: Factory, Dialect: replay.Alibaba, Endpoints: providertest.Hosts("ecs", stsService),
		Env: map[string]string{envRoleARN: testRoleARN, envOIDCProvider: testOIDCProvider, envOIDCTokenFile: providertest.TokenFile(t, testOIDCToken)}, Now: fixedNow}
}

func stsAnswer(req replay.Request, _ int) *replay.Response {
	if req.Action != actionAssumeRoleWithOIDC {
		return nil
	}
	return &replay.Response{Status: 200, ContentType: "application/json", Body: `{"RequestId":"3D57EAD2","Credentials":{"AccessKeyId":"` + stsKeyID +
		`","AccessKeySecret":"` + stsSecret + `","SecurityToken":"` + stsToken + `","Expiration":"` + fixedNow.Add(oidcDuration).Format("2006-01-02T15:04:05Z") + `"}}`}
}

// Without keys, ALIBABA_CLOUD_ROLE_ARN, _OIDC_PROVIDER_ARN and
// _OIDC_TOKEN_FILE assume the role (STS AssumeRoleWithOIDC, once, through the
// runner's transport), and the ECS calls are signed with the session's key
// and carry its token.
func TestCredentials_OIDCAssumesTheRole(t *testing.T) {
	h := oidcHarness(t)
	srv := h.Start(t)
	srv.Fault = stsAnswer
	var sts, ecs int
	for _, r := range h.RegionsRequests(t, srv) {
		if r.Action == actionAssumeRoleWithOIDC {
			sts++
			form, _ := url.ParseQuery(string(r.Body))
			if form.Get("OIDCToken") != testOIDCToken || form.Get("RoleArn") != testRoleARN || form.Get("OIDCProviderArn") != testOIDCProvider {
				t.Errorf("AssumeRoleWithOIDC form %v: want the token, the role and the provider", form)
			}
			continue
		}
		ecs++
		if r.Params["AccessKeyId"] != stsKeyID || r.Params["SecurityToken"] != stsToken {
			t.Errorf("%s: AccessKeyId %q, SecurityToken %q; want the session's", r.Action, r.Params["AccessKeyId"], r.Params["SecurityToken"])
		}
	}
	if sts != 1 || ecs == 0 {
		t.Errorf("%d AssumeRoleWithOIDC calls and %d ECS calls, want 1 and some", sts, ecs)
	}
}

// A refused token fails the provider (not skipped) with STS's code, and the
// token does not reach the message.
func TestCredentials_OIDCRefused(t *testing.T) {
	h := oidcHarness(t)
	srv := h.Start(t)
	srv.Fault = func(req replay.Request, _ int) *replay.Response {
		return &replay.Response{Status: 400, ContentType: "application/json",
			Body: `{"RequestId":"R1","Code":"AuthenticationFail.OIDCToken.Invalid","Message":"bad token ` + testOIDCToken + `"}`}
	}
	if err := h.PrepareRefused(t, srv, testOIDCToken); !errors.Is(err, providers.ErrAuth) || !strings.Contains(err.Error(), "AuthenticationFail.OIDCToken.Invalid") {
		t.Fatalf("err = %v, want an auth failure naming STS's code", err)
	}
}
