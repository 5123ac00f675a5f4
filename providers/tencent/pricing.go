package tencent

import (
	"context"
	"fmt"
	"math"

	"github.com/shopspring/decimal"
	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// newOffer is the offer of a quota's type in its zone at price pr, from source.
func (p *Adapter) newOffer(region string, q quota, pr catalog.Price, source string) *catalog.Offer {
	return &catalog.Offer{
		Provider:     catalog.Tencent,
		InstanceType: *q.item.InstanceType,
		Region:       region,
		Zone:         *q.item.Zone,
		Billing:      q.billing,
		Price:        pr,
		Availability: status(q.item.Status),
		Source:       source,
		FetchedAt:    p.clock().UTC(),
	}
}

// inquire asks InquiryPriceRunInstances for one instance of the quota's type in
// its zone, with the configured image and the default system disk. A type not
// sold so is an error wrapping providers.ErrNotFound.
func (p *Adapter) inquire(ctx context.Context, region string, q quota) (*catalog.Price, error) {
	var resp *cvm.InquiryPriceRunInstancesResponse
	err := p.call(ctx, region, func(ctx context.Context, c cvmAPI) error {
		if err := p.limits.Wait(ctx, actionInquiry); err != nil {
			return err
		}
		req := cvm.NewInquiryPriceRunInstancesRequest()
		req.Placement = &cvm.Placement{Zone: q.item.Zone}
		req.ImageId = ptr(p.image)
		req.InstanceType = q.item.InstanceType
		req.InstanceChargeType = ptr(q.charge)
		req.InstanceCount = ptr(int64(1))
		if q.charge == "PREPAID" {
			req.InstanceChargePrepaid = &cvm.InstanceChargePrepaid{Period: ptr(int64(1))}
		}
		var err error
		resp, err = c.InquiryPriceRunInstancesWithContext(ctx, req)
		return err
	})
	if err != nil {
		return nil, p.errs.Wrap(err, fmt.Sprintf("inquiry price for %s (%s)", *q.item.InstanceType, q.charge), *q.item.Zone)
	}
	if resp.Response == nil || resp.Response.Price == nil {
		return nil, nil
	}
	pr, ok := p.itemPrice(resp.Response.Price.InstancePrice, q.billing)
	if !ok {
		return nil, nil
	}
	return &pr, nil
}

// quotedPrice is the price DescribeZoneInstanceConfigInfos gave with the item,
// if it gave one.
func (p *Adapter) quotedPrice(q quota) (catalog.Price, bool) {
	return p.itemPrice(q.item.Price, q.billing)
}

// itemPrice reads an ItemPrice (both DescribeZoneInstanceConfigInfos and
// InquiryPriceRunInstances use it). Hourly kinds: UnitPriceDiscount is payable
// (UnitPrice when no discount price is given), UnitPrice the list price.
// Monthly: DiscountPrice payable, OriginalPrice list. No positive amount means
// no price.
func (p *Adapter) itemPrice(ip *cvm.ItemPrice, billing catalog.BillingKind) (catalog.Price, bool) {
	if ip == nil {
		return catalog.Price{}, false
	}
	pos := func(f *float64) (decimal.Decimal, bool) {
		if f == nil || *f <= 0 || math.IsNaN(*f) || math.IsInf(*f, 0) {
			return decimal.Zero, false
		}
		return decimal.NewFromFloat(*f), true
	}
	var amount, list decimal.Decimal
	var okA, okL bool
	unit := catalog.PerHour
	if billing == catalog.SubscriptionMonth {
		unit = catalog.PerMonth
		amount, okA = pos(ip.DiscountPrice)
		list, okL = pos(ip.OriginalPrice)
	} else {
		amount, okA = pos(ip.UnitPriceDiscount)
		list, okL = pos(ip.UnitPrice)
	}
	if !okA {
		if !okL {
			return catalog.Price{}, false
		}
		amount = list
	}
	pr := catalog.Price{Amount: amount, Currency: p.currency, Unit: unit}
	if okL {
		pr.List = &list
	}
	return pr, true
}
