package tencent

import (
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/providers"
	"github.com/gpuatlas/gpuatlas/providers/faulttest"

	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"
)

// fuzzWorld is the small replay the answer fuzzers crawl (ap-guangzhou).
const fuzzWorld = "testdata/cases/vgpu_soldout"

// FuzzDescribeZoneInstanceConfigInfosAnswer feeds arbitrary bytes to the CVM
// client as the answer that carries types, zones and prices, and crawls a
// region: no panic, and the region is crawled or fails with a reason.
func FuzzDescribeZoneInstanceConfigInfosAnswer(f *testing.F) {
	harness.FuzzAnswer(f, fuzzWorld, "DescribeZoneInstanceConfigInfos", "ap-guangzhou")
}

// FuzzConvertQuotaItem feeds arbitrary JSON as one InstanceTypeQuotaSet item
// to the conversion into an instance type and prices (fast: no HTTP).
func FuzzConvertQuotaItem(f *testing.F) {
	f.Add([]byte(`{"Zone":"ap-guangzhou-6","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR","InstanceFamily":"GN7","Cpu":8,"Memory":32,"Gpu":1,"GpuCount":1,"Status":"SELL","Price":{"UnitPrice":8.68,"ChargeUnit":"HOUR","UnitPriceDiscount":8.68,"Discount":100}}`))
	f.Add([]byte(`{"InstanceType":"VGN7.LARGE","GpuCount":0.25,"Cpu":-4,"Memory":-1,"InstanceBandwidth":-3}`))
	f.Add([]byte(`{"InstanceType":"X","GpuCount":1e300}`))
	families, err := LoadFamilies(data.FS)
	if err != nil {
		f.Fatal(err)
	}
	p, err := New(providers.Config{Endpoints: map[string]string{"cvm": "127.0.0.1:1"},
		Getenv: func(k string) string {
			return map[string]string{"TENCENTCLOUD_SECRET_ID": "id", "TENCENTCLOUD_SECRET_KEY": "key"}[k]
		}}, families)
	if err != nil {
		f.Fatal(err)
	}
	pr := p.(*Adapter)
	f.Fuzz(func(t *testing.T, b []byte) {
		item, ok := faulttest.CheckConversion(t, b, func(it *cvm.InstanceTypeQuotaItem) (catalog.InstanceType, bool) {
			return pr.convertInstanceType(it), true
		})
		if !ok {
			return
		}
		for _, bk := range []catalog.BillingKind{catalog.OnDemand, catalog.SubscriptionMonth} {
			if price, ok := pr.itemPrice(item.Price, bk); ok && (!price.Amount.IsPositive() || price.Currency == "") {
				t.Errorf("price %+v", price)
			}
		}
	})
}
