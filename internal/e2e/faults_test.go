package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/cli"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// faultKinds are the transient faults of the random-fault crawls: each
// provider's throttling answer, server errors, connection resets and answers
// that stall past the request timeout.
var faultKinds = []faulttest.Kind{faulttest.Throttle, faulttest.ServerError, faulttest.Reset, faulttest.Stall}

// injectAll puts a seeded 30 % fault injector on every replay server; with
// maxConsecutive 0 a call's faults in a row are unbounded.
func injectAll(set *replayset.Running, seed uint64, maxConsecutive int, latency time.Duration) map[catalog.Provider]*faulttest.Injector {
	out := map[catalog.Provider]*faulttest.Injector{}
	for p, srv := range set.Servers {
		in := &faulttest.Injector{Provider: p, Seed: seed, Rate: 0.3, MaxConsecutive: maxConsecutive,
			Kinds: faultKinds, StallFor: 3 * time.Second, Latency: latency}
		srv.Fault = in.Fault
		out[p] = in
	}
	return out
}

func offersByProvider(s *catalog.Snapshot) map[catalog.Provider]int {
	m := map[catalog.Provider]int{}
	for _, o := range s.Offers {
		m[o.Provider]++
	}
	return m
}

// With 30 % of attempts failing transiently (throttles, server errors,
// resets, stalls past the request timeout), each attempt independently, so
// that some calls fail five and more times in a row, the crawl finds exactly
// what the fault-free crawl finds: throttles do not use up the attempts,
// what still fails is swept at the end of the provider's crawl, and no row is
// lost. Short: a few regions per provider, three seeds; stress
// (GPUATLAS_STRESS=1): every region. The crawl's time against the fault-free
// one at production rate limits is measured by `make stress` (benchcrawl
// -faults), not here.
func TestCrawl_RandomTransientFaultsGiveTheSameCatalog(t *testing.T) {
	set := startReplays(t)
	s := defaultSettings()
	s.timeout = 250 * time.Millisecond
	s.attempts = 5 // gpuatlas crawl's default
	if !stress() {
		s.regions = shortRegions
	}
	base, baseTargets := crawlInProcess(t, context.Background(), set, s)
	for _, c := range base.Coverage {
		if c.Status != catalog.CoverageOK {
			t.Fatalf("fault-free crawl: %s %s: %s", c.Provider, c.Status, c.Message)
		}
	}
	baseRequests := 0
	for _, tg := range baseTargets {
		baseRequests += tg.Transport.Requests()
	}
	want := canonical(t, base)
	for _, seed := range []uint64{1, 2, 3} {
		injs := injectAll(set, seed, 0, 0)
		start := time.Now()
		got, targets := crawlInProcess(t, context.Background(), set, s)
		took := time.Since(start)
		for _, srv := range set.Servers {
			srv.Fault = nil
		}
		requests, injected := 0, 0
		var seen catalog.Coverage
		for _, tg := range targets {
			requests += tg.Transport.Requests()
		}
		for _, c := range got.Coverage {
			seen.Faults += c.Faults
			seen.Throttled += c.Throttled
			seen.Retries += c.Retries
			seen.Swept += c.Swept
		}
		var per []string
		for _, p := range catalog.Providers {
			if in := injs[p]; in != nil {
				st := in.Stats()
				injected += st.Total()
				per = append(per, fmt.Sprintf("%s: %s", p, st))
			}
		}
		lost := catalog.RowsLost(base, got)
		t.Logf("seed %d: %d faults injected, %d seen (%d throttled), %d retries, %d swept, %d requests (%d without faults), %s, rows lost: %d\n  %s",
			seed, injected, seen.Faults, seen.Throttled, seen.Retries, seen.Swept, requests, baseRequests, took.Round(time.Millisecond), lost, strings.Join(per, "\n  "))
		if injected == 0 || seen.Faults == 0 || seen.Retries == 0 {
			t.Fatalf("seed %d: %d faults injected, %d seen, %d retries: the test did not exercise retries", seed, injected, seen.Faults, seen.Retries)
		}
		if lost != 0 {
			t.Errorf("seed %d: %d rows lost", seed, lost)
		}
		if b := canonical(t, got); !bytes.Equal(b, want) {
			for _, c := range got.Coverage {
				t.Logf("%s: %s %s %v %v", c.Provider, c.Status, c.Message, c.FailedRegions, c.FailedTypes)
			}
			t.Fatalf("seed %d: the catalog differs from the fault-free crawl (%d rows lost)", seed, lost)
		}
		if limit := 60 * time.Second; took > limit {
			t.Errorf("seed %d: crawl took %s, more than %s", seed, took, limit)
		}
	}
}

// Each provider's requests stay within its factory's limits while a third of
// them fail and are retried: the transport's peak requests in any one second is
// at most RatePerSecond + Burst (a token bucket's most in a one-second window),
// and the server never holds more of a provider's requests at once than
// Concurrency regions × the calls an adapter runs in parallel within a region
// (AWS 3: zones, list prices and spot at once; Alibaba 8 DescribePrice workers,
// and at most its 10 pooled clients in all; Tencent 4 inquiry workers; Huawei
// and Volcano Engine 1, sequential within a region; Azure 1; Google Cloud 1,
// its three listings one after another). Every request is held 20 ms at the
// server so that concurrent ones overlap.
func TestCrawl_RateAndConcurrencyLimitsHoldUnderRetries(t *testing.T) {
	set := startReplays(t)
	s := defaultSettings()
	s.unlimited = false
	// Waiting for the rate limiter counts against the request timeout (the
	// limiter waits inside the HTTP client), so the timeout is generous here and
	// stalls are left to the other tests.
	s.timeout = 10 * time.Second
	s.regions = map[catalog.Provider][]string{
		catalog.AWS:     {"us-west-2", "eu-west-2", "ap-northeast-2", "ca-central-1", "cn-north-1"},
		catalog.Alibaba: {"cn-nanjing", "ap-northeast-2"},
		catalog.Tencent: {"ap-seoul", "ap-bangkok", "ap-tokyo", "na-ashburn"},
		catalog.Azure:   {"westus3", "koreacentral"},
		catalog.GCP:     {"us-central1", "europe-west4"},
	}
	if stress() {
		// Every AWS region; Alibaba's and Tencent's larger sets would take
		// minutes at 20 and 10 requests a second.
		s.regions = map[catalog.Provider][]string{
			catalog.Alibaba: {"cn-nanjing", "ap-northeast-2", "cn-zhangjiakou", "ap-southeast-7", "ap-southeast-5"},
			catalog.Tencent: {"ap-seoul", "ap-bangkok", "ap-tokyo", "na-ashburn", "ap-jakarta", "sa-saopaulo", "eu-frankfurt", "na-siliconvalley"},
		}
	}
	injs := injectAll(set, 7, 2, 20*time.Millisecond)
	for _, in := range injs {
		in.Kinds = faulttest.Transient
	}
	start := time.Now()
	snap, targets := crawlInProcess(t, context.Background(), set, s)
	perRegion := map[catalog.Provider]int{catalog.AWS: 3, catalog.Alibaba: 8, catalog.Tencent: 4, catalog.Huawei: 1, catalog.Volcengine: 1, catalog.Azure: 1, catalog.GCP: 1}
	poolCap := map[catalog.Provider]int{catalog.Alibaba: 10}
	for _, tg := range targets {
		f := tg.Factory
		st := injs[f.ID].Stats()
		peak := tg.Transport.PeakPerSecond()
		maxRate := int(f.RatePerSecond) + f.Burst
		maxInFlight := f.Concurrency * perRegion[f.ID]
		if c, ok := poolCap[f.ID]; ok && c < maxInFlight {
			maxInFlight = c
		}
		t.Logf("%s: %d requests, peak %d/s (limit %d), in flight at most %d (bound %d); %s", f.ID, tg.Transport.Requests(), peak, maxRate, st.InFlightPeak, maxInFlight, st)
		// Send times are taken just after the limiter lets a request go, so
		// scheduling delay on a loaded machine can move one send across the edge
		// of a one-second window: one request of tolerance, no more.
		if peak > maxRate+1 {
			t.Errorf("%s: %d requests within one second, limit %g/s + burst %d", f.ID, peak, f.RatePerSecond, f.Burst)
		}
		if st.InFlightPeak > maxInFlight {
			t.Errorf("%s: %d requests in flight at once, bound %d", f.ID, st.InFlightPeak, maxInFlight)
		}
	}
	for _, c := range snap.Coverage {
		if c.Status != catalog.CoverageOK {
			t.Errorf("%s: %s: %s %v", c.Provider, c.Status, c.Message, c.FailedRegions)
		}
	}
	t.Logf("crawl with limits took %s", time.Since(start).Round(time.Millisecond))
}

// A crawl whose context is cancelled while every request hangs returns at
// once with an error, whatever the request timeout; no adapter waits for its
// stalled requests.
func TestCrawl_CancelReturnsPromptly(t *testing.T) {
	set := startReplays(t)
	for _, srv := range set.Servers {
		srv.Fault = faulttest.Never(func(replay.Request) bool { return true }, 2*time.Second)
	}
	s := defaultSettings()
	s.timeout = 1500 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	time.AfterFunc(200*time.Millisecond, func() { cancelled = time.Now(); cancel() })
	_, err := providers.Crawl(ctx, prepareAll(t, set, s), providers.Options{})
	took := time.Since(cancelled)
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("err = %v, want a cancelled crawl", err)
	}
	if took > time.Second {
		t.Errorf("cancelled crawl returned %s after the cancel, want under 1s (the request timeout is 1.5s)", took)
	}
}

// mainRegions is the --regions list of the CLI tests: a few small regions of
// each provider (the list is shared by all providers).
const mainRegions = "us-west-2,cn-north-1,cn-nanjing,ap-northeast-2,ap-seoul,ap-bangkok,cn-north-4,cn-guangzhou,westus3,europe-west2"

// crawlMain runs `gpuatlas crawl` in process against the replays.
func crawlMain(t testing.TB, set *replayset.Running, getenv func(string) string, extra ...string) (code int, stdout, stderr string) {
	t.Helper()
	if getenv == nil {
		getenv = func(k string) string { return set.Env[k] }
	}
	args := append([]string{"crawl", "--fx-file", filepath.Join(root, replayset.FXFile), "--no-rate-limit"}, set.Args...)
	args = append(args, extra...)
	var out, errb bytes.Buffer
	code = cli.Main(cli.Env{Stdout: &out, Stderr: &errb, Getenv: getenv}, args)
	return code, out.String(), errb.String()
}

// With one provider down, the crawl keeps that provider's previous data marked
// stale, completes the others and exits 3 (partial).
func TestCrawlMain_ProviderDownKeepsItsDataStale(t *testing.T) {
	set := startReplays(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "catalog.json")
	common := []string{"--out", out, "--regions", mainRegions, "--max-attempts", "2", "--request-timeout", "2s"}
	before, _ := crawlSnapshot(t, set, out, cli.ExitOK, common)
	set.Servers[catalog.Huawei].Fault = faulttest.Down(catalog.Huawei)
	after, stderr := crawlSnapshot(t, set, out, cli.ExitPartial, common)
	for _, c := range after.Coverage {
		want := catalog.CoverageOK
		if c.Provider == catalog.Huawei {
			want = catalog.CoverageStale
		}
		if c.Status != want {
			t.Errorf("%s: %s (%s), want %s", c.Provider, c.Status, c.Message, want)
		}
	}
	if b, a := offersByProvider(before), offersByProvider(after); len(b) != len(set.Servers) || fmt.Sprint(b) != fmt.Sprint(a) {
		t.Errorf("offers by provider: %v before, %v after", b, a)
	}
	if !strings.Contains(stderr, "huawei: stale") {
		t.Errorf("stderr does not report huawei stale:\n%s", stderr)
	}
}

// When one instance type's price calls keep failing (retries and the sweep
// included), the crawl keeps only that type's previous offers, marked in
// coverage with when they were last confirmed: the region's other types are
// the new crawl's, and the crawl says what it kept and exits 3 (partial).
func TestCrawlMain_FailedTypeKeepsOnlyItsOffers(t *testing.T) {
	set := startReplays(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "catalog.json")
	common := []string{"--out", out, "--providers", "alibaba", "--regions", "cn-nanjing", "--max-attempts", "2", "--request-timeout", "2s"}
	before, _ := crawlSnapshot(t, set, out, cli.ExitOK, common)
	victim := before.Offers[0].InstanceType
	set.Servers[catalog.Alibaba].Fault = func(req replay.Request, _ int) *replay.Response {
		if req.Action == "DescribePrice" && req.Params["InstanceType"] == victim {
			return faulttest.ServerErrorResponse(catalog.Alibaba, req)
		}
		return nil
	}
	between := time.Now()
	after, stderr := crawlSnapshot(t, set, out, cli.ExitPartial, common)
	if lost := catalog.RowsLost(before, after); lost != 0 {
		t.Errorf("%d rows lost", lost)
	}
	cov := after.Coverage[0]
	if cov.Status != catalog.CoveragePartial || cov.Regions != 1 || len(cov.FailedRegions) != 0 || len(cov.FailedTypes) != 1 ||
		cov.FailedTypes[0].InstanceType != victim || !strings.Contains(cov.FailedTypes[0].Reason, "ServiceUnavailable") {
		t.Fatalf("coverage %+v, want partial with only %s failed", cov, victim)
	}
	confirmed := cov.FailedTypes[0].LastConfirmed
	if confirmed.IsZero() || confirmed.After(between) {
		t.Errorf("failed type last confirmed %s, want a time of the first crawl", confirmed)
	}
	kept, fresh := 0, 0
	for _, o := range after.Offers {
		switch {
		case o.InstanceType == victim && !o.FetchedAt.After(confirmed):
			kept++
		case o.InstanceType == victim:
			t.Errorf("offer %s of the failing type was fetched %s, not kept from the first crawl", o.Key(), o.FetchedAt)
		case o.FetchedAt.Before(between):
			t.Errorf("offer %s of a type that did not fail is from the previous crawl (%s)", o.Key(), o.FetchedAt)
		default:
			fresh++
		}
	}
	if kept == 0 || fresh == 0 {
		t.Errorf("%d offers kept, %d fetched anew; want both", kept, fresh)
	}
	if cov.Swept == 0 || cov.Faults == 0 {
		t.Errorf("coverage counts %d faults, %d swept: the failing calls were not swept", cov.Faults, cov.Swept)
	}
	for _, w := range []string{"failed instance type " + victim + " in cn-nanjing", "keeping its offers last confirmed", "swept"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr does not say %q:\n%s", w, stderr)
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir) // scratch binaries in the system temp dir: the test result does not depend on removing them
	}
	os.Exit(code)
}

// crawlSnapshot crawls set with args, wants the exit code want, and returns
// the snapshot the crawl wrote to out and the crawl's stderr.
func crawlSnapshot(t *testing.T, set *replayset.Running, out string, want int, args []string) (*catalog.Snapshot, string) {
	t.Helper()
	code, _, stderr := crawlMain(t, set, nil, args...)
	if code != want {
		t.Fatalf("crawl exit %d, want %d:\n%s", code, want, stderr)
	}
	s, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	return s, stderr
}
