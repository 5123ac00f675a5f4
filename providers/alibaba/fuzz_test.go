package alibaba

import (
	"os"
	"testing"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

func fuzzReference(f *testing.F) *catalog.GPUReference {
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		f.Fatal(err)
	}
	return ref
}

// FuzzDescribeInstanceTypesAnswer feeds arbitrary bytes to the ECS client as a
// DescribeInstanceTypes answer and crawls a region.
func FuzzDescribeInstanceTypesAnswer(f *testing.F) {
	fuzzAnswer(f, "DescribeInstanceTypes")
}

// FuzzDescribeAvailableResourceAnswer does the same with the zones and stock.
func FuzzDescribeAvailableResourceAnswer(f *testing.F) {
	fuzzAnswer(f, "DescribeAvailableResource")
}

func fuzzAnswer(f *testing.F, action string) {
	dir := os.DirFS("testdata/replay")
	a := &faulttest.AnswerFuzzer{Provider: catalog.Alibaba, Action: action, ContentType: "application/json", Region: "cn-nanjing",
		Reference: fuzzReference(f),
		Target: func(srv *replay.Server) providers.Target {
			cfg := testConfig(srv)
			cfg.Timeout, cfg.MaxAttempts = 2*time.Second, 1
			return providers.Prepare(unlimited(), cfg)
		}}
	a.Start(f, dir, replay.Alibaba)
	a.Seeds(f, dir)
	f.Fuzz(a.Check)
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
			p, err := decodePrice(body, b)
			if err != nil || p == nil {
				continue
			}
			if p.Currency == "" || !p.Amount.IsPositive() || (p.List != nil && !p.List.IsPositive()) {
				t.Errorf("price %+v", p)
			}
		}
	})
}
