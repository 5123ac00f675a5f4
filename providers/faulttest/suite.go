package faulttest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// Suite is the standard set of fault cases for one adapter, run through the
// real SDK client against its replay: every transient fault kind once per call
// (the crawl must equal the fault-free one), a seeded 30 % mix, truncated and
// malformed bodies (retried to the same result, or a failed region that says
// why, never fewer rows passed off as complete), a region that never answers
// (fails within a bound while the others complete) and, where the adapter
// paginates, a token that repeats (the listing fails instead of looping).
type Suite struct {
	Provider catalog.Provider
	// Start serves the adapter's fixtures.
	Start func(t testing.TB) *replay.Server
	// Target builds the adapter against srv, without rate limits, with the
	// given request timeout and attempts per call and a fixed clock.
	Target func(t testing.TB, srv *replay.Server, timeout time.Duration, attempts int) providers.Target
	// Regions are the regions to crawl (two or more, small ones).
	Regions   []string
	Reference *catalog.GPUReference
	Clock     func() time.Time
	// InRegion says whether a request belongs to the crawl of region (the
	// request's Region by default).
	InRegion func(req replay.Request, region string) bool
	// RepeatToken, when set, makes the adapter's paginated listing hand back
	// the same token again.
	RepeatToken func(t testing.TB, srv *replay.Server) func(replay.Request, int) *replay.Response
	// RepeatTarget, when set, builds the target of the repeated-token case
	// (e.g. with a small page size); Target otherwise.
	RepeatTarget func(t testing.TB, srv *replay.Server) providers.Target
	// Global says that every call of the adapter is made once for all
	// regions (Google Cloud's lists): no region can fail alone, so the case of
	// a region that never answers does not apply.
	Global bool
	// Eligible, when set, limits the faults to the requests it accepts (the
	// Injector's Eligible): Azure's identity calls, which its identity
	// library makes and retries on its own terms, are left alone.
	Eligible func(replay.Request) bool
}

const (
	suiteTimeout  = 300 * time.Millisecond
	suiteAttempts = 3
	// stallTimeout is the request timeout of the stall cases: each stalled
	// call costs this much, and calls within a region run one after another.
	stallTimeout = 150 * time.Millisecond
)

func (s Suite) crawl(t *testing.T, ctx context.Context, srv *replay.Server, target providers.Target) *catalog.Snapshot {
	t.Helper()
	snap, err := providers.Crawl(ctx, []providers.Target{target}, providers.Options{
		Reference: s.Reference, Clock: s.Clock, OnlyRegions: s.Regions,
	})
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	return snap
}

// Canonical is the snapshot's bytes with the request, fault, retry and sweep
// counts zeroed: retries change how many requests a crawl took, not what it
// found, so two crawls of one replay compare equal however many faults they
// met.
func Canonical(t testing.TB, snap *catalog.Snapshot) []byte {
	t.Helper()
	c := *snap
	c.Coverage = append([]catalog.Coverage(nil), snap.Coverage...)
	for i := range c.Coverage {
		cov := &c.Coverage[i]
		cov.Requests, cov.Faults, cov.Throttled, cov.Retries, cov.Swept = 0, 0, 0, 0, 0
	}
	b, err := c.MarshalCanonical()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// offersByRegionType counts the offers of each region, leaving out the
// regions and region/type pairs failed holds.
func offersByRegionType(s *catalog.Snapshot, failed map[string]bool) map[string]int {
	m := map[string]int{}
	for _, o := range s.Offers {
		if !failed[o.Region] && !failed[o.Region+"/"+o.InstanceType] {
			m[o.Region]++
		}
	}
	return m
}

// Run runs every case as a subtest.
func (s Suite) Run(t *testing.T) {
	if s.InRegion == nil {
		s.InRegion = func(req replay.Request, region string) bool { return req.Region == region }
	}
	srv := s.Start(t)
	base := s.crawl(t, context.Background(), srv, s.Target(t, srv, suiteTimeout, suiteAttempts))
	cov := base.Coverage[0]
	if cov.Status != catalog.CoverageOK || cov.Regions != len(s.Regions) || len(base.Offers) == 0 {
		t.Fatalf("fault-free crawl: %+v, %d offers", cov, len(base.Offers))
	}
	want := Canonical(t, base)
	baseRequests := 0
	for _, r := range srv.Requests() {
		if s.Eligible == nil || s.Eligible(r) {
			baseRequests++
		}
	}

	for _, k := range []Kind{Throttle, ServerError, Reset, Stall} {
		t.Run("every call fails once: "+k.String(), func(t *testing.T) {
			if k == Stall {
				testlane.Long(t, "waits out stalled calls")
			}
			srv := s.Start(t)
			in := &Injector{Provider: s.Provider, Seed: 1, Rate: 1, MaxConsecutive: 1, Kinds: []Kind{k}, StallFor: 2 * time.Second, Eligible: s.Eligible}
			srv.Fault = in.Fault
			timeout := suiteTimeout
			if k == Stall {
				timeout = stallTimeout
			}
			got := s.crawl(t, context.Background(), srv, s.Target(t, srv, timeout, suiteAttempts))
			if !bytes.Equal(Canonical(t, got), want) {
				t.Fatalf("the crawl differs from the fault-free one: %+v", got.Coverage)
			}
			st := in.Stats()
			if st.Total() < baseRequests || st.Requests < 2*baseRequests {
				t.Errorf("%s; the fault-free crawl sent %d requests: not every call failed once and was retried", st, baseRequests)
			}
		})
	}

	t.Run("seeded 30% transient faults", func(t *testing.T) {
		testlane.Long(t, "three crawls that wait out stalled calls")
		for seed := uint64(1); seed <= 3; seed++ {
			srv := s.Start(t)
			in := &Injector{Provider: s.Provider, Seed: seed, Rate: 0.3, MaxConsecutive: suiteAttempts - 1, Eligible: s.Eligible,
				Kinds: []Kind{Throttle, ServerError, Reset, Stall}, StallFor: 2 * time.Second}
			srv.Fault = in.Fault
			got := s.crawl(t, context.Background(), srv, s.Target(t, srv, stallTimeout, suiteAttempts))
			if !bytes.Equal(Canonical(t, got), want) {
				t.Fatalf("seed %d (%s): the crawl differs from the fault-free one: %+v", seed, in.Stats(), got.Coverage)
			}
		}
	})

	for _, k := range []Kind{Truncated, Malformed} {
		t.Run("bad bodies: "+k.String(), func(t *testing.T) {
			srv := s.Start(t)
			in := &Injector{Provider: s.Provider, Seed: 5, Rate: 0.5, MaxConsecutive: suiteAttempts, Kinds: []Kind{k}, Eligible: s.Eligible}
			srv.Fault = in.Fault
			got := s.crawl(t, context.Background(), srv, s.Target(t, srv, suiteTimeout, suiteAttempts))
			if in.Stats().Total() == 0 {
				t.Fatal("no faults injected")
			}
			c := got.Coverage[0]
			if c.Status == catalog.CoverageOK {
				if !bytes.Equal(Canonical(t, got), want) {
					t.Fatal("coverage ok, but the crawl differs from the fault-free one")
				}
				return
			}
			failed := map[string]bool{}
			for _, f := range c.FailedRegions {
				failed[f.Region] = true
				if !strings.HasPrefix(f.Reason, string(s.Provider)+":") {
					t.Errorf("failed region %s: reason %q does not say which provider failed", f.Region, f.Reason)
				}
			}
			for _, f := range c.FailedTypes {
				failed[f.Key()] = true
				if !strings.HasPrefix(f.Reason, string(s.Provider)+":") {
					t.Errorf("failed type %s: reason %q does not say which provider failed", f.Key(), f.Reason)
				}
			}
			if c.Status == catalog.CoverageFailed && len(c.FailedRegions) == 0 && !strings.Contains(c.Message, string(s.Provider)) {
				t.Errorf("failed coverage without a reason naming the provider: %q", c.Message)
			}
			// What counts as crawled (not a failed region, not a failed type
			// in its region) has every offer of the fault-free crawl.
			gm, bm := offersByRegionType(got, failed), offersByRegionType(base, failed)
			for r, n := range bm {
				if c.Status != catalog.CoverageFailed && gm[r] != n {
					t.Errorf("region %s counts as crawled with %d offers, %d without faults (failed types left out)", r, gm[r], n)
				}
			}
		})
	}

	if !s.Global {
		s.deadRegion(t)
	}
	if s.RepeatToken == nil {
		return
	}
	t.Run("a pagination token that repeats", func(t *testing.T) {
		srv := s.Start(t)
		srv.Fault = s.RepeatToken(t, srv)
		target := s.Target(t, srv, suiteTimeout, suiteAttempts)
		if s.RepeatTarget != nil {
			target = s.RepeatTarget(t, srv)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done := make(chan *catalog.Snapshot, 1)
		go func() {
			snap, err := providers.Crawl(ctx, []providers.Target{target}, providers.Options{Reference: s.Reference, Clock: s.Clock, OnlyRegions: s.Regions})
			if err != nil {
				snap = nil
			}
			done <- snap
		}()
		got := <-done
		if got == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("the crawl did not end: the adapter loops on a repeated token (%d requests)", len(srv.Requests()))
		}
		c := got.Coverage[0]
		text := c.Message
		for _, f := range c.FailedRegions {
			text += " " + f.Reason
		}
		if c.Status == catalog.CoverageOK || !strings.Contains(text, providers.ErrRepeatedPageToken.Error()) {
			t.Errorf("coverage %+v, want failed regions naming the repeated token", c)
		}
	})
}

// deadRegion is the case of a region that never answers.
func (s Suite) deadRegion(t *testing.T) {
	t.Helper()
	t.Run("a region that never answers", func(t *testing.T) {
		testlane.Long(t, "waits out a region's timeouts")
		srv := s.Start(t)
		dead := s.Regions[0]
		srv.Fault = Never(func(req replay.Request) bool { return s.InRegion(req, dead) }, 2*time.Second)
		start := time.Now()
		got := s.crawl(t, context.Background(), srv, s.Target(t, srv, 200*time.Millisecond, 2))
		took := time.Since(start)
		c := got.Coverage[0]
		if c.Status != catalog.CoveragePartial || len(c.FailedRegions) != 1 || c.FailedRegions[0].Region != dead || c.Regions != len(s.Regions)-1 {
			t.Fatalf("coverage %+v, want partial with %s failed", c, dead)
		}
		if took > 10*time.Second {
			t.Errorf("the crawl took %s with a dead region", took)
		}
	})
}
