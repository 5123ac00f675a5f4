package tencent

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common"
	tchttp "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common/http"
	"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common/json"
	"github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common/profile"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// The credential variables. The key pair is what the SDK's environment
// provider reads; TENCENTCLOUD_SESSION_TOKEN is the STS token that goes with a
// temporary pair (the SDK sends it as X-TC-Token); the TKE_* variables are the
// ones the SDK's OIDC provider (common.DefaultTkeOIDCRoleArnProvider) reads
// for AssumeRoleWithWebIdentity. Only these are read: the SDK's default chain
// also asks the CVM metadata service (metadata.tencentyun.com) for a role's
// credentials, which a crawl never does (issue 28.15).
const (
	envSecretID      = "TENCENTCLOUD_SECRET_ID"
	envSecretKey     = "TENCENTCLOUD_SECRET_KEY"
	envSessionToken  = "TENCENTCLOUD_SESSION_TOKEN"
	envRoleARN       = "TKE_ROLE_ARN"
	envOIDCProvider  = "TKE_PROVIDER_ID"
	envOIDCTokenFile = "TKE_WEB_IDENTITY_TOKEN_FILE"
	envSTSRegion     = "TKE_REGION"
)

const (
	// stsService is the name after tencent. in --endpoint for the STS
	// endpoint AssumeRoleWithWebIdentity is sent to.
	stsService = "sts"
	stsHost    = "sts.tencentcloudapi.com"
	// actionAssumeRole names the STS call in errors and the replay.
	actionAssumeRole = "AssumeRoleWithWebIdentity"
	// roleDuration is the session asked for: the SDK's OIDC provider's
	// default (7200 s).
	roleDuration = 2 * time.Hour
	// roleRefreshBefore renews the session this long before it expires.
	roleRefreshBefore = 5 * time.Minute
	roleSessionName   = "gpuatlas-crawl"
	defaultSTSRegion  = homeRegion
	stsAPIVersion     = "2018-08-13"
	stsServiceName    = "sts"
)

// credential is the SDK credential New signs with, read from the environment:
// the key pair (with TENCENTCLOUD_SESSION_TOKEN, a temporary one), or
// without a pair the role TKE_ROLE_ARN assumed with the OIDC token in
// TKE_WEB_IDENTITY_TOKEN_FILE through the identity provider TKE_PROVIDER_ID.
// secrets are the values errors must never show. Without either it returns
// an error wrapping providers.ErrNoCredentials.
func credential(cfg providers.Config, transport http.RoundTripper, timeout time.Duration) (common.CredentialIface, []string, error) {
	k, err := cfg.KeyOrRole(catalog.Tencent, providers.KeyOrRoleVars{ID: envSecretID, Secret: envSecretKey, Token: envSessionToken,
		TokenUse: "a temporary key", Role: envRoleARN, Provider: envOIDCProvider, TokenFile: envOIDCTokenFile})
	switch {
	case err != nil:
		return nil, nil, err
	case k.Token != "":
		return common.NewTokenCredential(k.ID, k.Secret, k.Token), []string{k.ID, k.Secret, k.Token}, nil
	case k.ID != "":
		return common.NewCredential(k.ID, k.Secret), []string{k.ID, k.Secret}, nil
	}
	host, scheme, err := cfg.HostEndpoint(catalog.Tencent, stsService)
	if err != nil {
		return nil, nil, err
	}
	if host == "" {
		host = stsHost
	}
	region := cfg.Env(envSTSRegion)
	if region == "" {
		region = defaultSTSRegion
	}
	cpf := profile.NewClientProfile()
	cpf.HttpProfile.Endpoint, cpf.HttpProfile.Scheme, cpf.HttpProfile.ReqMethod = host, scheme, http.MethodPost
	cpf.HttpProfile.ReqTimeout = int((timeout + time.Second - 1) / time.Second)
	cpf.RateLimitExceededMaxRetries, cpf.NetworkFailureMaxRetries = 0, 0
	client := common.NewCommonClient(nil, region, cpf)
	client.WithHttpTransport(statusTransport{transport})
	client.WithLogger(providers.Printf(cfg.SDKLog(catalog.Tencent)))
	w := &webIdentity{client: client, role: k.Role, provider: k.Provider, tokenFile: k.TokenFile, clock: cfg.Now}
	// The session is assumed now: a refused token is the provider's failure
	// before its crawl starts, and the session's keys are known to redact.
	if err := w.renew(); err != nil {
		return nil, nil, err
	}
	return w, []string{w.id, w.key, w.token, w.webToken}, nil
}

// webIdentity is an SDK credential (common.CredentialIface) holding a role
// session assumed with STS AssumeRoleWithWebIdentity, renewed before it
// expires. It sends the request the SDK's OIDCRoleArnProvider sends
// (unsigned), but through the runner's transport and the configured endpoint.
type webIdentity struct {
	client                    *common.Client
	role, provider, tokenFile string
	clock                     func() time.Time

	mu                       sync.Mutex
	id, key, token, webToken string
	expires                  time.Time
}

// GetCredential returns the session's key and token, renewing the session
// when it is about to expire; a failed renewal keeps the old session, whose
// refusal then fails the calls with an authentication error.
func (w *webIdentity) GetCredential() (string, string, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.clock().Before(w.expires.Add(-roleRefreshBefore)) {
		_ = w.renewLocked()
	}
	return w.id, w.key, w.token
}

func (w *webIdentity) GetSecretId() string  { id, _, _ := w.GetCredential(); return id }
func (w *webIdentity) GetSecretKey() string { _, key, _ := w.GetCredential(); return key }
func (w *webIdentity) GetToken() string     { _, _, token := w.GetCredential(); return token }

func (w *webIdentity) renew() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.renewLocked()
}

// renewLocked makes one AssumeRoleWithWebIdentity call.
func (w *webIdentity) renewLocked() error {
	errs := providers.CallErrors{Provider: catalog.Tencent, Classify: classify,
		Hint: "check " + envRoleARN + ", " + envOIDCProvider + " and the role's trust policy"}
	webToken, err := providers.ReadTokenFile(envOIDCTokenFile, w.tokenFile)
	if err != nil {
		return &providers.CallError{Provider: catalog.Tencent, Action: actionAssumeRole, Err: err, Detail: err.Error()}
	}
	w.webToken = webToken
	errs.Secrets = []string{webToken}
	req := tchttp.NewCommonRequest(stsServiceName, stsAPIVersion, actionAssumeRole)
	req.SetSkipSign(true)
	if err := req.SetActionParameters(map[string]any{
		"ProviderId": w.provider, "WebIdentityToken": webToken, "RoleArn": w.role,
		"RoleSessionName": roleSessionName, "DurationSeconds": int64(roleDuration / time.Second),
	}); err != nil {
		return errs.Wrap(err, actionAssumeRole, "")
	}
	resp := tchttp.NewCommonResponse()
	if err := w.client.Send(req, resp); err != nil {
		return errs.Wrap(err, actionAssumeRole, "")
	}
	var answer struct {
		Response struct {
			Credentials struct{ Token, TmpSecretId, TmpSecretKey string }
			ExpiredTime int64
		}
	}
	if err := json.Unmarshal(resp.GetBody(), &answer); err != nil || answer.Response.Credentials.TmpSecretId == "" ||
		answer.Response.Credentials.TmpSecretKey == "" || answer.Response.ExpiredTime <= 0 {
		return &providers.CallError{Provider: catalog.Tencent, Action: actionAssumeRole, Err: fmt.Errorf("answer without credentials"),
			Detail: "the answer holds no credentials with an expiry time"}
	}
	c := answer.Response.Credentials
	w.id, w.key, w.token = c.TmpSecretId, c.TmpSecretKey, c.Token
	w.expires = time.Unix(answer.Response.ExpiredTime, 0)
	return nil
}
