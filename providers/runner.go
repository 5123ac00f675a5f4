package providers

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"golang.org/x/sync/errgroup"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Target is one provider prepared for a crawl: its factory, the adapter (nil when
// it could not be built, with Err saying why), the transport it sends through
// and the counters of its calls' faults and retries.
type Target struct {
	Factory   Factory
	Provider  Provider
	Transport *Transport
	Stats     *Stats
	Err       error
}

// Prepare builds a target from a factory: it makes the rate-limited transport and
// the per-API limiters and calls the constructor with them. A constructor error
// is kept in the target, so a provider without credentials is reported as
// skipped, not fatal. Unless cfg sets a backoff, retries back off from the
// provider's rate (RetryBackoff).
func Prepare(f Factory, cfg Config) Target {
	rps := f.RatePerSecond
	cfg.APILimiters = NewAPILimiters(f.APILimits)
	if cfg.Unlimited {
		rps = 0
		cfg.APILimiters = nil
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = RetryBackoff(rps)
	}
	tr := NewTransport(rps, f.Burst)
	if cfg.Transport != nil {
		tr.Base = cfg.Transport
	}
	cfg.Transport = tr
	if cfg.Stats == nil {
		cfg.Stats = &Stats{}
	}
	p, err := f.New(cfg)
	return Target{Factory: f, Provider: p, Transport: tr, Stats: cfg.Stats, Err: err}
}

// RetryBackoff is the base delay of a provider's retries at perSecond
// requests a second: two of its token intervals (at least 50 ms), so that a
// first retry waits about as long as the provider's own limit makes a
// request wait when its bucket is empty, and each further one twice that.
// Zero (no rate, as for a local replay) keeps the adapter's default.
func RetryBackoff(perSecond float64) time.Duration {
	if perSecond <= 0 {
		return 0
	}
	return max(50*time.Millisecond, time.Duration(2*float64(time.Second)/perSecond))
}

// Options are the settings of a crawl run.
type Options struct {
	Reference *catalog.GPUReference
	Regions   *catalog.RegionTable
	Clock     func() time.Time
	// OnlyRegions, when set, limits each provider to these region ids.
	OnlyRegions []string
	// Progress, when set, is told about each region as it finishes.
	Progress func(p catalog.Provider, region string, err error)
	// Listed, when set, is told how many regions a provider will crawl, once
	// they are listed and before the first Progress of that provider.
	Listed func(p catalog.Provider, regions int)
}

// Crawl runs every target, providers in parallel and regions of a provider with the
// provider's concurrency bound, and assembles a snapshot. Once a provider's
// regions have all been crawled, what failed is swept: failed regions are
// crawled again and failed price calls (RegionData.Missing) asked again, each
// with a fresh retry budget. A region that still fails is recorded as partial
// coverage, and so is an instance type whose price calls still fail
// (Coverage.FailedTypes); a provider that fails entirely is recorded as
// failed (or skipped without credentials) with no data: merging with the
// previous snapshot (catalog.MergeCrawl) then keeps its last good data, for
// failed types only theirs. The error return is for a cancelled context only.
func Crawl(ctx context.Context, targets []Target, opts Options) (*catalog.Snapshot, error) {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	snap := &catalog.Snapshot{Schema: catalog.SchemaVersion, TakenAt: clock().UTC()}
	results := make([]providerResult, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A panic in the adapter fails its provider only.
			defer func() {
				if r := recover(); r != nil {
					results[i] = failedResult(t, newPanicError(t.Factory.ID, "crawl", r))
				}
			}()
			results[i] = crawlProvider(ctx, t, opts)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("crawl cancelled: %w", err)
	}
	unmapped := map[string]*catalog.UnmappedAccelerator{}
	for _, r := range results {
		snap.Coverage = append(snap.Coverage, r.coverage)
		snap.Regions = append(snap.Regions, r.regions...)
		for _, it := range r.instances {
			it = resolveAccelerators(it, opts.Reference, unmapped)
			snap.Instances = append(snap.Instances, it)
		}
		snap.Placements = append(snap.Placements, r.placements...)
		snap.Offers = append(snap.Offers, r.offers...)
	}
	for _, u := range unmapped {
		snap.Unmapped = append(snap.Unmapped, *u)
	}
	snap.Sort()
	return snap, nil
}

type providerResult struct {
	coverage   catalog.Coverage
	regions    []catalog.Region
	instances  []catalog.InstanceType
	placements []catalog.Placement
	offers     []catalog.Offer
}

func crawlProvider(ctx context.Context, t Target, opts Options) (res providerResult) {
	res = providerResult{coverage: catalog.Coverage{Provider: t.Factory.ID}}
	defer func() {
		if t.Transport != nil {
			res.coverage.Requests = t.Transport.Requests()
		}
		f := t.Stats.Figures()
		res.coverage.Faults, res.coverage.Throttled, res.coverage.Retries, res.coverage.Swept = f.Faults, f.Throttled, f.Retries, f.Swept
	}()
	cov := &res.coverage
	if t.Err != nil {
		if errors.Is(t.Err, ErrNoCredentials) {
			cov.Status = catalog.CoverageSkipped
		} else {
			cov.Status = catalog.CoverageFailed
		}
		cov.Message = t.Err.Error()
		return res
	}
	listRegions := func(ctx context.Context) (regions []string, err error) {
		err = Safely(t.Factory.ID, "list regions", func() (err error) {
			regions, err = t.Provider.Regions(ctx)
			return err
		})
		return regions, err
	}
	regions, err := listRegions(ctx)
	if sweepable(err) && ctx.Err() == nil {
		// The region list is asked again once, with a fresh retry budget,
		// before the whole provider is given up.
		regions, err = listRegions(WithSweep(ctx))
	}
	if err != nil {
		cov.Status = catalog.CoverageFailed
		cov.Message = fmt.Sprintf("list regions: %v", err)
		return res
	}
	regions = filterRegions(regions, opts.OnlyRegions)
	sort.Strings(regions)
	if opts.Listed != nil {
		opts.Listed(t.Factory.ID, len(regions))
	}
	data := make([]*RegionData, len(regions))
	errs := make([]error, len(regions))
	g, gctx := errgroup.WithContext(ctx)
	limit := t.Factory.Concurrency
	if limit < 1 {
		limit = 4
	}
	g.SetLimit(limit)
	for i, region := range regions {
		g.Go(func() error {
			d, err := crawlRegion(gctx, t, region)
			if err == nil && d == nil {
				err = errors.New("adapter returned no data")
			}
			data[i], errs[i] = d, err
			// A failed region is told once the sweep has had its go.
			if opts.Progress != nil && err == nil {
				opts.Progress(t.Factory.ID, region, nil)
			}
			return nil // a failed region is partial coverage, not a failed crawl
		})
	}
	_ = g.Wait()
	failedFirst := make([]bool, len(regions))
	for i := range regions {
		failedFirst[i] = errs[i] != nil
	}
	if err := panicIn(errs, data); err == nil {
		sweep(ctx, t, limit, regions, data, errs)
	}
	if err := panicIn(errs, data); err != nil {
		return failedResult(t, err)
	}
	seen := map[string]bool{}
	for i, region := range regions {
		if opts.Progress != nil && failedFirst[i] {
			opts.Progress(t.Factory.ID, region, errs[i])
		}
		if errs[i] != nil {
			cov.FailedRegions = append(cov.FailedRegions, catalog.RegionFailure{Region: region, Reason: errs[i].Error()})
			continue
		}
		cov.FailedTypes = append(cov.FailedTypes, typeFailures(region, data[i].Missing)...)
		for _, w := range data[i].Warnings {
			if !slices.Contains(cov.Warnings, w) {
				cov.Warnings = append(cov.Warnings, w)
			}
		}
		cov.Regions++
		reg, _ := opts.Regions.Lookup(t.Factory.ID, region)
		res.regions = append(res.regions, reg)
		for _, it := range data[i].Instances {
			it, problems, ok := SaneInstanceType(it)
			for _, p := range problems {
				cov.Message = strings.TrimSpace(cov.Message + " " + p + ";")
			}
			if !ok || seen[it.Key()] {
				continue // the same type seen in an earlier region; regions are in order
			}
			seen[it.Key()] = true
			res.instances = append(res.instances, it)
		}
		res.placements = append(res.placements, data[i].Placements...)
		res.offers = append(res.offers, data[i].Offers...)
	}
	slices.Sort(cov.Warnings)
	switch {
	case len(regions) == 0:
		cov.Status = catalog.CoverageFailed
		cov.Message = "the provider listed no regions"
	case cov.Regions == 0:
		cov.Status = catalog.CoverageFailed
		cov.Message = fmt.Sprintf("all %d regions failed", len(regions))
	case len(cov.FailedRegions) > 0 || len(cov.FailedTypes) > 0:
		cov.Status = catalog.CoveragePartial
	default:
		cov.Status = catalog.CoverageOK
	}
	if cov.Regions > 0 {
		cov.LastOK = opts.clock().UTC()
	}
	// Offers must refer to a type the crawl returned; drop none silently, but
	// keep the message short: the count and the first few.
	var orphans []string
	for _, o := range res.offers {
		if !seen[o.InstanceKey()] {
			orphans = append(orphans, o.Key())
		}
	}
	if len(orphans) > 0 {
		sort.Strings(orphans)
		shown := orphans
		if len(shown) > 3 {
			shown = shown[:3]
		}
		note := fmt.Sprintf("%d offers refer to instance types the API did not describe and were left out (%s", len(orphans), strings.Join(shown, ", "))
		if len(orphans) > len(shown) {
			note += ", …"
		}
		cov.Message = strings.TrimSpace(cov.Message + " " + note + ")")
	}
	if cov.Message != "" && cov.Status == catalog.CoverageOK {
		cov.Status = catalog.CoveragePartial
	}
	res.offers = keepDescribed(res.offers, seen)
	observedWhenFetched(res.offers)
	catalog.FlagImplausible(res.instances, res.offers)
	return res
}

// crawlRegion is the adapter's Crawl of one region with a panic recovered as a
// *PanicError.
func crawlRegion(ctx context.Context, t Target, region string) (d *RegionData, err error) {
	err = Safely(t.Factory.ID, "crawl "+region, func() (err error) {
		d, err = t.Provider.Crawl(ctx, region)
		return err
	})
	return d, err
}

// failedResult is a provider whose crawl failed as a whole with err (a
// recovered panic): no data, the error as the coverage's message.
func failedResult(t Target, err error) providerResult {
	cov := catalog.Coverage{Provider: t.Factory.ID, Status: catalog.CoverageFailed, Message: err.Error()}
	if t.Transport != nil {
		cov.Requests = t.Transport.Requests()
	}
	if t.Stats != nil {
		f := t.Stats.Figures()
		cov.Faults, cov.Throttled, cov.Retries, cov.Swept = f.Faults, f.Throttled, f.Retries, f.Swept
	}
	return providerResult{coverage: cov}
}

func (o Options) clock() time.Time {
	if o.Clock == nil {
		return time.Now()
	}
	return o.Clock()
}

// observedWhenFetched dates the offers an adapter did not date itself: a live
// API answers with the price that holds when it is asked, so the price was
// observed when it was fetched. (The embedded catalog's offers are re-dated
// from their fixtures' manifests by mkdata: a replay answers with old data.)
func observedWhenFetched(offers []catalog.Offer) {
	for i := range offers {
		if offers[i].ObservedAt.IsZero() {
			offers[i].ObservedAt = offers[i].FetchedAt
		}
	}
}

// typeFailures records a region's shortfalls per instance type, in type
// order; a type two shortfalls name is recorded once, with both reasons.
func typeFailures(region string, missing []Shortfall) []catalog.TypeFailure {
	reasons := map[string][]string{}
	for _, s := range missing {
		for _, typ := range s.InstanceTypes {
			reason := s.Err.Error()
			if !slices.Contains(reasons[typ], reason) {
				reasons[typ] = append(reasons[typ], reason)
			}
		}
	}
	var out []catalog.TypeFailure
	for _, typ := range slices.Sorted(maps.Keys(reasons)) {
		out = append(out, catalog.TypeFailure{Region: region, InstanceType: typ, Reason: strings.Join(reasons[typ], "; ")})
	}
	return out
}

func keepDescribed(offers []catalog.Offer, seen map[string]bool) []catalog.Offer {
	out := offers[:0]
	for _, o := range offers {
		if seen[o.InstanceKey()] {
			out = append(out, o)
		}
	}
	return out
}

func filterRegions(regions, only []string) []string {
	if len(only) == 0 {
		return regions
	}
	keep := map[string]bool{}
	for _, r := range only {
		keep[r] = true
	}
	var out []string
	for _, r := range regions {
		if keep[r] {
			out = append(out, r)
		}
	}
	return out
}

// resolveAccelerators maps each accelerator's provider name to a canonical model
// and then reconciles its figures with the GPU reference (catalog.Reconcile:
// nominal memory class, a missing memory filled, conflicts recorded). An
// adapter's own share (AWS GpuPartitionSize) wins over an alias's share; a name
// without a model is recorded in unmapped.
func resolveAccelerators(it catalog.InstanceType, ref *catalog.GPUReference, unmapped map[string]*catalog.UnmappedAccelerator) catalog.InstanceType {
	accs := make([]catalog.Accelerator, len(it.Accelerators))
	copy(accs, it.Accelerators)
	for i, a := range accs {
		var m catalog.Match
		ok := false
		switch {
		case a.Model != "" && ref != nil:
			// The adapter mapped the device itself (Tencent's family table);
			// keep its model and confidence if the reference knows the model.
			if _, known := ref.Model(a.Model); known {
				m, ok = catalog.Match{Model: a.Model, Confidence: a.MappingConfidence}, true
			}
		case ref != nil:
			m, ok = ref.ResolveDevice(it.Provider, a.Name, a.MemoryGiB)
		}
		if ok {
			a.Model = m.Model
			a.MappingConfidence = m.Confidence
			// The reference knows what a model is: an adapter that can only say
			// "GPU" (Tencent's family table) does not make an inference chip one.
			if model, known := ref.Model(m.Model); known && a.Kind == catalog.KindGPU && model.Kind != "" {
				a.Kind = model.Kind
			}
			if a.Share.IsZero() && !m.Share.IsZero() {
				a.Share = m.Share
			}
		} else {
			a.Model = ""
			key := string(it.Provider) + "\x00" + a.Name
			u := unmapped[key]
			if u == nil {
				u = &catalog.UnmappedAccelerator{Provider: it.Provider, Name: a.Name}
				unmapped[key] = u
			}
			u.InstanceTypes = append(u.InstanceTypes, it.ID)
		}
		if a.Share.IsZero() {
			a.Share = decimal.NewFromInt(1)
		}
		accs[i] = a
	}
	it.Accelerators = accs
	return ref.Reconcile(it)
}
