package providers

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// Listing is a listing of the whole cloud, by region, that an adapter reads
// once per crawl: where the API is not asked per region (Azure's Resource
// SKUs, Google's aggregated machine types), Regions and every region's Crawl
// share the one read, and its error.
type Listing[T any] struct {
	once     sync.Once
	byRegion map[string]T
	err      error
}

// Get reads the listing with list the first time it is called (with that
// call's context), and gives what that read gave every time.
func (l *Listing[T]) Get(ctx context.Context, list func(context.Context) (map[string]T, error)) (map[string]T, error) {
	l.once.Do(func() { l.byRegion, l.err = list(ctx) })
	return l.byRegion, l.err
}

// Regions are the listing's regions, sorted: what an adapter's Regions answers.
func (l *Listing[T]) Regions(ctx context.Context, list func(context.Context) (map[string]T, error)) ([]string, error) {
	m, err := l.Get(ctx, list)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(m)), nil
}
