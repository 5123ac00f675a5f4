package alibaba

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// fuzzWorld is the small replay the answer fuzzers crawl (cn-beijing).
const fuzzWorld = "testdata/cases/soldout"

// FuzzDescribeInstanceTypesAnswer feeds arbitrary bytes to the ECS client as a
// DescribeInstanceTypes answer and crawls a region.
func FuzzDescribeInstanceTypesAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "DescribeInstanceTypes", "cn-beijing")
}

// FuzzDescribeAvailableResourceAnswer does the same with the zones and stock.
func FuzzDescribeAvailableResourceAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "DescribeAvailableResource", "cn-beijing")
}

// FuzzDecodePrice feeds arbitrary bytes as a DescribePrice answer to the price
// decoder: no panic; a price has a currency, a positive amount and a list
// price that is positive when present.
func FuzzDecodePrice(f *testing.F) {
	f.Add([]byte(`{"RequestId":"A3","PriceInfo":{"Price":{"OriginalPrice":11.79,"DiscountPrice":0,"TradePrice":11.79,"Currency":"CNY"},"Rules":{"Rule":[]}}}`))
	f.Add([]byte(`{"PriceInfo":{"Price":{"TradePrice":1e999,"Currency":"USD"}}}`))
	f.Add([]byte(`{"PriceInfo":{"Price":{"TradePrice":"12","Currency":""}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, b := range []catalog.BillingKind{catalog.OnDemand, catalog.SubscriptionMonth} {
			p, err := decodePrice(body, priceKey{region: "cn-beijing", billing: b})
			if err != nil || p == nil {
				continue
			}
			if p.Currency == "" || !p.Amount.IsPositive() || (p.List != nil && !p.List.IsPositive()) {
				t.Errorf("price %+v", p)
			}
		}
	})
}
