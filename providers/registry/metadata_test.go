package registry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/aws"
)

// metadataService stands for every metadata service an SDK may ask for an
// instance role's credentials: AWS's (AWS_EC2_METADATA_SERVICE_ENDPOINT) and,
// through a proxy on http.DefaultTransport, those the SDKs name by a fixed
// address (Alibaba's 100.100.100.200, Tencent's metadata.tencentyun.com,
// Huawei's 169.254.169.254). It answers AWS's IMDSv2 calls with an instance
// role's credentials and counts every request.
type metadataService struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func startMetadataService(t *testing.T) *metadataService {
	m := &metadataService{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.seen = append(m.seen, r.Method+" "+r.Host+r.URL.Path)
		m.mu.Unlock()
		switch p := r.URL.Path; {
		case r.Method == http.MethodPut && p == "/latest/api/token":
			w.Header().Set("X-Aws-Ec2-Metadata-Token-Ttl-Seconds", "21600")
			_, _ = w.Write([]byte("imds-session-token"))
		case strings.HasSuffix(p, "/security-credentials/"):
			_, _ = w.Write([]byte("gpuatlas-instance-role"))
		case strings.HasSuffix(p, "/security-credentials/gpuatlas-instance-role"):
			_, _ = w.Write([]byte(`{"Code":"Success","Type":"AWS-HMAC","AccessKeyId":"ASIAINSTANCEROLE0001","SecretAccessKey":"instanceRoleSecret",` +
				`"Token":"instanceRoleToken","Expiration":"` + time.Now().Add(6*time.Hour).UTC().Format(time.RFC3339) + `","LastUpdated":"` + time.Now().UTC().Format(time.RFC3339) + `"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(m.Close)
	// Anything sent through the default transport (the SDKs' own clients for
	// fixed metadata addresses) goes to the listener, whatever its host.
	to, _ := url.Parse(m.URL)
	saved := http.DefaultTransport
	http.DefaultTransport = &http.Transport{Proxy: http.ProxyURL(to)}
	t.Cleanup(func() { http.DefaultTransport = saved })
	return m
}

func (m *metadataService) requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.seen...)
}

// noCredentials empties every credential variable and points every SDK's
// files and metadata settings at nothing but the listener.
func noCredentials(t *testing.T, m *metadataService) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, f := range All {
		for _, name := range f.Credentials {
			t.Setenv(name, "")
		}
	}
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull, "AWS_EC2_METADATA_DISABLED": "",
		"AWS_EC2_METADATA_SERVICE_ENDPOINT": m.URL, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "", "AWS_CONTAINER_CREDENTIALS_FULL_URI": "",
		"AWS_WEB_IDENTITY_TOKEN_FILE": "", "AWS_ROLE_ARN": "", "AWS_REGION": "us-east-1",
		// The Alibaba SDK's chain asks 100.100.100.200 for this role.
		"ALIBABA_CLOUD_ECS_METADATA": "gpuatlas-instance-role", "ALIBABA_CLOUD_CREDENTIALS_FILE": os.DevNull,
		providers.AllowMetadataCredentials: "",
	} {
		t.Setenv(k, v)
	}
}

// A crawl without credentials asks no metadata service: every provider is
// skipped for want of credentials and the listener gets no request (issue
// 28.15). The AWS SDK's default chain used to ask the instance metadata
// service.
func TestCrawl_NoCredentialsAsksNoMetadataService(t *testing.T) {
	m := startMetadataService(t)
	noCredentials(t, m)
	var targets []providers.Target
	for _, f := range All {
		target := providers.Prepare(f, providers.Config{Getenv: os.Getenv, Timeout: 2 * time.Second})
		if !errors.Is(target.Err, providers.ErrNoCredentials) {
			t.Errorf("%s: %v, want no credentials", f.ID, target.Err)
		}
		targets = append(targets, target)
	}
	snap, err := providers.Crawl(context.Background(), targets, providers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range snap.Coverage {
		if c.Status != catalog.CoverageSkipped {
			t.Errorf("%s: %s, want skipped", c.Provider, c.Status)
		}
	}
	if got := m.requests(); len(got) != 0 {
		t.Errorf("a metadata service was asked: %q", got)
	}
}

// With GPUATLAS_ALLOW_METADATA_CREDENTIALS=1 the AWS adapter takes an
// instance role's credentials from the metadata service.
func TestCrawl_MetadataCredentialsOptIn(t *testing.T) {
	m := startMetadataService(t)
	noCredentials(t, m)
	t.Setenv(providers.AllowMetadataCredentials, "1")
	target := providers.Prepare(aws.Factory, providers.Config{Getenv: os.Getenv, Timeout: 2 * time.Second})
	if target.Err != nil {
		t.Fatalf("opted in: %v, want the instance role's credentials", target.Err)
	}
	if got := m.requests(); len(got) == 0 {
		t.Error("opted in, yet the metadata service was not asked")
	}
}
