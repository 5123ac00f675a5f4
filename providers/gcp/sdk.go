package gcp

import (
	"context"

	billing "cloud.google.com/go/billing/apiv1"
	"cloud.google.com/go/billing/apiv1/billingpb"
	compute "cloud.google.com/go/compute/apiv1"
	"cloud.google.com/go/compute/apiv1/computepb"
)

// pageSize is the most items the adapter asks for in one page: the largest
// page Compute Engine's lists give (maxResults 500); the billing catalog
// allows 5,000 but pages of 500 keep a failed page cheap to ask again.
const pageSize = 500

// calls makes the clients, one for each listing (newClients says why), and
// lists: each listing starts at a page token ("" for the first page) and is
// read through a pager. The calls are func values, never clients held in an
// interface: that would keep every exported method of a client in the
// binary (see providers/aws's retryingEC2).
type calls struct {
	machineTypes     func(ctx context.Context) (*compute.MachineTypesClient, error)
	acceleratorTypes func(ctx context.Context) (*compute.AcceleratorTypesClient, error)
	catalog          func(ctx context.Context) (*billing.CloudCatalogClient, error)
	project          string
}

// computeService is Compute Engine's service id in the billing catalog.
const computeService = "services/6F81-5844-456A"

// The listings: an iterator over each, from its first page (listAll sets
// the page token).
func (c calls) listMachineTypes(ctx context.Context) (pageIter[compute.MachineTypesScopedListPair], error) {
	mt, err := c.machineTypes(ctx)
	if err != nil {
		return nil, err
	}
	return mt.AggregatedList(ctx, &computepb.AggregatedListMachineTypesRequest{Project: c.project, Filter: ptr(machineFilter),
		MaxResults: ptr(uint32(pageSize))}), nil
}

func (c calls) listAcceleratorTypes(ctx context.Context) (pageIter[compute.AcceleratorTypesScopedListPair], error) {
	at, err := c.acceleratorTypes(ctx)
	if err != nil {
		return nil, err
	}
	return at.AggregatedList(ctx, &computepb.AggregatedListAcceleratorTypesRequest{Project: c.project, MaxResults: ptr(uint32(pageSize))}), nil
}

func (c calls) listSKUs(ctx context.Context) (pageIter[*billingpb.Sku], error) {
	cat, err := c.catalog(ctx)
	if err != nil {
		return nil, err
	}
	return cat.ListSkus(ctx, &billingpb.ListSkusRequest{Parent: computeService, CurrencyCode: "USD", PageSize: pageSize}), nil
}

// machineFilter keeps the machine types of the GPU series (seriesSKUs): the
// aggregated list of every zone is otherwise thousands of general-purpose
// types.
const machineFilter = `name eq "(a2|a3|a4|g2)-.*"`

// The page types of each listing.
type (
	machinePage     = []compute.MachineTypesScopedListPair
	acceleratorPage = []compute.AcceleratorTypesScopedListPair
	skuPage         = []*billingpb.Sku
)

func ptr[T any](v T) *T { return &v }
