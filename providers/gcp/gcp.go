// Package gcp is the Google Cloud adapter: GPU machine types and accelerator
// types through the official Compute Engine client (cloud.google.com/go/compute,
// REST; convert.go), and their prices through the official Cloud Billing
// Catalog client (cloud.google.com/go/billing; pricing.go): a GPU machine
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
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"google.golang.org/api/iterator"

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

	once    sync.Once
	types   map[string][]machineInfo // region -> GPU machine types, from Regions
	skus    []skuPrice
	listErr error
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
	if err := a.list(ctx); err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(a.types)), nil
}

// list reads the three listings once: none of them is asked per region.
func (a *Adapter) list(ctx context.Context) error {
	a.once.Do(func() {
		machines, err := listAll(ctx, a, a.calls.listMachineTypes, actionMachineTypes)
		if err != nil {
			a.listErr = err
			return
		}
		accels, err := listAll(ctx, a, a.calls.listAcceleratorTypes, actionAcceleratorTypes)
		if err != nil {
			a.listErr = err
			return
		}
		skus, err := listAll(ctx, a, a.calls.listSKUs, actionSKUs)
		if err != nil {
			a.listErr = err
			return
		}
		a.types = machineTypes(machines, acceleratorNames(accels))
		if a.skus, err = skuPrices(skus); err != nil {
			a.listErr = a.errs.Wrap(err, actionSKUs, "")
		}
	})
	return a.listErr
}

// Crawl gives the GPU machine types of one region with their zones, and
// their prices.
func (a *Adapter) Crawl(ctx context.Context, region string) (*providers.RegionData, error) {
	if err := a.list(ctx); err != nil {
		return nil, err
	}
	data := &providers.RegionData{}
	for _, m := range a.types[region] {
		data.Instances = append(data.Instances, m.instance)
		data.Placements = append(data.Placements, m.placements...)
		data.Offers = append(data.Offers, offers(m, region, a.skus, a.clock().UTC())...)
	}
	return data, nil
}

// pageIter is a client's list iterator.
type pageIter[E any] interface {
	Next() (E, error)
	PageInfo() *iterator.PageInfo
}

// listAll reads a listing one page at a time. A listing's iterator stops
// for good at its first error, so a failed page is asked again by a new
// iterator that starts at that page's token. A token that repeats ends the
// listing with an error: between pages here, and within one attempt where
// the iterator skips empty pages on its own (guardPages).
func listAll[E any](ctx context.Context, a *Adapter, start func(context.Context) (pageIter[E], error), action string) ([]E, error) {
	var out []E
	var tokens providers.PageTokens
	token := ""
	for {
		var page []E
		next, done := "", false
		err := a.retry.Do(ctx, func() error {
			page = page[:0]
			it, err := start(guardPages(ctx))
			if err != nil {
				return err
			}
			it.PageInfo().Token = token
			e, err := it.Next() // asks for the page; the iterator buffers the rest of it
			if errors.Is(err, iterator.Done) {
				done = true
				return nil
			}
			if err != nil {
				return err
			}
			page = append(page, e)
			for it.PageInfo().Remaining() > 0 {
				e, err := it.Next()
				if err != nil {
					return err
				}
				page = append(page, e)
			}
			next = it.PageInfo().Token
			return nil
		})
		if err != nil {
			return nil, a.errs.Wrap(err, action, "")
		}
		out = append(out, page...)
		if done || next == "" {
			return out, nil
		}
		if err := tokens.Next(next); err != nil {
			return nil, a.errs.Wrap(err, action, "")
		}
		token = next
	}
}
