package providertest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// Harness is how an adapter's tests reach its recorded replay through the
// real SDK client: one value per adapter, declared in its <cloud>_test.go,
// serves every test, fault case, fuzz target and measurement of the package.
type Harness struct {
	// Factory is the adapter's factory as the registry lists it.
	Factory providers.Factory
	// Dialect is the replay's wire format; Dir the fixture folder
	// (testdata/replay when empty).
	Dialect replay.Dialect
	Dir     string
	// Endpoints points the adapter's services at a replay server (URLs or
	// Hosts).
	Endpoints func(srv *replay.Server) map[string]string
	// Env is what Config.Getenv answers: the test credentials and settings.
	Env map[string]string
	// ProcessEnv is set in the process environment of every test that starts
	// a replay (the AWS SDK reads its shared files' paths from there).
	ProcessEnv map[string]string
	// Now is the fixed clock of every crawl.
	Now time.Time
	// Timeout is the request timeout of Config (5 s when zero).
	Timeout time.Duration
}

// URLs points each of services at the replay server's URL.
func URLs(services ...string) func(*replay.Server) map[string]string {
	return func(srv *replay.Server) map[string]string { return endpoints(services, srv.URL) }
}

// Hosts points each of services at the replay server's host, for SDKs that
// take a host and a scheme (the scheme follows: HTTP for a loopback host).
func Hosts(services ...string) func(*replay.Server) map[string]string {
	return func(srv *replay.Server) map[string]string { return endpoints(services, srv.Host()) }
}

func endpoints(services []string, at string) map[string]string {
	m := map[string]string{}
	for _, s := range services {
		m[s] = at
	}
	return m
}

// Start serves the fixture folder Dir for the test's duration.
func (h Harness) Start(t testing.TB) *replay.Server {
	t.Helper()
	return h.StartDir(t, h.dir())
}

func (h Harness) dir() string {
	if h.Dir == "" {
		return "testdata/replay"
	}
	return h.Dir
}

// StartDir serves another fixture folder (a hand-made case) for the test's
// duration.
func (h Harness) StartDir(t testing.TB, dir string) *replay.Server {
	t.Helper()
	h.setenv(t)
	srv, err := replay.Start(os.DirFS(dir), h.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func (h Harness) setenv(t testing.TB) {
	for k, v := range h.ProcessEnv {
		t.Setenv(k, v)
	}
}

// Config points the adapter at srv with the test credentials, the fixed
// clock, three attempts per call and a tiny backoff.
func (h Harness) Config(srv *replay.Server) providers.Config {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	env := h.Env
	return providers.Config{
		Endpoints:   h.Endpoints(srv),
		Getenv:      func(k string) string { return env[k] },
		Clock:       h.clock,
		Timeout:     timeout,
		MaxAttempts: 3,
		Backoff:     time.Millisecond,
	}
}

func (h Harness) clock() time.Time { return h.Now }

// Unlimited is Factory without rate limits (the transport's and the per-API
// ones), so that tests run at full speed.
func (h Harness) Unlimited() providers.Factory {
	f := h.Factory
	f.RatePerSecond = 0
	f.APILimits = nil
	return f
}

// Target prepares the unlimited adapter against srv with the given request
// timeout and attempts per call; it fails t when the adapter cannot be built.
// Its signature is faulttest.Suite's Target.
func (h Harness) Target(t testing.TB, srv *replay.Server, timeout time.Duration, attempts int) providers.Target {
	t.Helper()
	cfg := h.Config(srv)
	cfg.Timeout, cfg.MaxAttempts = timeout, attempts
	target := providers.Prepare(h.Unlimited(), cfg)
	if target.Err != nil {
		t.Fatal(target.Err)
	}
	return target
}

// Crawl prepares f with cfg and crawls it (only the given regions, all when
// none) through the runner with the GPU reference, the region table and the
// fixed clock.
func (h Harness) Crawl(t testing.TB, f providers.Factory, cfg providers.Config, only ...string) (*catalog.Snapshot, providers.Target) {
	t.Helper()
	target := providers.Prepare(f, cfg)
	return h.CrawlTargets(t, []providers.Target{target}, only...), target
}

// CrawlTargets crawls several prepared targets together (an adapter and a
// stub standing for another cloud).
func (h Harness) CrawlTargets(t testing.TB, targets []providers.Target, only ...string) *catalog.Snapshot {
	t.Helper()
	ref, regions := Tables(t)
	snap, err := providers.Crawl(context.Background(), targets, providers.Options{
		Reference: ref, Regions: regions, Clock: h.clock, OnlyRegions: only,
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// Faults is the standard fault suite over the given regions (two or more,
// small ones); the test sets what is particular to the adapter (InRegion,
// RepeatToken) and runs it.
func (h Harness) Faults(t testing.TB, regions ...string) faulttest.Suite {
	return faulttest.Suite{
		Provider:  h.Factory.ID,
		Start:     h.Start,
		Target:    h.Target,
		Regions:   regions,
		Reference: Reference(t),
		Clock:     h.clock,
	}
}

// RepeatNextToken is a Suite.RepeatToken that answers action with its first
// recorded page, its next token set to one that never changes.
func (h Harness) RepeatNextToken(action string) func(testing.TB, *replay.Server) func(replay.Request, int) *replay.Response {
	return func(_ testing.TB, srv *replay.Server) func(replay.Request, int) *replay.Response {
		return faulttest.RepeatNextToken(os.DirFS(h.dir()), srv.Manifest, action)
	}
}

// FuzzAnswer feeds each fuzz input to the adapter as action's answer, through
// the real SDK client, and crawls region of the replay in dir: no panic, and
// the region is crawled or fails with a reason that names the provider
// (faulttest.AnswerFuzzer). dir is a small case (a region with a type or two):
// an input costs what its crawl costs, and a region of the full replay takes
// tens of requests and up to megabytes of answers. The recorded answers of
// action are the seeds; dir must crawl whole with them.
func (h Harness) FuzzAnswer(f *testing.F, dir, action, region string) {
	a := h.AnswerFuzzer(f, dir, action, region)
	a.CheckRecorded(f)
	for _, s := range a.Seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body []byte) { a.Check(t, body) })
}

// AnswerFuzzer is FuzzAnswer's fuzzer, started on the replay in dir: its Check
// crawls region with an input as action's answer.
func (h Harness) AnswerFuzzer(tb testing.TB, dir, action, region string) *faulttest.AnswerFuzzer {
	tb.Helper()
	h.setenv(tb)
	a := &faulttest.AnswerFuzzer{Provider: h.Factory.ID, Action: action, Region: region, Reference: Reference(tb),
		ContentType: faulttest.ContentType(h.Factory.ID, replay.Request{Action: action}),
		Target: func(srv *replay.Server) providers.Target {
			// In process, nothing stalls: no request timeout, one attempt.
			cfg := h.Config(srv)
			cfg.Timeout, cfg.MaxAttempts, cfg.Transport = 0, 1, srv
			return providers.Prepare(h.Unlimited(), cfg)
		}}
	a.Start(tb, os.DirFS(dir), h.Dialect)
	return a
}

// MeasureFullCrawl crawls every region of the replay, without limits and with
// the production Factory's, and logs the measured figures. It takes minutes,
// so it runs only with GPUATLAS_MEASURE=1.
func (h Harness) MeasureFullCrawl(t *testing.T) {
	if os.Getenv("GPUATLAS_MEASURE") == "" {
		t.Skip("set GPUATLAS_MEASURE=1 to measure a full crawl at the production rate")
	}
	for _, tc := range []struct {
		name    string
		factory providers.Factory
	}{{"unlimited", h.Unlimited()}, {"production", h.Factory}} {
		srv := h.Start(t)
		target := providers.Prepare(tc.factory, h.Config(srv))
		start := time.Now()
		snap, err := providers.Crawl(t.Context(), []providers.Target{target}, providers.Options{Clock: h.clock})
		if err != nil {
			t.Fatal(err)
		}
		wall := time.Since(start)
		cov := snap.Coverage[0]
		suspect := 0
		for _, o := range snap.Offers {
			if o.Suspect != "" {
				suspect++
			}
		}
		t.Logf("%s: status=%s regions=%d failed=%d requests=%d peak/s=%d wall=%s instances=%d placements=%d offers=%d suspect=%d",
			tc.name, cov.Status, cov.Regions, len(cov.FailedRegions), target.Transport.Requests(), target.Transport.PeakPerSecond(),
			wall.Round(time.Millisecond), len(snap.Instances), len(snap.Placements), len(snap.Offers), suspect)
		if cov.Status != catalog.CoverageOK {
			t.Errorf("coverage = %+v", cov)
		}
	}
}

// Reference loads the GPU reference from the data folder.
func Reference(t testing.TB) *catalog.GPUReference {
	t.Helper()
	ref, _ := Tables(t)
	return ref
}

// Tables loads the GPU reference and the region table from the data folder,
// as a crawl's Options want them.
func Tables(t testing.TB) (*catalog.GPUReference, *catalog.RegionTable) {
	t.Helper()
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return ref, regions
}

// Prepare is Target with Config's timeout and attempts.
func (h Harness) Prepare(t testing.TB, srv *replay.Server) providers.Target {
	t.Helper()
	cfg := h.Config(srv)
	return h.Target(t, srv, cfg.Timeout, cfg.MaxAttempts)
}
