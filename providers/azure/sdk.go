package azure

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v6"
)

// The SDK calls the adapter makes: the Resource SKUs list, page by page.
type (
	skuAPI interface {
		NewListPager() skuPager
	}
	skuPager interface {
		More() bool
		NextPage(ctx context.Context) (armcompute.ResourceSKUsClientListResponse, error)
	}
)

// skuCalls holds the client's call as a func value, never the client itself:
// a client held in an interface keeps every exported method it has in the
// binary (see providers/aws's retryingEC2).
type skuCalls struct {
	newListPager func(*armcompute.ResourceSKUsClientListOptions) skuPager
}

func newSKUCalls(c *armcompute.ResourceSKUsClient) skuCalls {
	return skuCalls{newListPager: func(o *armcompute.ResourceSKUsClientListOptions) skuPager { return c.NewListPager(o) }}
}

// NewListPager lists every SKU of the subscription, in every location: the
// API filters by one location only, and one listing answers all regions.
func (c skuCalls) NewListPager() skuPager { return c.newListPager(nil) }
