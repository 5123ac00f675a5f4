package alibaba

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/auth/credentials"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// The credential variables, as the SDK's own chain names them
// (sdk/auth/credentials: the environment provider and the OIDC provider).
// Only these are read: the SDK's default chain also asks the ECS instance
// metadata service (100.100.100.200) for a RAM role's credentials, which a
// crawl never does (issue 28.15).
const (
	envKeyID         = "ALIBABA_CLOUD_ACCESS_KEY_ID"
	envKeySecret     = "ALIBABA_CLOUD_ACCESS_KEY_SECRET"
	envSecurityToken = "ALIBABA_CLOUD_SECURITY_TOKEN"
	envRoleARN       = "ALIBABA_CLOUD_ROLE_ARN"
	envOIDCProvider  = "ALIBABA_CLOUD_OIDC_PROVIDER_ARN"
	envOIDCTokenFile = "ALIBABA_CLOUD_OIDC_TOKEN_FILE"
	envRoleSession   = "ALIBABA_CLOUD_ROLE_SESSION_NAME"
	envSTSRegion     = "ALIBABA_CLOUD_STS_REGION"
)

const (
	// stsService is the name after alibaba. in --endpoint for the STS
	// endpoint AssumeRoleWithOIDC is sent to.
	stsService = "sts"
	// oidcDuration is the session the role is assumed for: the SDK's
	// default and STS's maximum for a role session (3600 s).
	oidcDuration = time.Hour
	// oidcRefreshBefore renews the session this long before it expires, as
	// the SDK's provider does (180 s).
	oidcRefreshBefore = 3 * time.Minute
	// maxSTSAnswerBytes bounds STS's answer.
	maxSTSAnswerBytes = 1 << 20
	// actionAssumeRoleWithOIDC names the STS call in errors and the replay.
	actionAssumeRoleWithOIDC = "AssumeRoleWithOIDC"
	defaultSessionName       = "gpuatlas-crawl"
)

// credential is the SDK credential New signs with, read from the environment:
// an AccessKey pair, with ALIBABA_CLOUD_SECURITY_TOKEN an STS token; without
// a pair, the role ALIBABA_CLOUD_ROLE_ARN assumed with the OIDC token in
// ALIBABA_CLOUD_OIDC_TOKEN_FILE (a GitHub Actions ID token) through the
// identity provider ALIBABA_CLOUD_OIDC_PROVIDER_ARN. secrets are the values
// errors must never show. Without either it returns an error wrapping
// providers.ErrNoCredentials.
func credential(cfg providers.Config, transport http.RoundTripper) (cred any, secrets []string, err error) {
	k, err := cfg.KeyOrRole(catalog.Alibaba, providers.KeyOrRoleVars{ID: envKeyID, Secret: envKeySecret, Token: envSecurityToken,
		TokenUse: "an STS token", Role: envRoleARN, Provider: envOIDCProvider, TokenFile: envOIDCTokenFile})
	switch {
	case err != nil:
		return nil, nil, err
	case k.Token != "":
		return credentials.NewStsTokenCredential(k.ID, k.Secret, k.Token), []string{k.ID, k.Secret, k.Token}, nil
	case k.ID != "":
		return credentials.NewAccessKeyCredential(k.ID, k.Secret), []string{k.ID, k.Secret}, nil
	}
	host, scheme, err := cfg.HostEndpoint(catalog.Alibaba, stsService)
	if err != nil {
		return nil, nil, err
	}
	if host == "" {
		host = "sts.aliyuncs.com"
		if r := cfg.Env(envSTSRegion); r != "" {
			host = "sts." + r + ".aliyuncs.com"
		}
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	o := &oidcCredentials{
		client:   &http.Client{Transport: transport, Timeout: timeout},
		endpoint: strings.ToLower(scheme) + "://" + host + "/",
		role:     k.Role, provider: k.Provider, tokenFile: k.TokenFile,
		session: cfg.Env(envRoleSession), clock: cfg.Now,
	}
	if o.session == "" {
		o.session = defaultSessionName
	}
	// The session is assumed now: a refused token is the provider's failure
	// before its crawl starts, and its keys are known to redact.
	cc, err := o.GetCredentials()
	if err != nil {
		return nil, nil, err
	}
	return o, []string{cc.AccessKeyId, cc.AccessKeySecret, cc.SecurityToken, o.lastToken}, nil
}

// oidcCredentials is an SDK credentials provider
// (credentials.CredentialsProvider) that assumes a RAM role with an OIDC
// token (STS AssumeRoleWithOIDC) and renews the session before it expires.
// It does what the SDK's OIDCCredentialsProvider does, but sends through the
// runner's transport (rate-limited, counted, pointed at a replay by
// --endpoint alibaba.sts) rather than a client of its own.
type oidcCredentials struct {
	client                    *http.Client
	endpoint                  string
	role, provider, tokenFile string
	session                   string
	clock                     func() time.Time

	mu        sync.Mutex
	cur       *credentials.Credentials
	expires   time.Time
	lastToken string
}

// GetCredentials returns the session's keys, assuming the role again when
// the session is about to expire.
func (o *oidcCredentials) GetCredentials() (*credentials.Credentials, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cur != nil && o.clock().Before(o.expires.Add(-oidcRefreshBefore)) {
		cc := *o.cur
		return &cc, nil
	}
	cc, expires, err := o.assume()
	if err != nil {
		return nil, err
	}
	o.cur, o.expires = cc, expires
	out := *cc
	return &out, nil
}

// GetProviderName names the provider as the SDK's does.
func (o *oidcCredentials) GetProviderName() string { return "oidc_role_arn" }

// assume makes one AssumeRoleWithOIDC call: the request the SDK's provider
// sends (an unsigned POST, the token in the form body).
func (o *oidcCredentials) assume() (*credentials.Credentials, time.Time, error) {
	fail := func(class, err error, detail string) (*credentials.Credentials, time.Time, error) {
		return nil, time.Time{}, &providers.CallError{Provider: catalog.Alibaba, Action: actionAssumeRoleWithOIDC, Class: class, Err: err,
			Detail: providers.Redact(detail, o.lastToken), Hint: "check " + envRoleARN + ", " + envOIDCProvider + " and the role's trust policy"}
	}
	token, err := providers.ReadTokenFile(envOIDCTokenFile, o.tokenFile)
	if err != nil {
		return fail(nil, err, err.Error())
	}
	o.lastToken = token
	query := url.Values{"Action": {actionAssumeRoleWithOIDC}, "Version": {"2015-04-01"}, "Format": {"JSON"},
		"Timestamp": {o.clock().UTC().Format("2006-01-02T15:04:05Z")}}
	form := url.Values{"RoleArn": {o.role}, "OIDCProviderArn": {o.provider}, "OIDCToken": {token},
		"RoleSessionName": {o.session}, "DurationSeconds": {strconv.Itoa(int(oidcDuration / time.Second))}}
	req, err := http.NewRequest(http.MethodPost, o.endpoint+"?"+query.Encode(), strings.NewReader(form.Encode()))
	if err != nil {
		return fail(nil, err, err.Error())
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := o.client.Do(req)
	if err != nil {
		return fail(providers.ErrUnavailable, err, err.Error())
	}
	defer func() { _ = resp.Body.Close() }() // read-only
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSTSAnswerBytes))
	if err != nil {
		return fail(providers.ErrUnavailable, err, err.Error())
	}
	var answer struct {
		Code, Message, RequestId string
		Credentials              struct {
			AccessKeyId, AccessKeySecret, SecurityToken, Expiration string
		}
	}
	decodeErr := json.Unmarshal(body, &answer)
	if resp.StatusCode != http.StatusOK {
		class := error(nil)
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			class = providers.ErrThrottled
		case resp.StatusCode >= 500:
			class = providers.ErrUnavailable
		default:
			class = providers.ErrAuth
		}
		return fail(class, fmt.Errorf("HTTP %d", resp.StatusCode), fmt.Sprintf("status %d %s: %s (request id %s)",
			resp.StatusCode, catalog.Excerpt(answer.Code), catalog.Excerpt(providers.Redact(answer.Message, token)), catalog.Excerpt(answer.RequestId)))
	}
	c := answer.Credentials
	expires, timeErr := time.Parse(time.RFC3339, c.Expiration)
	if decodeErr != nil || c.AccessKeyId == "" || c.AccessKeySecret == "" || c.SecurityToken == "" || timeErr != nil {
		return fail(nil, errors.New("answer without credentials"), "the answer holds no credentials with an expiration")
	}
	return &credentials.Credentials{AccessKeyId: c.AccessKeyId, AccessKeySecret: c.AccessKeySecret, SecurityToken: c.SecurityToken,
		ProviderName: o.GetProviderName()}, expires, nil
}
