// Package gcp is the Google Cloud adapter: GPU machine types and accelerator
// types through Google's official Compute Engine client
// (google.golang.org/api/compute/v1; sdk.go, convert.go), and their prices
// through its official Cloud Billing client (google.golang.org/api/cloudbilling/v1;
// pricing.go): a GPU machine
// type's price is its machine part (the series' core and RAM SKUs) plus its
// accelerators' part (the GPU SKU), both kept on the offer; Spot Preemptible
// SKUs are spot offers. series.go names the SKUs of each machine series and
// accelerator. Credentials come from the environment only: the project in
// GOOGLE_CLOUD_PROJECT and a credentials file (a service account key, a
// workload identity federation configuration or gcloud's user credentials)
// in GOOGLE_APPLICATION_CREDENTIALS, never from the metadata server;
// credentials.go reads the file. transport.go sends each service to its
// endpoint override and sends no credential to a plain-http one. The files
// follow the adapter skeleton described in package providers.
package gcp

import (
	"context"
	"fmt"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Environment variables the adapter reads: Google's standard names.
const (
	envProject     = "GOOGLE_CLOUD_PROJECT"
	envCredentials = "GOOGLE_APPLICATION_CREDENTIALS"
)

// The services an --endpoint flag can point elsewhere.
const (
	serviceCompute = "compute"
	serviceBilling = "billing"
	serviceOAuth2  = "oauth2"
)

// Factory describes the Google Cloud adapter.
//
// Rate: Compute Engine's read requests are limited per project and minute
// (1,500 a minute by default for list calls, 25 a second), the Cloud Billing
// Catalog API to 300 reads a minute (5 a second); both throttle with 429.
// The crawl lists machine types and accelerator types once (a few pages) and
// the billing catalog once (a few pages), so 4 requests a second with a
// burst of 4 keeps under both. Regions only filter what was listed: four are
// crawled at once.
var Factory = providers.Factory{
	ID:            catalog.GCP,
	Services:      []string{serviceCompute, serviceBilling, serviceOAuth2},
	Credentials:   []string{envProject, envCredentials},
	RatePerSecond: 4,
	Burst:         4,
	Concurrency:   4,
	New:           New,
}

const (
	defaultAttempts = 4
	defaultBackoff  = 500 * time.Millisecond
)

// Adapter is the Google Cloud provider.
type Adapter struct {
	calls calls
	clock func() time.Time
	retry providers.Retry
	errs  providers.CallErrors

	types providers.Listing[[]machineInfo] // region -> GPU machine types
	skus  []skuPrice                       // set by the types' listing
}

// New builds the adapter from cfg. Without a project and a credentials file
// it returns an error wrapping providers.ErrNoCredentials.
func New(cfg providers.Config) (providers.Provider, error) {
	keys, err := cfg.Credentials(catalog.GCP, envProject, envCredentials)
	if err != nil {
		return nil, err
	}
	project, file := keys[0], keys[1]
	creds, err := readCredentials(file)
	if err != nil {
		return nil, err
	}
	a := &Adapter{clock: cfg.Now, errs: callErrors(creds.secrets)}
	a.retry = a.errs.Retry(cfg, defaultAttempts, defaultBackoff)
	a.retry.After = retryAfter
	c, err := newClients(cfg, project, creds)
	if err != nil {
		return nil, a.errs.Wrap(err, "build clients", "")
	}
	a.calls = c
	return a, nil
}

// ID is catalog.GCP.
func (a *Adapter) ID() catalog.Provider { return catalog.GCP }

// Regions lists the regions with a zone that offers a GPU machine type: the
// zones of the machine types' aggregated list, read once for the whole crawl
// with the accelerator types and the billing catalog.
func (a *Adapter) Regions(ctx context.Context) ([]string, error) {
	return a.types.Regions(ctx, a.list)
}

// list reads the three listings (none of them is asked per region): the
// machine types by region, and the prices, which it keeps in skus.
func (a *Adapter) list(ctx context.Context) (map[string][]machineInfo, error) {
	machines, err := listAll(ctx, a, a.calls.machineTypes, actionMachineTypes)
	if err != nil {
		return nil, err
	}
	accels, err := listAll(ctx, a, a.calls.acceleratorTypes, actionAcceleratorTypes)
	if err != nil {
		return nil, err
	}
	skus, err := listAll(ctx, a, a.calls.skus, actionSKUs)
	if err != nil {
		return nil, err
	}
	types := machineTypes(machines, acceleratorNames(accels))
	if a.skus, err = skuPrices(skus); err != nil {
		return types, a.errs.Wrap(err, actionSKUs, "")
	}
	return types, nil
}

// Crawl gives the GPU machine types of one region with their zones, and
// their prices.
func (a *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	types, err := a.types.Get(ctx, a.list)
	if err != nil {
		return nil, err
	}
	data := &providers.RegionData{}
	for _, m := range types[region] {
		data.Instances = append(data.Instances, m.instance)
		data.Placements = append(data.Placements, m.placements...)
		data.Offers = append(data.Offers, offers(m, region, a.skus, a.clock().UTC())...)
	}
	return data, nil
}

// maxPages bounds one listing (a few pages each in practice).
const maxPages = 1000

// listAll reads a listing one page at a time, each page in an attempt of its
// own, so a failed page is asked again with its token. A token that repeats,
// or a listing past maxPages, ends it with an error wrapping
// providers.ErrRepeatedPageToken.
func listAll[E any](ctx context.Context, a *Adapter, page pageFunc[E], action string) ([]E, error) {
	var out []E
	var tokens providers.PageTokens
	token := ""
	for n := 1; ; n++ {
		var items []E
		next := ""
		err := a.retry.Do(ctx, func() (err error) {
			items, next, err = page(ctx, token)
			return err
		})
		if err != nil {
			return nil, a.errs.Wrap(err, action, "")
		}
		out = append(out, items...)
		if next == "" {
			return out, nil
		}
		if err := tokens.Next(next); err != nil {
			return nil, a.errs.Wrap(err, action, "")
		}
		if n >= maxPages {
			return nil, a.errs.Wrap(fmt.Errorf("%w: more than %d pages", providers.ErrRepeatedPageToken, maxPages), action, "")
		}
		token = next
	}
}
