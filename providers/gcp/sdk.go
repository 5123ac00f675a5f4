package gcp

import (
	"context"
	"sort"

	cloudbilling "google.golang.org/api/cloudbilling/v1"
	"google.golang.org/api/compute/v1"
)

// pageSize is the most items the adapter asks for in one page: the largest
// page Compute Engine's lists give (maxResults 500); the billing catalog
// allows 5,000 but pages of 500 keep a failed page cheap to ask again.
const pageSize = 500

// calls reads one page of each listing: a page function takes a page token
// ("" for the first page) and gives the page's items and the next token.
// Both services are read through Google's official Go clients of its APIs
// (google.golang.org/api: compute/v1 and cloudbilling/v1), a call per page
// with the listing's context. The calls are func values over the clients
// (newCalls), never the clients in a field: the adapter is held in an
// interface, and a *compute.Service a field away from it kept every method
// of all of Compute Engine's services in the binary (12,628 symbols) through
// html/template's reflection (see providers/aws's retryingEC2).
type calls struct {
	machineTypes     pageFunc[zoneMachines]
	acceleratorTypes pageFunc[zoneAccelerators]
	skus             pageFunc[*cloudbilling.Sku]
}

// newCalls are the page functions over the two clients, in project.
func newCalls(cs *compute.Service, bs *cloudbilling.APIService, project string) calls {
	return calls{
		machineTypes: func(ctx context.Context, token string) ([]zoneMachines, string, error) {
			r, err := cs.MachineTypes.AggregatedList(project).Filter(machineFilter).MaxResults(pageSize).PageToken(token).Context(ctx).Do()
			if err != nil {
				return nil, "", err
			}
			out := make([]zoneMachines, 0, len(r.Items))
			for k, v := range r.Items {
				out = append(out, zoneMachines{k, v.MachineTypes})
			}
			sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
			return out, r.NextPageToken, nil
		},
		acceleratorTypes: func(ctx context.Context, token string) ([]zoneAccelerators, string, error) {
			r, err := cs.AcceleratorTypes.AggregatedList(project).MaxResults(pageSize).PageToken(token).Context(ctx).Do()
			if err != nil {
				return nil, "", err
			}
			out := make([]zoneAccelerators, 0, len(r.Items))
			for k, v := range r.Items {
				out = append(out, zoneAccelerators{k, v.AcceleratorTypes})
			}
			sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
			return out, r.NextPageToken, nil
		},
		// Compute Engine's SKUs in the billing catalog.
		skus: func(ctx context.Context, token string) ([]*cloudbilling.Sku, string, error) {
			r, err := bs.Services.Skus.List(computeService).CurrencyCode("USD").PageSize(pageSize).PageToken(token).Context(ctx).Do()
			if err != nil {
				return nil, "", err
			}
			return r.Skus, r.NextPageToken, nil
		},
	}
}

// computeService is Compute Engine's service id in the billing catalog.
const computeService = "services/6F81-5844-456A"

// machineFilter keeps the machine types of the GPU series (seriesSKUs): the
// aggregated list of every zone is otherwise thousands of general-purpose
// types.
const machineFilter = `name eq "(a2|a3|a4|g2)-.*"`

// zoneMachines and zoneAccelerators are one zone's part of an aggregated
// list page ("zones/us-central1-a").
type (
	zoneMachines struct {
		key   string
		types []*compute.MachineType
	}
	zoneAccelerators struct {
		key   string
		types []*compute.AcceleratorType
	}
)

// The page types of each listing.
type (
	machinePage     = []zoneMachines
	acceleratorPage = []zoneAccelerators
	skuPage         = []*cloudbilling.Sku
)

// pageFunc reads the page of a listing that token names: its items and the
// next page's token ("" after the last).
type pageFunc[E any] func(ctx context.Context, token string) ([]E, string, error)
