package alibaba

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aliyun/alibaba-cloud-sdk-go/sdk/requests"
	"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// priceKey is one DescribePrice request: the cache key of the crawl. Zone is
// empty for subscription prices, which are asked per region.
type priceKey struct {
	region, zone, instanceType string
	billing                    catalog.BillingKind
}

type priceQuery struct {
	key          priceKey
	availability catalog.Availability
	zones        []string // for a regional offer, the zones it can launch in
}

// priceEntry is a cached answer; done is closed when price and err are set, so
// that concurrent askers of the same key send one request.
type priceEntry struct {
	done  chan struct{}
	price *catalog.Price
	err   error
}

// includes is what every DescribePrice quote covers besides the instance.
var includes = catalog.IncludesSystemDisk(systemDiskGiB, systemDiskCategory)

// offer prices one query. A price the API does not have (ErrNotFound, or an
// answer without a positive TradePrice) gives no offer and no error.
func (p *Adapter) offer(ctx context.Context, q priceQuery) (*catalog.Offer, error) {
	price, err := p.price(ctx, q.key)
	if errors.Is(err, providers.ErrNotFound) {
		return nil, nil
	}
	if err != nil || price == nil {
		return nil, err
	}
	return &catalog.Offer{
		Provider:     catalog.Alibaba,
		InstanceType: q.key.instanceType,
		Region:       q.key.region,
		Zone:         q.key.zone,
		Billing:      q.key.billing,
		Price:        *price,
		Availability: q.availability,
		Zones:        q.zones,
		Includes:     includes,
		Source:       sourcePrice,
		FetchedAt:    p.clock().UTC(),
	}, nil
}

func location(k priceKey) string {
	if k.zone != "" {
		return k.zone
	}
	return k.region
}

// price asks DescribePrice once per key per crawl.
func (p *Adapter) price(ctx context.Context, k priceKey) (*catalog.Price, error) {
	p.priceMu.Lock()
	e, ok := p.prices[k]
	if !ok {
		e = &priceEntry{done: make(chan struct{})}
		p.prices[k] = e
	}
	p.priceMu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.price, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.price, e.err = p.describePrice(ctx, k)
	if e.err != nil && !errors.Is(e.err, providers.ErrNotFound) {
		// Do not keep a transient failure: a later crawl of the region asks again.
		p.priceMu.Lock()
		delete(p.prices, k)
		p.priceMu.Unlock()
	}
	close(e.done)
	return e.price, e.err
}

func (p *Adapter) describePrice(ctx context.Context, k priceKey) (*catalog.Price, error) {
	var body []byte
	err := p.with(ctx, func(c ecsAPI) error {
		req := priceRequest(k)
		resp, err := c.DescribePrice(req)
		if err != nil {
			return err
		}
		body = resp.GetHttpContentBytes()
		return nil
	})
	var price *catalog.Price
	if err == nil {
		price, err = decodePrice(body, k)
	}
	return price, p.errs.Wrap(err, fmt.Sprintf("describe price for %s (%s)", k.instanceType, k.billing), location(k))
}

// priceRequest is the DescribePrice request of a key: one instance, VPC, with a
// 40 GiB ESSD system disk (the configuration the reference data was priced with).
func priceRequest(k priceKey) *ecs.DescribePriceRequest {
	req := ecs.CreateDescribePriceRequest()
	req.RegionId = k.region
	req.ZoneId = k.zone
	req.ResourceType = "instance"
	req.InstanceType = k.instanceType
	req.InstanceNetworkType = "vpc"
	req.Amount = "1"
	req.SystemDiskCategory = systemDiskCategory
	req.SystemDiskSize = requests.NewInteger(systemDiskGiB)
	switch k.billing {
	case catalog.OnDemand:
		req.PriceUnit = "Hour"
	case catalog.Spot:
		req.PriceUnit = "Hour"
		req.SpotStrategy = "SpotAsPriceGo"
		req.SpotDuration = "0"
	case catalog.SubscriptionMonth:
		req.PriceUnit = "Month"
		req.Period = "1"
	case catalog.SubscriptionYear:
		req.PriceUnit = "Year"
		req.Period = "1"
	}
	return req
}

// priceAnswer holds the fields read from a DescribePrice answer. Amounts are
// decoded as json.Number so that the decimal is exactly what the API sent.
type priceAnswer struct {
	PriceInfo struct {
		Price struct {
			OriginalPrice json.Number
			TradePrice    json.Number
			Currency      string
		}
	}
}

// decodePrice reads the payable price (TradePrice → Amount) and the list price
// (OriginalPrice → List, when the API gives a positive one) in the currency the
// API states (providers.NoCurrency when it states none). No positive TradePrice
// means no price for this combination.
func decodePrice(body []byte, k priceKey) (*catalog.Price, error) {
	var a priceAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("decode DescribePrice answer: %w", err)
	}
	trade, ok := positive(a.PriceInfo.Price.TradePrice)
	if !ok {
		return nil, nil
	}
	cur, err := providers.AnswerCurrency(catalog.Alibaba, "DescribePrice", location(k), "PriceInfo.Price.Currency", a.PriceInfo.Price.Currency)
	if err != nil {
		return nil, err
	}
	pr := &catalog.Price{Amount: trade, Currency: cur, Unit: catalog.PerHour}
	switch k.billing {
	case catalog.SubscriptionMonth:
		pr.Unit = catalog.PerMonth
	case catalog.SubscriptionYear:
		pr.Unit = catalog.PerYear
	}
	if list, ok := positive(a.PriceInfo.Price.OriginalPrice); ok {
		pr.List = &list
	}
	return pr, nil
}

func positive(n json.Number) (decimal.Decimal, bool) {
	if n == "" {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(n.String())
	if err != nil || !d.IsPositive() {
		return decimal.Zero, false
	}
	return d, true
}
