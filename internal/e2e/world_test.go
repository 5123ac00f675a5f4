package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/providertest"
	"github.com/gpuatlas/gpuatlas/providers/registry"
)

// root is the repository root, where the fixture folders are.
const root = "../.."

// fixedNow stamps in-process crawls, so that two crawls compare byte for byte.
var fixedNow = time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC)

// startReplays starts a replay server for every provider and keeps the AWS SDK
// away from the machine's own configuration files.
func startReplays(t testing.TB) *replayset.Running {
	t.Helper()
	testlane.Long(t, "crawls every provider's replay end to end")
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	set, err := replayset.Start(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set
}

// crawlSettings are the knobs of an in-process crawl.
type crawlSettings struct {
	timeout     time.Duration
	attempts    int
	backoff     time.Duration
	unlimited   bool
	only        []string
	getenv      func(string) string
	factoryEdit func(*providers.Factory)
	// regions, when set, limits each provider to the listed regions (all when a
	// provider has no entry).
	regions map[catalog.Provider][]string
}

func defaultSettings() crawlSettings {
	return crawlSettings{timeout: 2 * time.Second, attempts: 4, backoff: time.Millisecond, unlimited: true}
}

// crawlInProcess crawls every replay through the runner, as `gpuatlas crawl`
// does, with a fixed clock.
func crawlInProcess(t testing.TB, ctx context.Context, set *replayset.Running, s crawlSettings) (*catalog.Snapshot, []providers.Target) {
	t.Helper()
	ref, regions := providertest.Tables(t)
	targets := prepareAll(t, set, s)
	snap, err := providers.Crawl(ctx, targets, providers.Options{
		Reference: ref, Regions: regions, Clock: func() time.Time { return fixedNow }, OnlyRegions: s.only,
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap, targets
}

// prepareAll prepares every registered adapter against its replay with the
// settings' knobs.
func prepareAll(t testing.TB, set *replayset.Running, s crawlSettings) []providers.Target {
	t.Helper()
	getenv := s.getenv
	if getenv == nil {
		getenv = func(k string) string { return set.Env[k] }
	}
	var targets []providers.Target
	for _, f := range registryAll() {
		if s.factoryEdit != nil {
			s.factoryEdit(&f)
		}
		if keep := s.regions[f.ID]; len(keep) > 0 {
			f.New = onlyRegions(f.New, keep)
		}
		targets = append(targets, providers.Prepare(f, providers.Config{
			Endpoints: set.Endpoints[f.ID], Getenv: getenv, Clock: func() time.Time { return fixedNow },
			Timeout: s.timeout, MaxAttempts: s.attempts, Backoff: s.backoff, Unlimited: s.unlimited,
		}))
	}
	return targets
}

// canonical is the snapshot's bytes with the request counts zeroed: retries
// change how many requests a crawl took, not what it found.
func canonical(t testing.TB, s *catalog.Snapshot) []byte { return faulttest.Canonical(t, s) }

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shortRegions are a few small regions of each provider, for the tests that run
// in `go test`; the stress run crawls every region.
var shortRegions = map[catalog.Provider][]string{
	catalog.AWS:     {"us-west-2", "cn-north-1"},
	catalog.Alibaba: {"cn-nanjing", "ap-northeast-2"},
	catalog.Tencent: {"ap-seoul", "ap-bangkok"},
	catalog.Azure:   {"westus3", "koreacentral"},
	catalog.GCP:     {"us-central1", "europe-west4"},
}

// stress says whether the long versions run (make stress).
func stress() bool { return os.Getenv("GPUATLAS_STRESS") == "1" }

// onlyRegions wraps a constructor so that its provider lists only the given
// regions.
func onlyRegions(next func(providers.Config) (providers.Provider, error), keep []string) func(providers.Config) (providers.Provider, error) {
	return func(cfg providers.Config) (providers.Provider, error) {
		p, err := next(cfg)
		if err != nil {
			return nil, err
		}
		set := map[string]bool{}
		for _, r := range keep {
			set[r] = true
		}
		return regionFilter{Provider: p, keep: set}, nil
	}
}

type regionFilter struct {
	providers.Provider
	keep map[string]bool
}

func (r regionFilter) Regions(ctx context.Context) ([]string, error) {
	all, err := r.Provider.Regions(ctx)
	var out []string
	for _, id := range all {
		if r.keep[id] {
			out = append(out, id)
		}
	}
	return out, err
}

func registryAll() []providers.Factory { return append([]providers.Factory(nil), registry.All...) }
