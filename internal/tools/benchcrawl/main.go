// Command benchcrawl measures each provider's crawl against its lower bound:
// every provider is crawled through the production path (providers.Prepare with
// the adapter's own rate limits, providers.Crawl), all five at once as the
// nightly crawl runs them, against the recorded replays answering each request
// after a set latency. The bound is what the declared limits allow (see
// lowerBound); the target is a wall time within 1.25× of it. It also counts
// what the requests bought: requests per priced offer (target at most 1.05:
// an adapter asks a price only of what the provider says it sells) and the
// calls answered "not found" (ErrNotFound; target zero: each is a request
// that priced nothing). It appends two benchrows per provider to -rows and
// prints a summary to standard error; it exits non-zero only when a crawl
// fails, not when a target is missed.
//
// With -faults, it measures crawls under faults instead: the fault-free
// crawl and one crawl per -seeds seed with that share of attempts failing
// (each provider's throttling answer, 5xx, resets; unbounded in a row) run
// at once against replay sets of their own, every provider at its production
// limits, and each is compared with the fault-free one: faults injected and
// seen, retries, swept calls, rows lost, identical or not, and the wall time
// against the fault-free crawl's (target 1.5×). It exits non-zero when a crawl
// under faults lost a row or differs (make stress).
//
//	go run ./internal/tools/benchcrawl -latency 50ms -rows FILE
//	go run ./internal/tools/benchcrawl -faults 0.3 -seeds 1,2,3
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/registry"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// target is the ratio of wall time to lower bound a crawl must stay within.
const target = 1.25

// perOfferTarget is the most requests a crawl may send per priced offer: the
// calls that list regions, types and zones on top of one quote per offer, or
// fewer where one answer prices many.
const perOfferTarget = 1.05

func main() {
	latency := flag.Duration("latency", 50*time.Millisecond, "delay of every replay answer")
	rows := flag.String("rows", "", "append one benchrow per provider to this file")
	root := flag.String("root", ".", "repository root holding the fixture folders")
	list := flag.String("providers", "", "comma-separated providers to crawl (default: all)")
	timeout := flag.Duration("timeout", 10*time.Minute, "deadline for the whole run")
	faults := flag.Float64("faults", 0, "share of attempts that fail (0..1): measure crawls under faults against the fault-free crawl")
	seedList := flag.String("seeds", "1,2,3", "with -faults: comma-separated seeds, one crawl under faults each")
	regionList := flag.String("regions", "", "with -faults: comma-separated regions to crawl (default: every region), for a quick trial")
	flag.Parse()
	if *latency < 0 {
		fmt.Fprintln(os.Stderr, "benchcrawl: -latency must not be negative")
		os.Exit(2)
	}
	factories, err := registry.Select(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcrawl: -providers:", err)
		os.Exit(2)
	}
	if *faults != 0 {
		seeds, err := parseSeeds(*seedList)
		if err != nil || *faults < 0 || *faults >= 1 {
			fmt.Fprintf(os.Stderr, "benchcrawl: want -faults in (0, 1) and -seeds as positive integers: %v\n", err)
			os.Exit(2)
		}
		var only []string
		if *regionList != "" {
			only = strings.Split(*regionList, ",")
		}
		if err := benchFaults(*root, *rows, factories, *latency, *timeout, *faults, seeds, only); err != nil {
			fmt.Fprintln(os.Stderr, "benchcrawl:", err)
			os.Exit(1)
		}
		return
	}
	if err := bench(*root, *rows, factories, *latency, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "benchcrawl:", err)
		os.Exit(1)
	}
}

// parseSeeds reads a comma-separated list of positive seeds.
func parseSeeds(list string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("seed %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// bench crawls the providers of factories within timeout, prints each one's
// detail and the summary, and appends the rows to rowsPath when it is set. The
// error joins a failed crawl with a failed report.
func bench(root, rowsPath string, factories []providers.Factory, latency, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	results, err := run(ctx, root, factories, latency)
	for _, r := range results {
		fmt.Fprintln(os.Stderr, r.detail())
	}
	if perr := printSummary(results); perr != nil {
		err = errors.Join(err, perr)
	}
	if rowsPath != "" {
		var out []benchrow.Row
		for _, r := range results {
			out = append(out, r.row(), r.efficiencyRow())
		}
		if werr := benchrow.Append(rowsPath, out...); werr != nil {
			err = errors.Join(err, werr)
		}
	}
	return err
}

// result is one provider's measured crawl.
type result struct {
	provider catalog.Provider
	latency  time.Duration
	wall     time.Duration
	requests int // as the transport counted them
	buckets  []bucket
	inFlight int // the declared cap the bound divides by
	peak     int // the most the replay server answered at once
	bound    bound
	offers   int // priced offers: every offer the crawl made has a price
	notFound int // calls answered "not found" (providers.StatsFigures.NotFound)
}

func (r result) ratio() float64 { return r.wall.Seconds() / r.bound.wall.Seconds() }

// perOffer is the requests sent per priced offer (0 without offers).
func (r result) perOffer() float64 {
	if r.offers == 0 {
		return 0
	}
	return float64(r.requests) / float64(r.offers)
}

// efficient says whether the crawl met the request targets: at most
// perOfferTarget requests per priced offer, none answered "not found", and
// some offer at all.
func (r result) efficient() bool {
	return r.offers > 0 && r.perOffer() <= perOfferTarget && r.notFound == 0
}

// run starts the replays and crawls every provider at once, each timed on its
// own. A crawl that fails, or covers less than every region, is an error.
func run(ctx context.Context, root string, factories []providers.Factory, latency time.Duration) ([]result, error) {
	// The AWS SDK reads its shared files from the process environment.
	for _, k := range []string{"AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"} {
		if err := os.Setenv(k, os.DevNull); err != nil {
			return nil, err
		}
	}
	set, err := replayset.Start(root, replay.WithLatency(latency))
	if err != nil {
		return nil, err
	}
	defer set.Close()
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		return nil, err
	}
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		return nil, err
	}
	results := make([]result, len(factories))
	errs := make([]error, len(factories))
	var wg sync.WaitGroup
	for i, f := range factories {
		srv := set.Servers[f.ID]
		if srv == nil {
			errs[i] = fmt.Errorf("%s: no replay fixture", f.ID)
			continue
		}
		// The settings of `gpuatlas crawl`, rate limits included.
		t := providers.Prepare(f, providers.Config{
			Endpoints: set.Endpoints[f.ID], Getenv: func(k string) string { return set.Env[k] },
			Clock: time.Now, Timeout: 30 * time.Second, MaxAttempts: 5,
		})
		if t.Err != nil {
			errs[i] = fmt.Errorf("%s: %w", f.ID, t.Err)
			continue
		}
		wg.Go(func() {
			start := time.Now()
			snap, err := providers.Crawl(ctx, []providers.Target{t}, providers.Options{Reference: ref, Regions: regions, Clock: time.Now})
			wall := time.Since(start)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", f.ID, err)
				return
			}
			results[i], errs[i] = measure(f, t, srv, snap, latency, wall)
		})
	}
	wg.Wait()
	var ok []result
	for i, r := range results {
		if errs[i] == nil {
			ok = append(ok, r)
		}
	}
	return ok, errors.Join(errs...)
}

// measure checks one provider's crawl and works out its bound.
func measure(f providers.Factory, t providers.Target, srv *replay.Server, snap *catalog.Snapshot, latency, wall time.Duration) (result, error) {
	cov := snap.Coverage[0]
	if cov.Status != catalog.CoverageOK || len(cov.FailedRegions) > 0 {
		return result{}, fmt.Errorf("%s: coverage %s over %d regions, want ok: %d failed regions %v; %s",
			f.ID, cov.Status, cov.Regions, len(cov.FailedRegions), cov.FailedRegions, cov.Message)
	}
	counts := srv.Counts()
	served := 0
	for _, n := range counts {
		served += n
	}
	n := t.Transport.Requests()
	if served != n {
		return result{}, fmt.Errorf("%s: the transport sent %d requests but the replay server received %d", f.ID, n, served)
	}
	r := result{provider: f.ID, latency: latency, wall: wall, requests: n, peak: srv.PeakInFlight(), offers: len(snap.Offers),
		notFound: t.Stats.Figures().NotFound}
	r.buckets = append(r.buckets, bucket{name: "all calls", requests: n, perSecond: f.RatePerSecond, burst: f.Burst})
	for _, l := range f.APILimits {
		k := bucket{name: strings.Join(l.Actions, "+"), perSecond: l.PerSecond, burst: l.Burst}
		for _, a := range l.Actions {
			k.requests += counts[a]
		}
		r.buckets = append(r.buckets, k)
	}
	// The declared cap is what the adapter allows; should the server ever see
	// more at once, the cap is wrong and the measured peak is the safe divisor.
	r.inFlight = max(f.InFlight(), r.peak)
	r.bound = lowerBound(r.buckets, n, latency, r.inFlight)
	return r, nil
}

// row is the result as `make bench` prints it.
func (r result) row() benchrow.Row {
	ratio := r.ratio()
	return benchrow.Row{
		Stage:   "crawl",
		Name:    string(r.provider),
		Measure: "wall / lower bound",
		Value:   fmt.Sprintf("%.2f× (%s / %s)", ratio, seconds(r.wall), seconds(r.bound.wall)),
		Target:  fmt.Sprintf("≤ %.2f×", target),
		Met:     benchrow.Check(ratio <= target),
		Note:    r.note(),
	}
}

// efficiencyRow is what the requests bought, as `make bench` prints it:
// every request the crawl sent, listing calls included, over the offers it
// priced, and the calls the provider answered that what they asked (a price
// of a type, zone and billing method) does not exist.
func (r result) efficiencyRow() benchrow.Row {
	return benchrow.Row{
		Stage:   "crawl",
		Name:    string(r.provider),
		Measure: "requests per priced offer",
		Value:   fmt.Sprintf("%.3f (%d requests / %d offers); %d answered not found", r.perOffer(), r.requests, r.offers, r.notFound),
		Target:  fmt.Sprintf("≤ %.2f; 0 not found", perOfferTarget),
		Met:     benchrow.Check(r.efficient()),
	}
}

// note says what the bound is made of: the requests per bucket with its limit,
// the latency and the in-flight cap, and which of them binds.
func (r result) note() string {
	var parts []string
	for _, k := range r.buckets {
		parts = append(parts, k.describe())
	}
	flight := fmt.Sprintf("%d in flight at most", r.inFlight)
	if r.peak > 0 {
		flight += fmt.Sprintf(" (peak %d)", r.peak)
	}
	return fmt.Sprintf("%d requests (%s); %s latency; %s; bound set by %s", r.requests, strings.Join(parts, ", "), r.latency, flight, r.bound.by)
}

func (r result) detail() string {
	return fmt.Sprintf("benchcrawl: %s: %s, %d offers, %.3f requests per offer, %d answered not found", r.provider, r.note(), r.offers, r.perOffer(), r.notFound)
}

func printSummary(results []result) error {
	w := tabwriter.NewWriter(os.Stderr, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "provider\trequests\twall\tbound\tratio\ttarget\toffers\tper offer\tnot found\ttarget\t")
	for _, r := range results {
		met, eff := "met", "met"
		if r.ratio() > target {
			met = "MISSED"
		}
		if !r.efficient() {
			eff = "MISSED"
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%.2f×\t%s\t%d\t%.3f\t%d\t%s\t\n", r.provider, r.requests, seconds(r.wall), seconds(r.bound.wall), r.ratio(), met,
			r.offers, r.perOffer(), r.notFound, eff)
	}
	return w.Flush()
}

// seconds formats a duration as "14.1 s".
func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
