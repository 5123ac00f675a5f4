package huawei

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	bssmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/bss/v2/model"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// BSS price inquiry takes up to 100 product_infos per request (documented limit of
// ListOnDemandResourceRatings and ListRateOnPeriodDetail).
const inquiryBatch = 100

// Codes of the BSS price inquiry for an ECS VM, from Huawei's "Price Inquiry
// Example of Pay-Per-Use Products" (api-bpconsole csdp_faq_062502): the resource
// spec is the flavor id plus ".linux"; usage_measure_id 4 is hours; period_type 2
// is month, 3 is year.
const (
	cloudServiceECS  = "hws.service.type.ec2"
	resourceTypeVM   = "hws.resource.type.vm"
	usageFactor      = "Duration"
	usageMeasureHour = 4
	periodMonth      = 2
	periodYear       = 3
)

// prices asks BSS for the on-demand hourly price and the monthly and yearly
// subscription prices of the region's GPU flavors, in the currency each answer
// states (CNY on the Chinese site). The BSS reference says an empty currency
// means CNY; like every adapter, this one does not assume: an answer with
// prices and no currency is providers.NoCurrency. The inquiries go one at a
// time; one that fails after its retries leaves a shortfall for the flavors
// it priced (see providers.Shortfall), not a failed region.
func (a *Adapter) prices(ctx context.Context, region, projectID string, flavors []flavorInfo, fetched time.Time) ([]catalog.Offer, []providers.Shortfall, error) {
	var demand, period []flavorInfo
	for _, f := range flavors {
		if f.onDemand {
			demand = append(demand, f)
		}
		if f.period {
			period = append(period, f)
		}
	}
	var batches []priceBatch
	for start := 0; start < len(demand); start += inquiryBatch {
		batches = append(batches, priceBatch{flavors: demand[start:min(start+inquiryBatch, len(demand))]})
	}
	// Each flavor has a monthly and a yearly quote in one inquiry.
	for start := 0; start < len(period); start += inquiryBatch / 2 {
		batches = append(batches, priceBatch{period: true, flavors: period[start:min(start+inquiryBatch/2, len(period))]})
	}
	return providers.Gather(ctx, 1, batches, priceBatch.types, func(ctx context.Context, b priceBatch) ([]catalog.Offer, error) {
		if b.period {
			return a.periodPrices(ctx, region, projectID, b.flavors, fetched)
		}
		return a.onDemandPrices(ctx, region, projectID, b.flavors, fetched)
	})
}

// priceBatch is one price inquiry: the on-demand or the subscription prices
// of up to inquiryBatch quotes.
type priceBatch struct {
	period  bool
	flavors []flavorInfo
}

func (b priceBatch) types() []string {
	out := make([]string, len(b.flavors))
	for i, f := range b.flavors {
		out[i] = f.instance.ID
	}
	return out
}

func (f flavorInfo) offer(region string, billing catalog.BillingKind, p catalog.Price, source string, fetched time.Time) catalog.Offer {
	return catalog.Offer{Provider: catalog.Huawei, InstanceType: f.instance.ID, Region: region, Billing: billing,
		Price: p, Availability: f.availability, Zones: f.zones, Source: source, FetchedAt: fetched}
}

// onDemandPrices asks ListOnDemandResourceRatings for the hourly prices of
// flavors.
func (a *Adapter) onDemandPrices(ctx context.Context, region, projectID string, flavors []flavorInfo, fetched time.Time) ([]catalog.Offer, error) {
	byID := map[string]flavorInfo{}
	req := &bssmodel.ListOnDemandResourceRatingsRequest{Body: &bssmodel.RateOnDemandReq{ProjectId: projectID}}
	one := decimal.NewFromInt(1)
	for _, f := range flavors {
		byID[f.instance.ID] = f
		req.Body.ProductInfos = append(req.Body.ProductInfos, bssmodel.DemandProductInfo{
			Id: f.instance.ID, CloudServiceType: cloudServiceECS, ResourceType: resourceTypeVM,
			ResourceSpec: f.instance.ID + ".linux", Region: region, UsageFactor: usageFactor,
			UsageValue: &one, UsageMeasureId: usageMeasureHour, SubscriptionNum: 1,
		})
	}
	var resp *bssmodel.ListOnDemandResourceRatingsResponse
	err := a.retry.Do(ctx, func() error {
		var err error
		resp, err = a.bss.ListOnDemandResourceRatings(req)
		return err
	})
	if err != nil {
		return nil, a.errs.Wrap(err, fmt.Sprintf("on-demand price inquiry for %d flavors", len(flavors)), region)
	}
	if resp.ProductRatingResults == nil || len(*resp.ProductRatingResults) == 0 {
		return nil, nil
	}
	cur, err := providers.AnswerCurrency(catalog.Huawei, "ListOnDemandResourceRatings", region, "currency", str(resp.Currency))
	if err != nil {
		return nil, err
	}
	var offers []catalog.Offer
	for _, r := range *resp.ProductRatingResults {
		f, ok := byID[str(r.Id)]
		if !ok {
			continue
		}
		if p, ok := price(r.Amount, r.OfficialWebsiteAmount, cur, catalog.PerHour); ok {
			offers = append(offers, f.offer(region, catalog.OnDemand, p, sourceOnDemand, fetched))
		}
	}
	return offers, nil
}

// periodPrices asks ListRateOnPeriodDetail for the monthly and yearly
// subscription prices of flavors, in one inquiry told apart by id.
func (a *Adapter) periodPrices(ctx context.Context, region, projectID string, flavors []flavorInfo, fetched time.Time) ([]catalog.Offer, error) {
	type quote struct {
		flavor  flavorInfo
		billing catalog.BillingKind
		unit    catalog.PriceUnit
	}
	var infos []bssmodel.PeriodProductInfo
	quotes := map[string]quote{}
	for _, f := range flavors {
		for _, q := range []struct {
			suffix  string
			typ     int32
			billing catalog.BillingKind
			unit    catalog.PriceUnit
		}{{"#month", periodMonth, catalog.SubscriptionMonth, catalog.PerMonth}, {"#year", periodYear, catalog.SubscriptionYear, catalog.PerYear}} {
			id := f.instance.ID + q.suffix
			quotes[id] = quote{f, q.billing, q.unit}
			infos = append(infos, bssmodel.PeriodProductInfo{Id: id, CloudServiceType: cloudServiceECS,
				ResourceType: resourceTypeVM, ResourceSpec: f.instance.ID + ".linux", Region: region,
				PeriodType: q.typ, PeriodNum: 1, SubscriptionNum: 1})
		}
	}
	req := &bssmodel.ListRateOnPeriodDetailRequest{Body: &bssmodel.RateOnPeriodReq{ProjectId: projectID, ProductInfos: infos}}
	var resp *bssmodel.ListRateOnPeriodDetailResponse
	err := a.retry.Do(ctx, func() error {
		var err error
		resp, err = a.bss.ListRateOnPeriodDetail(req)
		return err
	})
	if err != nil {
		return nil, a.errs.Wrap(err, fmt.Sprintf("subscription price inquiry for %d quotes", len(infos)), region)
	}
	// The official website (list) price is the published one; optional
	// discounts are account-specific and must be chosen when ordering.
	if resp.OfficialWebsiteRatingResult == nil || resp.OfficialWebsiteRatingResult.ProductRatingResults == nil ||
		len(*resp.OfficialWebsiteRatingResult.ProductRatingResults) == 0 {
		return nil, nil
	}
	cur, err := providers.AnswerCurrency(catalog.Huawei, "ListRateOnPeriodDetail", region, "currency", str(resp.Currency))
	if err != nil {
		return nil, err
	}
	var offers []catalog.Offer
	for _, r := range *resp.OfficialWebsiteRatingResult.ProductRatingResults {
		q, ok := quotes[str(r.Id)]
		if !ok {
			continue
		}
		if p, ok := price(nil, r.OfficialWebsiteAmount, cur, q.unit); ok {
			offers = append(offers, q.flavor.offer(region, q.billing, p, sourcePeriod, fetched))
		}
	}
	return offers, nil
}

// price is what is payable (amount, after any discount of the account) with the
// official website price as the list price when the two differ.
func price(amount, official *decimal.Decimal, cur catalog.Currency, unit catalog.PriceUnit) (catalog.Price, bool) {
	switch {
	case amount != nil:
		p := catalog.Price{Amount: *amount, Currency: cur, Unit: unit}
		if official != nil && !official.Equal(*amount) {
			l := *official
			p.List = &l
		}
		return p, true
	case official != nil:
		return catalog.Price{Amount: *official, Currency: cur, Unit: unit}, true
	}
	return catalog.Price{}, false
}
