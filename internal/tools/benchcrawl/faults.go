package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// faultTarget is the most a crawl under faults may take, as a multiple of the
// fault-free crawl's time.
const faultTarget = 1.5

// faultKinds are the faults of the timed crawls: each provider's own
// throttling answer, server errors and connection resets. (Stalls cost a
// request timeout each, 30 s in production; the e2e fault tests cover them
// with a short timeout.)
var faultKinds = []faulttest.Kind{faulttest.Throttle, faulttest.ServerError, faulttest.Reset}

// faultRun is one crawl of every provider, all at once as the nightly crawl
// runs them, against a replay set of its own: fault-free (seed 0) or with a
// seeded share of faults.
type faultRun struct {
	seed     uint64
	whole    time.Duration // from the start until the last provider finished
	wall     map[catalog.Provider]time.Duration
	snaps    map[catalog.Provider]*catalog.Snapshot
	injected map[catalog.Provider]faulttest.Stats
}

// benchFaults measures crawls under faults against the fault-free crawl: the
// fault-free crawl and one per seed run at the same time, each against its
// own replays answering after latency, every provider at its production
// limits. It prints, per seed and provider, the faults injected and seen, the
// retries, the swept calls, the rows lost and the time against the
// fault-free crawl, and appends one benchrow per seed (the whole crawl). The
// error says which crawl lost rows or differs; a time over the target is
// reported, not an error.
func benchFaults(root, rowsPath string, factories []providers.Factory, latency, timeout time.Duration, rate float64, seeds []uint64, only []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for _, k := range []string{"AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"} {
		if err := os.Setenv(k, os.DevNull); err != nil {
			return err
		}
	}
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return err
	}
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		return err
	}
	runs := make([]faultRun, len(seeds)+1)
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i := range runs {
		seed := uint64(0)
		if i > 0 {
			seed = seeds[i-1]
		}
		wg.Go(func() {
			runs[i], errs[i] = crawlWithFaults(ctx, root, factories, latency, rate, seed, only, ref, regions)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	rows, check := reportFaults(factories, runs, rate, latency)
	if rowsPath != "" {
		if err := benchrow.Append(rowsPath, rows...); err != nil {
			check = errors.Join(check, err)
		}
	}
	return check
}

// crawlWithFaults starts a replay set, injects faults into it unless seed is
// 0, and crawls every provider at once, each timed on its own.
func crawlWithFaults(ctx context.Context, root string, factories []providers.Factory, latency time.Duration, rate float64, seed uint64,
	only []string, ref *catalog.GPUReference, regions *catalog.RegionTable) (faultRun, error) {
	set, err := replayset.Start(root, replay.WithLatency(latency))
	if err != nil {
		return faultRun{}, err
	}
	defer set.Close()
	run := faultRun{seed: seed, wall: map[catalog.Provider]time.Duration{}, snaps: map[catalog.Provider]*catalog.Snapshot{},
		injected: map[catalog.Provider]faulttest.Stats{}}
	injectors := map[catalog.Provider]*faulttest.Injector{}
	if seed != 0 {
		for p, srv := range set.Servers {
			in := &faulttest.Injector{Provider: p, Seed: seed, Rate: rate, Kinds: faultKinds}
			srv.Fault = in.Fault
			injectors[p] = in
		}
	}
	// A fixed clock: the crawls compare byte for byte.
	clock := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(factories))
	start := time.Now()
	for i, f := range factories {
		// The settings of `gpuatlas crawl`, rate limits included.
		t := providers.Prepare(f, providers.Config{
			Endpoints: set.Endpoints[f.ID], Getenv: func(k string) string { return set.Env[k] },
			Clock: clock, Timeout: 30 * time.Second, MaxAttempts: 5,
		})
		if t.Err != nil {
			errs[i] = fmt.Errorf("%s: %w", f.ID, t.Err)
			continue
		}
		wg.Go(func() {
			snap, err := providers.Crawl(ctx, []providers.Target{t}, providers.Options{Reference: ref, Regions: regions, Clock: clock, OnlyRegions: only})
			took := time.Since(start)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs[i] = fmt.Errorf("seed %d: %s: %w", seed, f.ID, err)
				return
			}
			run.wall[f.ID], run.snaps[f.ID] = took, snap
			run.whole = max(run.whole, took)
			if in := injectors[f.ID]; in != nil {
				run.injected[f.ID] = in.Stats()
			}
		})
	}
	wg.Wait()
	return run, errors.Join(errs...)
}

// reportFaults prints the table and returns the rows and an error naming each
// crawl under faults that lost rows or differs from the fault-free one.
func reportFaults(factories []providers.Factory, runs []faultRun, rate float64, latency time.Duration) ([]benchrow.Row, error) {
	base := runs[0]
	var rows []benchrow.Row
	var problems []string
	w := tabwriter.NewWriter(os.Stderr, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "seed\tprovider\tfaults injected\tfaults seen\tthrottled\tretries\tswept\trows lost\tidentical\twall\tfault-free\tratio\t\n")
	for _, r := range runs[1:] {
		var sum struct{ injected, seen, throttled, retries, swept, lost int }
		identical := true
		for _, f := range factories {
			p := f.ID
			got, want := r.snaps[p], base.snaps[p]
			cov := got.Coverage[0]
			lost := catalog.RowsLost(want, got)
			same := bytes.Equal(canonical(got), canonical(want))
			injected := r.injected[p].Total()
			sum.injected += injected
			sum.seen += cov.Faults
			sum.throttled += cov.Throttled
			sum.retries += cov.Retries
			sum.swept += cov.Swept
			sum.lost += lost
			identical = identical && same
			fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%.2f×\t\n", r.seed, p, injected, cov.Faults, cov.Throttled, cov.Retries, cov.Swept,
				lost, yesNo(same), seconds(r.wall[p]), seconds(base.wall[p]), r.wall[p].Seconds()/base.wall[p].Seconds())
			if lost > 0 || !same {
				problems = append(problems, fmt.Sprintf("seed %d: %s: %d rows lost, identical %s; coverage %s %v %v", r.seed, p, lost, yesNo(same), cov.Status, cov.FailedRegions, cov.FailedTypes))
			}
		}
		ratio := r.whole.Seconds() / base.whole.Seconds()
		fmt.Fprintf(w, "%d\tall (the crawl)\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%.2f×\t\n", r.seed, sum.injected, sum.seen, sum.throttled, sum.retries, sum.swept,
			sum.lost, yesNo(identical), seconds(r.whole), seconds(base.whole), ratio)
		rows = append(rows, benchrow.Row{
			Stage: "crawl", Name: fmt.Sprintf("%.0f%% faults, seed %d", rate*100, r.seed), Measure: "wall / fault-free wall",
			Value:  fmt.Sprintf("%.2f× (%s / %s)", ratio, seconds(r.whole), seconds(base.whole)),
			Target: fmt.Sprintf("≤ %.2f×", faultTarget), Met: benchrow.Check(ratio <= faultTarget),
			Note: fmt.Sprintf("%d faults injected (throttles, 5xx, resets), %d seen, %d throttled, %d retries, %d swept, %d rows lost, identical: %s; %s latency, production rate limits",
				sum.injected, sum.seen, sum.throttled, sum.retries, sum.swept, sum.lost, yesNo(identical), latency),
		})
	}
	if err := w.Flush(); err != nil {
		problems = append(problems, err.Error())
	}
	for _, r := range rows {
		met := "met"
		if !*r.Met {
			met = "MISSED"
		}
		fmt.Fprintf(os.Stderr, "benchcrawl: %s: %s, target %s: %s\n", r.Name, r.Value, r.Target, met)
	}
	if len(problems) > 0 {
		return rows, errors.New(strings.Join(problems, "\n"))
	}
	return rows, nil
}

// canonical is the snapshot's bytes with the counts of requests, faults,
// retries and sweeps zeroed: they say how hard the crawl tried, not what it
// found.
func canonical(s *catalog.Snapshot) []byte {
	c := *s
	c.Coverage = append([]catalog.Coverage(nil), s.Coverage...)
	for i := range c.Coverage {
		cov := &c.Coverage[i]
		cov.Requests, cov.Faults, cov.Throttled, cov.Retries, cov.Swept = 0, 0, 0, 0, 0
	}
	b, err := c.MarshalCanonical()
	if err != nil {
		return []byte(err.Error())
	}
	return b
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}
