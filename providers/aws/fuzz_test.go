package aws

import (
	"encoding/json"
	"testing"
)

// fuzzWorld is the small replay the answer fuzzers crawl (us-east-1).
const fuzzWorld = "testdata/cases/unknown-gpu"

// FuzzDescribeInstanceTypesAnswer feeds arbitrary bytes to the EC2 client as a
// DescribeInstanceTypes answer and crawls a region: no panic, and the region
// is crawled or fails with a reason.
func FuzzDescribeInstanceTypesAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "DescribeInstanceTypes", "us-east-1")
}

// FuzzPriceListDocument feeds arbitrary bytes as one Price List document (an
// item of GetProducts' PriceList) to the conversion into offers: no panic, and
// every offer has a currency and a price that is not negative.
func FuzzPriceListDocument(f *testing.F) {
	f.Add([]byte(`{"product":{"sku":"S1","attributes":{"instanceType":"p4d.24xlarge","regionCode":"us-east-1"}},"terms":{"OnDemand":{"S1.T":{"priceDimensions":{"S1.T.D":{"unit":"Hrs","pricePerUnit":{"USD":"32.7726"}}}}},"Reserved":{"S1.R":{"priceDimensions":{"a":{"unit":"Quantity","pricePerUnit":{"USD":"100"}},"b":{"unit":"Hrs","pricePerUnit":{"USD":"0"}}},"termAttributes":{"LeaseContractLength":"1yr","OfferingClass":"standard","PurchaseOption":"All Upfront"}}}}}`))
	f.Add([]byte(`{"terms":{"OnDemand":{"x":{"priceDimensions":{"d":{"unit":"Hrs","pricePerUnit":{"USD":"-1"}}}}}}}`))
	f.Add([]byte(`{"terms":{"OnDemand":{"x":{"priceDimensions":{"d":{"unit":"Hrs","pricePerUnit":{"USD":"1","CNY":"7"}}}}}}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var prod priceListProduct
		if err := json.Unmarshal(doc, &prod); err != nil {
			return
		}
		offers, err := priceListOffers(prod, "us-east-1", testNow)
		if err != nil {
			return
		}
		for _, o := range offers {
			if o.Price.Currency == "" || o.Price.Amount.IsNegative() || (o.Price.Upfront != nil && o.Price.Upfront.IsNegative()) {
				t.Errorf("offer %s: price %+v", o.Key(), o.Price)
			}
		}
	})
}

// FuzzParseNetworkPerformance feeds arbitrary NetworkPerformance strings: no
// panic, and a figure it accepts is positive and below maxGbps, so that the
// snapshot can hold it.
func FuzzParseNetworkPerformance(f *testing.F) {
	for _, s := range []string{"3200 Gigabit", "4x 100 Gigabit", "Up to 25 Gigabit", "High", "3.12 Gigabit", "1e9999 Gigabit", "0x 1 Gigabit"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if g, ok := parseNetworkPerformance(s); ok && (!g.IsPositive() || !g.LessThan(maxGbps)) {
			t.Errorf("parseNetworkPerformance(%q) = %s, accepted but not in (0, %s)", s, g, maxGbps)
		}
	})
}
