package volcengine

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/volcengine/volcengine-go-sdk/service/billing"
	"github.com/volcengine/volcengine-go-sdk/service/ecs"
	"github.com/volcengine/volcengine-go-sdk/volcengine"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Price inquiry settings. The billing API prices a list of configurations per
// call; 20 per call follows the documented limit of its sibling QueryPriceForRenew
// (InstanceIDList "单次最大20个"). The product code and the use of the instance type
// id as configuration code are this adapter's reading of the API (see the README):
// Volcano Engine publishes no ECS example for these calls.
const (
	inquiryBatch   = 20
	productECS     = "ECS"
	monthsPerYear  = 12
	hoursPerQuote  = 1
	monthsPerQuote = 1
)

// quoteKind is one billing kind the inquiry asks for, and the way of selling
// (saleKinds) whose types it quotes.
type quoteKind struct {
	billing  catalog.BillingKind
	unit     catalog.PriceUnit
	duration int32 // UseDuration: hours for pay-as-you-go, months for subscription
	source   string
	sale     int
}

// soldIn is where a way of selling can launch each type: the zones with stock
// and the type's regional stock (available when any zone is, sold out when
// every listed zone is).
type soldIn struct {
	zones map[string][]string
	avail map[string]catalog.Availability
}

func newSoldIn(placements []catalog.Placement) soldIn {
	s := soldIn{zones: map[string][]string{}, avail: map[string]catalog.Availability{}}
	for _, p := range placements {
		switch {
		case p.Status == catalog.Available:
			s.zones[p.InstanceType] = append(s.zones[p.InstanceType], p.Zone)
			s.avail[p.InstanceType] = catalog.Available
		case p.Status == catalog.SoldOut && s.avail[p.InstanceType] != catalog.Available:
			s.avail[p.InstanceType] = catalog.SoldOut
		case s.avail[p.InstanceType] == "":
			s.avail[p.InstanceType] = catalog.Unknown
		}
	}
	return s
}

// prices asks the billing API for the pay-as-you-go hourly price of the
// region's GPU types sold pay-as-you-go, and the monthly and yearly
// subscription prices of those sold by subscription, one inquiry at a time. An
// inquiry that fails after its retries leaves a shortfall for the types it
// priced (see providers.Shortfall), not a failed region.
func (a *Adapter) prices(ctx context.Context, bill billingAPI, region string, types []catalog.InstanceType, sold sales, fetched time.Time) ([]catalog.Offer, []providers.Shortfall, error) {
	var where [numSaleKinds]soldIn
	for i, ps := range sold {
		where[i] = newSoldIn(ps)
	}
	var batches []priceBatch
	for _, q := range []quoteKind{
		{catalog.OnDemand, catalog.PerHour, hoursPerQuote, sourcePayAsYouGo, salePayAsYouGo},
		{catalog.SubscriptionMonth, catalog.PerMonth, monthsPerQuote, sourceSubscription, saleSubscription},
		{catalog.SubscriptionYear, catalog.PerYear, monthsPerYear, sourceSubscription, saleSubscription},
	} {
		var quoted []catalog.InstanceType
		for _, t := range types {
			if where[q.sale].avail[t.ID] != "" {
				quoted = append(quoted, t)
			}
		}
		for start := 0; start < len(quoted); start += inquiryBatch {
			batches = append(batches, priceBatch{kind: q, types: quoted[start:min(start+inquiryBatch, len(quoted))]})
		}
	}
	return providers.Gather(ctx, 1, batches, priceBatch.ids, func(ctx context.Context, b priceBatch) ([]catalog.Offer, error) {
		zones, avail := where[b.kind.sale].zones, where[b.kind.sale].avail
		results, cur, err := a.inquire(ctx, bill, region, b.kind, b.types)
		if err != nil {
			return nil, a.errs.Wrap(err, fmt.Sprintf("%s price inquiry for %d types", b.kind.billing, len(b.types)), region)
		}
		var offers []catalog.Offer
		for _, r := range results {
			payable, okPay := money(r.discount)
			list, okList := money(r.original)
			if !okPay {
				payable, okPay = list, okList
			}
			if !okPay {
				continue
			}
			p := catalog.Price{Amount: payable, Currency: cur, Unit: b.kind.unit}
			if okList && !list.Equal(payable) {
				p.List = &list
			}
			av, asked := avail[r.code]
			if !asked {
				continue // an answer for a type not asked about
			}
			offers = append(offers, catalog.Offer{Provider: catalog.Volcengine, InstanceType: r.code, Region: region,
				Billing: b.kind.billing, Price: p, Availability: av, Zones: zones[r.code], Source: b.kind.source, FetchedAt: fetched})
		}
		return offers, nil
	})
}

// priceBatch is one price inquiry: one billing kind of up to inquiryBatch types.
type priceBatch struct {
	kind  quoteKind
	types []catalog.InstanceType
}

func (b priceBatch) ids() []string {
	out := make([]string, len(b.types))
	for i, t := range b.types {
		out[i] = t.ID
	}
	return out
}

// quoteResult is one configuration's answer, from either inquiry.
type quoteResult struct {
	code               string
	original, discount *string
}

// inquire asks one price inquiry for one billing kind of types. The answer's
// currency is required (providers.NoCurrency when it has prices and none).
//
// QueryPriceForPayAsYouGo and QueryPriceForSubscription take the same
// configuration list and answer alike, in twin SDK types: the list is built
// once and converted; the answers are read by readPayAsYouGo and
// readSubscription.
func (a *Adapter) inquire(ctx context.Context, bill billingAPI, region string, q quoteKind, types []catalog.InstanceType) ([]quoteResult, catalog.Currency, error) {
	product := volcengine.String(productECS)
	configs := make([]*billing.ConfigListForQueryPriceForPayAsYouGoInput, 0, len(types))
	for _, t := range types {
		configs = append(configs, &billing.ConfigListForQueryPriceForPayAsYouGoInput{
			ConfigurationCode: volcengine.String(t.ID), Quantity: volcengine.Int32(1), UseDuration: volcengine.Int32(q.duration)})
	}
	api := "QueryPriceForSubscription"
	if q.billing == catalog.OnDemand {
		api = "QueryPriceForPayAsYouGo"
	}
	var out []quoteResult
	var cur *string
	err := a.retry.Do(ctx, func() error {
		if q.billing == catalog.OnDemand {
			resp, err := bill.QueryPriceForPayAsYouGoWithContext(ctx, &billing.QueryPriceForPayAsYouGoInput{Product: product, ConfigList: configs})
			if err == nil {
				cur, out = resp.Currency, results(resp.ConfigList, readPayAsYouGo)
			}
			return err
		}
		in := &billing.QueryPriceForSubscriptionInput{Product: product}
		for _, c := range configs {
			in.ConfigList = append(in.ConfigList, (*billing.ConfigListForQueryPriceForSubscriptionInput)(c))
		}
		resp, err := bill.QueryPriceForSubscriptionWithContext(ctx, in)
		if err == nil {
			cur, out = resp.Currency, results(resp.ConfigList, readSubscription)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		return nil, "", err
	}
	c, err := providers.AnswerCurrency(catalog.Volcengine, api, region, "Currency", volcengine.StringValue(cur))
	return out, c, err
}

func readPayAsYouGo(c *billing.ConfigListForQueryPriceForPayAsYouGoOutput) quoteResult {
	return quoteResult{volcengine.StringValue(c.ConfigurationCode), c.OriginalAmount, c.DiscountAmount}
}

func readSubscription(c *billing.ConfigListForQueryPriceForSubscriptionOutput) quoteResult {
	return quoteResult{volcengine.StringValue(c.ConfigurationCode), c.OriginalAmount, c.DiscountAmount}
}

// results reads an answer's configuration list, skipping empty items.
func results[C any](list []*C, read func(*C) quoteResult) []quoteResult {
	var out []quoteResult
	for _, c := range list {
		if c != nil {
			out = append(out, read(c))
		}
	}
	return out
}

// spotPrices reads the latest spot price per zone of each GPU type sold as
// spot (placements: DescribeAvailableResource with SpotAsPriceGo) from ECS
// DescribeSpotPriceHistory, one type at a time; a type whose listing fails
// after its retries is a shortfall. A zone gets a spot offer where it sells
// the type as spot and has a price in the history, with that zone's stock.
// The answer has no currency field: spot is sold in CNY on the China site, the
// only one the API serves.
func (a *Adapter) spotPrices(ctx context.Context, client ecsAPI, region string, types []catalog.InstanceType, placements []catalog.Placement, fetched time.Time) ([]catalog.Offer, []providers.Shortfall, error) {
	stock := map[string]map[string]catalog.Availability{} // type -> zone -> stock
	for _, p := range placements {
		if stock[p.InstanceType] == nil {
			stock[p.InstanceType] = map[string]catalog.Availability{}
		}
		stock[p.InstanceType][p.Zone] = p.Status
	}
	var sold []catalog.InstanceType
	for _, t := range types {
		if stock[t.ID] != nil {
			sold = append(sold, t)
		}
	}
	return providers.Gather(ctx, 1, sold, func(t catalog.InstanceType) []string { return []string{t.ID} },
		func(ctx context.Context, t catalog.InstanceType) ([]catalog.Offer, error) {
			return a.spotPrice(ctx, client, region, t, stock[t.ID], fetched)
		})
}

// spotPrice reads one type's latest spot price per zone that sells it as spot
// (zones, with their stock).
func (a *Adapter) spotPrice(ctx context.Context, client ecsAPI, region string, t catalog.InstanceType, zoneStock map[string]catalog.Availability, fetched time.Time) ([]catalog.Offer, error) {
	type point struct {
		at    string
		price decimal.Decimal
	}
	latest := map[string]point{}
	var zones []string
	err := a.list(ctx, "describe spot price history of "+t.ID, region, func(token *string) (*string, error) {
		resp, err := client.DescribeSpotPriceHistoryWithContext(ctx, &ecs.DescribeSpotPriceHistoryInput{
			InstanceTypeId: volcengine.String(t.ID), MaxResults: volcengine.Int32(a.pageSize), NextToken: token})
		if err != nil {
			return nil, err
		}
		for _, sp := range resp.SpotPrices {
			if sp == nil {
				continue
			}
			price, ok := floatMoney(sp.SpotPrice)
			zone, at := volcengine.StringValue(sp.ZoneId), volcengine.StringValue(sp.Timestamp)
			if _, sold := zoneStock[zone]; !ok || !sold {
				continue
			}
			prev, seen := latest[zone]
			if !seen {
				zones = append(zones, zone)
			}
			if !seen || at > prev.at { // RFC 3339 timestamps order as strings
				latest[zone] = point{at, price}
			}
		}
		return resp.NextToken, nil
	})
	if err != nil {
		return nil, err
	}
	var offers []catalog.Offer
	for _, z := range zones {
		offers = append(offers, catalog.Offer{Provider: catalog.Volcengine, InstanceType: t.ID, Region: region, Zone: z,
			Billing: catalog.Spot, Price: catalog.Price{Amount: latest[z].price, Currency: catalog.CNY, Unit: catalog.PerHour},
			Availability: zoneStock[z], Source: sourceSpot, FetchedAt: fetched})
	}
	return offers, nil
}
