package providers

import (
	"context"
	"errors"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Provider is one cloud's adapter. It speaks only catalog types; the vendor SDK
// stays inside the adapter's package.
type Provider interface {
	// ID is the provider id (aws, alibaba, ...).
	ID() catalog.Provider
	// Regions lists the regions to crawl, from the provider's API.
	Regions(ctx context.Context) ([]string, error)
	// Crawl fetches the instance types, placements and offers of one region.
	Crawl(ctx context.Context, region string) (*RegionData, error)
}

// RegionData is what a provider's crawl of one region returns. Accelerator names
// are as the provider gives them; the runner maps them to GPU models.
type RegionData struct {
	Instances  []catalog.InstanceType
	Placements []catalog.Placement
	Offers     []catalog.Offer
	// Missing are the price calls that failed while the rest of the region
	// was crawled; the runner sweeps them at the end (see Shortfall).
	Missing []Shortfall
	// Warnings say what an optional enrichment could not add (the AWS Spot
	// Instance Advisor's bands): the primary data is all there, so they do
	// not make the coverage partial. The runner records each distinct
	// warning once (Coverage.Warnings), however many regions give it.
	Warnings []string
}

// Factory describes a provider and builds its adapter.
type Factory struct {
	ID catalog.Provider
	// Services are the names accepted after the provider in --endpoint.
	Services []string
	// Credentials are the environment variables the adapter reads.
	Credentials []string
	// RatePerSecond and Burst are the token bucket the transport keeps all of the
	// provider's requests to; Concurrency is the number of regions crawled at once.
	RatePerSecond float64
	Burst         int
	Concurrency   int
	// APILimits are documented limits of single API actions, kept on top of the
	// transport's limit on all calls. They are declared here, once, so that the
	// limiters the adapter waits on and the crawl benchmark's lower bound
	// (internal/tools/benchcrawl) come from the same figures.
	APILimits []APILimit
	// MaxInFlight is the most requests the adapter can have in flight at once:
	// the regions crawled at once times the calls a region has in flight, or a
	// client pool where one bounds it. The crawl benchmark's latency bound
	// divides by it. Zero means Concurrency.
	MaxInFlight int
	// New builds the adapter; it returns ErrNoCredentials when none are configured.
	New func(cfg Config) (Provider, error)
}

// APILimit is a token bucket on some of a provider's API actions.
type APILimit struct {
	// Actions are the API actions the bucket holds, as the vendor names them
	// ("GetProducts"); they share the bucket.
	Actions   []string
	PerSecond float64
	Burst     int
}

// InFlight is MaxInFlight, or Concurrency where that is unset.
func (f Factory) InFlight() int {
	if f.MaxInFlight > 0 {
		return f.MaxInFlight
	}
	return f.Concurrency
}

// Error classes that adapters map vendor errors into, in one place per adapter;
// retries and partial coverage are decided from these.
var (
	ErrNoCredentials = errors.New("no credentials configured")
	ErrThrottled     = errors.New("throttled")
	ErrAuth          = errors.New("authentication failed")
	ErrNotFound      = errors.New("not found")
	ErrUnavailable   = errors.New("service unavailable")
)
