// Package replayset lists the recorded responses of every provider and starts
// local replay servers for all of them, with the --endpoint flags and test
// credentials a crawl needs to reach them. `make data` and `make nightly` use it.
package replayset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// Fixture is one provider's recorded responses and how a crawl reaches them.
type Fixture struct {
	Provider  catalog.Provider
	Dir       string // relative to the repository root
	Dialect   replay.Dialect
	Endpoints func(s *replay.Server) []string
	Env       map[string]string // test credentials for the replay (never real ones)
	// EnvFiles are test credentials that name a file: the variable and the
	// file's path relative to the repository root (Start joins it to root).
	EnvFiles map[string]string
}

// Fixtures lists every provider's recorded responses, in display order.
func Fixtures() []Fixture {
	return []Fixture{
		{
			Provider: catalog.AWS, Dir: "providers/aws/testdata/replay", Dialect: replay.AWS,
			Endpoints: func(s *replay.Server) []string {
				return []string{"aws.ec2=" + s.URL, "aws.pricing=" + s.URL, "aws.spotadvisor=" + s.URL}
			},
			Env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDREPLAY", "AWS_SECRET_ACCESS_KEY": "replay-secret", "AWS_REGION": "us-east-1"},
		},
		{
			Provider: catalog.Alibaba, Dir: "providers/alibaba/testdata/replay", Dialect: replay.Alibaba,
			Endpoints: func(s *replay.Server) []string { return []string{"alibaba.ecs=" + s.URL} },
			Env:       map[string]string{"ALIBABA_CLOUD_ACCESS_KEY_ID": "LTAIREPLAY", "ALIBABA_CLOUD_ACCESS_KEY_SECRET": "replay-secret"},
		},
		{
			Provider: catalog.Tencent, Dir: "providers/tencent/testdata/replay", Dialect: replay.Tencent,
			Endpoints: func(s *replay.Server) []string { return []string{"tencent.cvm=" + s.URL} },
			Env:       map[string]string{"TENCENTCLOUD_SECRET_ID": "AKIDREPLAY", "TENCENTCLOUD_SECRET_KEY": "replay-secret"},
		},
		{
			Provider: catalog.Huawei, Dir: "providers/huawei/testdata/replay", Dialect: replay.Huawei,
			Endpoints: func(s *replay.Server) []string {
				return []string{"huawei.ecs=" + s.URL, "huawei.bss=" + s.URL, "huawei.iam=" + s.URL}
			},
			Env: map[string]string{"HUAWEICLOUD_SDK_AK": "AKREPLAY", "HUAWEICLOUD_SDK_SK": "replay-secret"},
		},
		{
			Provider: catalog.Volcengine, Dir: "providers/volcengine/testdata/replay", Dialect: replay.Volcengine,
			Endpoints: func(s *replay.Server) []string {
				return []string{"volcengine.ecs=" + s.URL, "volcengine.billing=" + s.URL}
			},
			Env: map[string]string{"VOLCENGINE_ACCESS_KEY": "AKREPLAY", "VOLCENGINE_SECRET_KEY": "replay-secret"},
		},
		{
			Provider: catalog.Azure, Dir: "providers/azure/testdata/replay", Dialect: replay.Azure,
			Endpoints: func(s *replay.Server) []string {
				return []string{"azure.arm=" + s.URL, "azure.login=" + s.URL, "azure.prices=" + s.URL}
			},
			// The fixtures' OpenID configuration names the tenant replay-tenant.
			Env: map[string]string{"AZURE_SUBSCRIPTION_ID": "11111111-2222-3333-4444-555555555555", "AZURE_TENANT_ID": "replay-tenant",
				"AZURE_CLIENT_ID": "replay-client", "AZURE_CLIENT_SECRET": "replay-secret"},
		},
		{
			Provider: catalog.GCP, Dir: "providers/gcp/testdata/replay", Dialect: replay.GCP,
			Endpoints: func(s *replay.Server) []string {
				return []string{"gcp.compute=" + s.URL, "gcp.billing=" + s.URL}
			},
			Env: map[string]string{"GOOGLE_CLOUD_PROJECT": "gpuatlas-replay"},
			// A service account key whose secrets are placeholders: plain-http
			// endpoints get no token, so it is never signed with.
			EnvFiles: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": "providers/gcp/testdata/replay-credentials.json"},
		},
	}
}

// FXFile is the ECB reference-rate file that offline crawls convert with.
const FXFile = "providers/fx/testdata/ecb-2025-11-28.xml"

// Running is a set of started replay servers.
type Running struct {
	Servers   map[catalog.Provider]*replay.Server
	Manifests map[catalog.Provider]replay.Manifest
	// Args are the crawl flags that reach the servers (--endpoint ..., --providers
	// with every provider).
	Args []string
	// endpointArgs are the --endpoint flags alone (ArgsFor).
	endpointArgs []string
	// Endpoints are the same endpoints as providers.Config wants them: service
	// name to URL, per provider.
	Endpoints map[catalog.Provider]map[string]string
	// Env holds the test credentials and keeps the AWS SDK away from the
	// machine's own configuration.
	Env map[string]string
}

// Start starts a replay server for every fixture, reading the fixture folders
// under root (the repository root). The options apply to every server
// (replay.WithLatency for a benchmark).
func Start(root string, opts ...replay.Option) (*Running, error) {
	r := &Running{Servers: map[catalog.Provider]*replay.Server{}, Manifests: map[catalog.Provider]replay.Manifest{},
		Endpoints: map[catalog.Provider]map[string]string{},
		Env:       map[string]string{"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull}}
	names := ""
	for _, f := range Fixtures() {
		srv, err := replay.Start(os.DirFS(filepath.Join(root, f.Dir)), f.Dialect, opts...)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("%s: %w", f.Provider, err)
		}
		r.Servers[f.Provider] = srv
		r.Manifests[f.Provider] = srv.Manifest
		r.Endpoints[f.Provider] = map[string]string{}
		for _, e := range f.Endpoints(srv) {
			r.endpointArgs = append(r.endpointArgs, "--endpoint", e)
			name, url, _ := strings.Cut(e, "=")
			_, service, _ := strings.Cut(name, ".")
			r.Endpoints[f.Provider][service] = url
		}
		for k, v := range f.Env {
			r.Env[k] = v
		}
		for k, v := range f.EnvFiles {
			r.Env[k] = filepath.Join(root, v)
		}
		if names != "" {
			names += ","
		}
		names += string(f.Provider)
	}
	r.Args = append(slices.Clone(r.endpointArgs), "--providers", names)
	return r, nil
}

// Real lists, in display order, the providers whose recorded responses are
// wholly real (Manifest.Real is all). The others are made up in part or whole
// for their adapters' tests: `make nightly` crawls only these, as the nightly
// job crawls only providers it has credentials for, and the others keep the
// data the embedded catalog has for them.
func (r *Running) Real() []catalog.Provider {
	var out []catalog.Provider
	for _, f := range Fixtures() {
		if m, ok := r.Manifests[f.Provider]; ok && m.Real == replay.RealAll {
			out = append(out, f.Provider)
		}
	}
	return out
}

// ArgsFor is Args with --providers limited to ps.
func (r *Running) ArgsFor(ps []catalog.Provider) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = string(p)
	}
	return append(slices.Clone(r.endpointArgs), "--providers", strings.Join(names, ","))
}

// Close stops every server.
func (r *Running) Close() {
	for _, s := range r.Servers {
		s.Close()
	}
}

// DirOf returns the fixture folder of a provider.
func DirOf(p catalog.Provider) string {
	for _, f := range Fixtures() {
		if f.Provider == p {
			return f.Dir
		}
	}
	return ""
}
