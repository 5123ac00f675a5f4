package providers

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Shortfall is a part of a region's offers that the adapter could not fetch
// after its retries: the price calls of some instance types failed while the
// rest of the region was crawled. The region still counts as crawled; the
// runner asks Again in its sweep at the end of the provider's crawl, and what
// still fails is recorded in coverage per instance type (catalog.TypeFailure),
// so that only those types' previous offers are carried forward.
type Shortfall struct {
	// InstanceTypes are the types whose offers are incomplete (one call may
	// price several: a batch inquiry).
	InstanceTypes []string
	// Err is why (a CallError).
	Err error
	// Again makes the failed calls again and returns the offers they give.
	Again func(ctx context.Context) ([]catalog.Offer, error)
}

// Fatal says whether an error of one price call must fail the whole region
// instead of leaving a Shortfall: the provider refused the credentials (every
// other call would be refused too). A cancelled crawl is told by its context,
// not by the error: a request's own timeout also matches
// context.DeadlineExceeded.
// A recovered panic (ErrPanicked) is fatal too: it fails the provider.
func Fatal(err error) bool { return errors.Is(err, ErrAuth) || errors.Is(err, ErrPanicked) }

// Gather asks ask for every item, at most workers at once, and returns the
// offers in item order. An item whose call fails becomes a Shortfall naming
// types(item) whose Again asks for it once more; a Fatal error stops the
// others and is returned, so that the region fails, and so does the crawl's
// cancellation (ctx's error).
func Gather[T any](ctx context.Context, workers int, items []T, types func(T) []string,
	ask func(ctx context.Context, item T) ([]catalog.Offer, error)) ([]catalog.Offer, []Shortfall, error) {
	results := make([][]catalog.Offer, len(items))
	errs := make([]error, len(items))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for i, item := range items {
		g.Go(func() error {
			errs[i] = Safely("", "a price call", func() (err error) {
				results[i], err = ask(gctx, item)
				return err
			})
			if errs[i] != nil && (Fatal(errs[i]) || ctx.Err() != nil) {
				return errs[i]
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var offers []catalog.Offer
	var short []Shortfall
	for i, item := range items {
		if errs[i] == nil {
			offers = append(offers, results[i]...)
			continue
		}
		short = append(short, Shortfall{InstanceTypes: types(item), Err: errs[i],
			Again: func(ctx context.Context) ([]catalog.Offer, error) { return ask(ctx, item) }})
	}
	return offers, short, nil
}

// sweepable says whether a failed region or call may succeed when asked again
// later: not when the provider refused the credentials, has no such thing,
// or answered with something asking again cannot change. (A timeout may
// clear; the sweep itself stops when the crawl is cancelled.)
func sweepable(err error) bool {
	return err != nil && !Fatal(err) && !errors.Is(err, ErrNotFound) &&
		!errors.Is(err, ErrNoCurrency) && !errors.Is(err, ErrRepeatedPageToken)
}

// sweep asks again, once the rest of the provider's crawl has finished, for
// what failed: regions whose crawl failed are crawled again, and each region's
// shortfalls are asked again, in up to SweepRounds rounds. A call in the sweep
// has its full retry budget again, and counts as swept (WithSweep). What
// still fails stays in errs and the regions' Missing.
func sweep(ctx context.Context, t Target, limit int, regions []string, data []*RegionData, errs []error) {
	ctx = WithSweep(ctx)
	for range SweepRounds {
		if ctx.Err() != nil || !anyLeft(errs, data) {
			return
		}
		var mu sync.Mutex
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(limit)
		for i, region := range regions {
			switch {
			case sweepable(errs[i]):
				g.Go(func() error {
					d, err := crawlRegion(gctx, t, region)
					if err == nil && d == nil {
						err = errors.New("adapter returned no data")
					}
					if err == nil {
						data[i], errs[i] = d, nil
					} else if gctx.Err() == nil {
						errs[i] = err
					}
					return nil
				})
			case errs[i] == nil:
				var keep, again []Shortfall
				for _, s := range data[i].Missing {
					if sweepable(s.Err) && s.Again != nil {
						again = append(again, s)
					} else {
						keep = append(keep, s)
					}
				}
				data[i].Missing = keep // before any of again's calls adds to it
				for _, s := range again {
					g.Go(func() error {
						var offers []catalog.Offer
						err := Safely(t.Factory.ID, "a price call in "+region, func() (err error) {
							offers, err = s.Again(gctx)
							return err
						})
						mu.Lock()
						defer mu.Unlock()
						if err != nil {
							if gctx.Err() == nil {
								s.Err = err
							}
							data[i].Missing = append(data[i].Missing, s)
							return nil
						}
						data[i].Offers = append(data[i].Offers, offers...)
						return nil
					})
				}
			}
		}
		_ = g.Wait()
	}
}

// SweepRounds is how many times the sweep asks again for what still fails:
// a region that keeps failing is crawled 1 + SweepRounds times.
const SweepRounds = 2

// anyLeft says whether a region or a shortfall is left that may succeed when
// asked again.
func anyLeft(errs []error, data []*RegionData) bool {
	for i, err := range errs {
		if sweepable(err) {
			return true
		}
		if err != nil {
			continue
		}
		for _, s := range data[i].Missing {
			if sweepable(s.Err) && s.Again != nil {
				return true
			}
		}
	}
	return false
}
