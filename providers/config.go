package providers

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Config is what a provider's constructor gets from the command line and the
// environment.
type Config struct {
	// Endpoints overrides service endpoints, keyed by service name without the
	// provider prefix ("ec2" for --endpoint aws.ec2=URL).
	Endpoints map[string]string
	// Transport carries every HTTP request the SDK sends; the runner's transport
	// rate-limits and counts them. Adapters must use it.
	Transport http.RoundTripper
	// Getenv reads credentials and settings; os.Getenv in production.
	Getenv func(string) string
	// Clock stamps fetched_at on offers.
	Clock func() time.Time
	// Timeout bounds one HTTP request.
	Timeout time.Duration
	// MaxAttempts bounds the attempts of one API call against server errors,
	// resets and timeouts (1 = no retries); throttled answers have their own,
	// longer patience (Retry.Throttles).
	MaxAttempts int
	// Unlimited turns off the request-rate limits (the transport's and the
	// per-API ones). Only for servers that have no limits to respect: local
	// replays and mirrors the user runs.
	Unlimited bool
	// APILimiters keep the factory's per-API limits (Factory.APILimits); Prepare
	// builds them, none when Unlimited. An adapter waits on them before each
	// call of a limited action.
	APILimiters APILimiters
	// Backoff is the base delay of exponential backoff between attempts; zero
	// keeps the adapter's default. Prepare sets it from the provider's rate
	// when it is unset (RetryBackoff).
	Backoff time.Duration
	// Stats counts the provider's calls, faults and retries; Prepare makes it
	// and adapters hand it to their Retry (NewRetry does).
	Stats *Stats
	// Log receives the SDKs' own log lines, already made safe (see SDKLog);
	// the CLI passes its reporter. Nil writes them to standard error.
	Log func(line string)
}

// Env reads an environment variable through Getenv (os.Getenv when unset).
func (c Config) Env(name string) string {
	if c.Getenv == nil {
		return os.Getenv(name)
	}
	return c.Getenv(name)
}

// Now is the time by Clock (the system clock when unset).
func (c Config) Now() time.Time {
	if c.Clock == nil {
		return time.Now()
	}
	return c.Clock()
}

// BaseTransport is the transport the adapter's SDK must send through:
// Transport, or DefaultBaseTransport when unset (an adapter built outside
// Prepare).
func (c Config) BaseTransport() http.RoundTripper {
	if c.Transport == nil {
		return DefaultBaseTransport()
	}
	return c.Transport
}

// AllowMetadataCredentials is the variable that lets an adapter's SDK ask a
// metadata service (AWS's instance metadata service, 169.254.169.254) for an
// instance role's credentials: "1" or "true". Unset, credentials come only
// from the environment and the standard files (issue 28.15): a crawl on a
// machine without credentials must not reach out to a link-local service.
const AllowMetadataCredentials = "GPUATLAS_ALLOW_METADATA_CREDENTIALS"

// MetadataCredentialsAllowed says whether AllowMetadataCredentials is set.
func (c Config) MetadataCredentialsAllowed() bool {
	v := strings.ToLower(strings.TrimSpace(c.Env(AllowMetadataCredentials)))
	return v == "1" || v == "true"
}

// Credentials reads the named environment variables, all of which the
// provider needs; when one is empty it returns an error wrapping
// ErrNoCredentials that names them all ("alibaba: no credentials configured:
// set ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET").
func (c Config) Credentials(p catalog.Provider, names ...string) ([]string, error) {
	values := make([]string, len(names))
	for i, n := range names {
		values[i] = c.Env(n)
		if values[i] == "" {
			return nil, fmt.Errorf("%s: %w: set %s", p, ErrNoCredentials, strings.Join(names, " and "))
		}
	}
	return values, nil
}

// KeyOrRoleVars names the environment variables of a cloud whose credentials
// are a key pair (with a session token, a temporary pair) or, without a pair,
// a role assumed with an OIDC token file through an identity provider
// (Alibaba's and Tencent's). TokenUse says what the session token is, in the
// message that asks for credentials ("an STS token").
type KeyOrRoleVars struct {
	ID, Secret, Token, TokenUse string
	Role, Provider, TokenFile   string
}

// KeyOrRole is what KeyOrRoleVars read: a key pair (ID and Secret, with Token
// when set), or else a role (Role, Provider and TokenFile).
type KeyOrRole struct {
	ID, Secret, Token         string
	Role, Provider, TokenFile string
}

// KeyOrRole reads the variables v names for provider p. With neither a whole
// pair nor a whole role it returns an error wrapping ErrNoCredentials that
// names them all.
func (c Config) KeyOrRole(p catalog.Provider, v KeyOrRoleVars) (KeyOrRole, error) {
	if id, secret := c.Env(v.ID), c.Env(v.Secret); id != "" && secret != "" {
		return KeyOrRole{ID: id, Secret: secret, Token: c.Env(v.Token)}, nil
	}
	k := KeyOrRole{Role: c.Env(v.Role), Provider: c.Env(v.Provider), TokenFile: c.Env(v.TokenFile)}
	if k.Role == "" || k.Provider == "" || k.TokenFile == "" {
		return KeyOrRole{}, fmt.Errorf("%s: %w: set %s and %s (and %s for %s), or %s, %s and %s",
			p, ErrNoCredentials, v.ID, v.Secret, v.Token, v.TokenUse, v.Role, v.Provider, v.TokenFile)
	}
	return k, nil
}

// maxTokenFileBytes bounds an OIDC token file (a JWT is a few KB).
const maxTokenFileBytes = 64 << 10

// ReadTokenFile reads the OIDC token in the file at path, which variable
// names: a regular file of at most 64 KiB, trimmed, not empty.
func ReadTokenFile(variable, path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", variable, err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxTokenFileBytes {
		return "", fmt.Errorf("%s: %s is not a regular file of at most %d KiB", variable, catalog.Excerpt(path), maxTokenFileBytes>>10)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", variable, err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("%s: %s is empty", variable, catalog.Excerpt(path))
	}
	return token, nil
}
