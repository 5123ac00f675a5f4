// Command fixturegen writes the Volcano Engine replay fixtures. It reads nothing:
// no public Volcano Engine catalog data exists, so every answer is synthetic (the
// instance types, zones, stock and prices follow the rules stated in the manifest
// notes; only the wire shapes, the SDK's v1.1.35 request and response structures,
// are real). It writes ECS (DescribeRegions, DescribeInstanceTypes,
// DescribeAvailableResource, DescribeSpotPriceHistory) and billing (QueryPriceFor*)
// answers and manifest.json, replacing the output folder; its output is deterministic.
//
//	go run ./providers/volcengine/internal/fixturegen -out providers/volcengine/testdata/replay
package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

type gpuType struct {
	id, family string
	vcpus      int
	memGiB     int
	gpu        string
	count      int
	gpuMemMiB  int
	bandwidth  int // Mbps
}

// types are synthetic. The family names are Volcano Engine's publicly named GPU
// families; which GPU each carries is an assumption (no public spec table was
// found), and so are the sizes.
var types = []gpuType{
	{"ecs.gni2.3xlarge", "ecs.gni2", 12, 48, "NVIDIA A10", 1, 24576, 8000},
	{"ecs.gni2.6xlarge", "ecs.gni2", 24, 96, "NVIDIA A10", 1, 24576, 12000},
	{"ecs.gni2.12xlarge", "ecs.gni2", 48, 192, "NVIDIA A10", 2, 24576, 24000},
	{"ecs.ini2.8xlarge", "ecs.ini2", 32, 128, "NVIDIA A30", 1, 24576, 16000},
	{"ecs.ini2.16xlarge", "ecs.ini2", 64, 256, "NVIDIA A30", 2, 24576, 32000},
	{"ecs.pni2.28xlarge", "ecs.pni2", 112, 1024, "NVIDIA A100", 8, 81920, 100000},
	{"ecs.gni3cl.11xlarge", "ecs.gni3cl", 44, 240, "NVIDIA L20", 1, 49152, 20000},
}

var regionPlan = []struct {
	region   string
	zones    []string
	families []string
}{
	{"cn-beijing", []string{"cn-beijing-a", "cn-beijing-b", "cn-beijing-c"}, nil},
	{"cn-shanghai", []string{"cn-shanghai-a", "cn-shanghai-b"}, []string{"ecs.gni2", "ecs.ini2"}},
	{"cn-guangzhou", []string{"cn-guangzhou-a", "cn-guangzhou-b"}, []string{"ecs.gni2", "ecs.gni3cl"}},
}

var perGPUHour = map[string]string{"NVIDIA A10": "7.00", "NVIDIA A30": "9.00", "NVIDIA A100": "30.00", "NVIDIA L20": "12.00"}

const (
	perVCPUHour = "0.10"
	monthFactor = "511"  // 730 h × 0.70
	yearMonths  = "10"   // a year costs ten months
	spotFactor  = "0.30" // spot = 30 % of pay-as-you-go
)

func main() {
	fixture.Command{Cloud: "volcengine", Generate: func(_, out string) error { return run(out) }}.Main()
}

func meta(action, service, region string) map[string]any {
	version := "2020-04-01"
	if service == "billing" {
		version = "2022-01-01"
	}
	return map[string]any{"RequestId": "synthetic-" + strings.ToLower(action) + "-" + region, "Action": action, "Version": version, "Service": service, "Region": region}
}

func run(out string) error {
	f, err := fixture.Create(out)
	if err != nil {
		return err
	}
	m := replay.Manifest{
		Provider: "volcengine",
		Real:     replay.RealNone, // the adapter's tests only: make data publishes nothing from it
		Sources:  []string{"synthetic: no public Volcano Engine catalog data exists (../shared/realdata/README.md); wire shapes from github.com/volcengine/volcengine-go-sdk v1.1.35 service/ecs and service/billing"},
		Notes: []string{
			"make data publishes nothing from this replay: the embedded catalog says that Volcano Engine has an adapter and no public catalog data, until a crawl with credentials brings real data.",
			"EVERYTHING IS SYNTHETIC: instance types, sizes, GPU per family (ecs.gni2 NVIDIA A10, ecs.ini2 NVIDIA A30, ecs.pni2 NVIDIA A100, ecs.gni3cl NVIDIA L20 are assumptions, not verified), regions, zones, stock and prices.",
			"SYNTHETIC PRICES, CNY: pay-as-you-go hour = per-GPU-hour figure × GPUs + " + perVCPUHour + " per vCPU, rounded to 0.01, with per GPU-hour NVIDIA A10 7.00, NVIDIA A30 9.00, NVIDIA A100 30.00, NVIDIA L20 12.00; month = hour × 511 (730 h × 0.70); year = month × 10; spot = hour × 0.30 in every zone where the type is available. No discount: DiscountAmount = OriginalAmount.",
			"Stock rule (synthetic): every type is Available in every zone of its region except ecs.pni2.* SoldOut in the region's last zone; ecs.g3i.large is a non-GPU type that must be left out; DescribeInstanceTypes answers in two pages (NextToken page-2).",
			"Ways of selling (synthetic): DescribeAvailableResource is answered per InstanceChargeType (and SpotStrategy): PostPaid lists every type with the stock rule above; PostPaid with SpotStrategy=SpotAsPriceGo lists every type but ecs.gni3cl.* (not sold as spot), and not ecs.pni2.* in the zone where it is sold out; PrePaid lists every type but ecs.pni2.* (not sold by subscription). The price inquiries and spot histories are recorded only for what those answers list, so that a crawl that asks only what is sold finds an answer for every request.",
		},
	}
	add := func(e replay.Exchange, body any) {
		e.ContentType = "application/json"
		f.Add(e)
		f.JSON(e.Body, body)
	}
	var regions []any
	for _, rp := range regionPlan {
		regions = append(regions, map[string]any{"RegionId": rp.region})
	}
	add(replay.Exchange{Service: "ecs", Action: "DescribeRegions", Body: "ecs-describe-regions.json"},
		map[string]any{"ResponseMetadata": meta("DescribeRegions", "ecs", "cn-beijing"), "Result": map[string]any{"Regions": regions, "NextToken": ""}})
	for _, rp := range regionPlan {
		var listed []gpuType
		for _, t := range types {
			if len(rp.families) == 0 || slices.Contains(rp.families, t.family) {
				listed = append(listed, t)
			}
		}
		var recs []any
		for _, t := range listed {
			recs = append(recs, typeJSON(t))
		}
		recs = append(recs, map[string]any{"InstanceTypeId": "ecs.g3i.large", "InstanceTypeFamily": "ecs.g3i",
			"Processor": map[string]any{"Cpus": 2, "Model": "Intel(R) Xeon(R) Platinum"}, "Memory": map[string]any{"Size": 8192},
			"Gpu": map[string]any{"GpuDevices": []any{}}})
		half := len(recs) / 2
		for i, page := range [][]any{recs[:half], recs[half:]} {
			token, next := "", "page-2"
			if i == 1 {
				token, next = "page-2", ""
			}
			add(replay.Exchange{Service: "ecs", Action: "DescribeInstanceTypes", Region: rp.region, Params: map[string]string{"NextToken": token},
				Body: fmt.Sprintf("ecs-describe-instance-types-%s-%d.json", rp.region, i+1)},
				map[string]any{"ResponseMetadata": meta("DescribeInstanceTypes", "ecs", rp.region),
					"Result": map[string]any{"InstanceTypes": page, "NextToken": next, "TotalCount": len(recs)}})
		}
		for _, k := range saleKinds {
			var zones []any
			for zi, z := range rp.zones {
				var sup []any
				for _, t := range listed {
					st, ok := k.stock(t, zi == len(rp.zones)-1)
					if ok {
						sup = append(sup, map[string]any{"Value": t.id, "Status": st})
					}
				}
				sup = append(sup, map[string]any{"Value": "ecs.g3i.large", "Status": "Available"})
				zones = append(zones, map[string]any{"RegionId": rp.region, "ZoneId": z, "Status": "Available",
					"AvailableResources": []any{map[string]any{"Type": "InstanceType", "SupportedResources": sup}}})
			}
			add(replay.Exchange{Service: "ecs", Action: "DescribeAvailableResource", Region: rp.region,
				Params: map[string]string{"DestinationResource": "InstanceType", "InstanceChargeType": k.charge, "SpotStrategy": k.spot},
				Body:   "ecs-describe-available-resource-" + k.name + "-" + rp.region + ".json"},
				map[string]any{"ResponseMetadata": meta("DescribeAvailableResource", "ecs", rp.region), "Result": map[string]any{"AvailableZones": zones}})
		}
		for _, q := range []struct {
			action, suffix, duration string
			sold                     func(gpuType) bool
			price                    func(decimal.Decimal) decimal.Decimal
		}{
			{"QueryPriceForPayAsYouGo", "payg", "", payAsYouGo.sells, func(h decimal.Decimal) decimal.Decimal { return h }},
			{"QueryPriceForSubscription", "month", "1", subscription.sells, month},
			{"QueryPriceForSubscription", "year", "12", subscription.sells, func(h decimal.Decimal) decimal.Decimal { return month(h).Mul(dec(yearMonths)).Round(2) }},
		} {
			var list []any
			total := decimal.Zero
			for _, t := range listed {
				if !q.sold(t) {
					continue
				}
				p := q.price(hourly(t))
				total = total.Add(p)
				list = append(list, map[string]any{"ConfigurationCode": t.id, "OriginalAmount": p.StringFixed(2), "DiscountAmount": p.StringFixed(2), "Quantity": 1})
			}
			params := map[string]string{}
			if q.duration != "" {
				params["ConfigList.1.UseDuration"] = q.duration
			}
			add(replay.Exchange{Service: "billing", Action: q.action, Region: rp.region, Params: params,
				Body: "billing-" + q.suffix + "-" + rp.region + ".json"},
				map[string]any{"ResponseMetadata": meta(q.action, "billing", rp.region), "Result": map[string]any{"Currency": "CNY",
					"TotalOriginalAmount": total.StringFixed(2), "TotalDiscountAmount": total.StringFixed(2), "ConfigList": list}})
		}
		for _, t := range listed {
			if !spotSale.sells(t) {
				continue // no spot history is asked of a type not sold as spot
			}
			spot := hourly(t).Mul(dec(spotFactor)).Round(2)
			var pts []any
			for zi, z := range rp.zones {
				if t.family == "ecs.pni2" && zi == len(rp.zones)-1 {
					continue
				}
				// An older point first, at a higher price, to check that the latest wins.
				pts = append(pts,
					map[string]any{"InstanceTypeId": t.id, "ZoneId": z, "SpotPrice": json.Number(spot.Add(dec("0.50")).StringFixed(2)), "Timestamp": "2026-06-14T00:00:00+08:00"},
					map[string]any{"InstanceTypeId": t.id, "ZoneId": z, "SpotPrice": json.Number(spot.StringFixed(2)), "Timestamp": "2026-06-15T00:00:00+08:00"})
			}
			add(replay.Exchange{Service: "ecs", Action: "DescribeSpotPriceHistory", Region: rp.region, Params: map[string]string{"InstanceTypeId": t.id},
				Body: "ecs-spot-" + rp.region + "-" + t.id + ".json"},
				map[string]any{"ResponseMetadata": meta("DescribeSpotPriceHistory", "ecs", rp.region), "Result": map[string]any{"SpotPrices": pts, "NextToken": ""}})
		}
	}
	return f.WriteManifest(m)
}

// saleKind is one way of selling that DescribeAvailableResource is asked
// about, and the synthetic rule of which types it sells.
type saleKind struct {
	name, charge, spot string
	sells              func(gpuType) bool
	// soldOutListed: ecs.pni2, sold out in the region's last zone, is listed
	// there with Status SoldOut; false (spot): it is not listed there at all.
	soldOutListed bool
}

var (
	payAsYouGo   = saleKind{name: "postpaid", charge: "PostPaid", sells: func(gpuType) bool { return true }, soldOutListed: true}
	spotSale     = saleKind{name: "spot", charge: "PostPaid", spot: "SpotAsPriceGo", sells: func(t gpuType) bool { return t.family != "ecs.gni3cl" }}
	subscription = saleKind{name: "prepaid", charge: "PrePaid", sells: func(t gpuType) bool { return t.family != "ecs.pni2" }, soldOutListed: true}
	saleKinds    = []saleKind{payAsYouGo, spotSale, subscription}
)

// stock is a type's Status in a zone for this way of selling; ok is false
// when the zone does not list it.
func (k saleKind) stock(t gpuType, lastZone bool) (status string, ok bool) {
	if !k.sells(t) {
		return "", false
	}
	if t.family == "ecs.pni2" && lastZone {
		return "SoldOut", k.soldOutListed
	}
	return "Available", true
}

func typeJSON(t gpuType) map[string]any {
	return map[string]any{
		"InstanceTypeId": t.id, "InstanceTypeFamily": t.family,
		"Processor": map[string]any{"Cpus": t.vcpus, "Model": "Intel(R) Xeon(R) Platinum 8336C"},
		"Memory":    map[string]any{"Size": t.memGiB * 1024},
		"Gpu": map[string]any{"GpuDevices": []any{map[string]any{"ProductName": t.gpu, "Count": t.count,
			"Memory": map[string]any{"Size": t.gpuMemMiB}}}},
		"Network": map[string]any{"MaximumBandwidthMbps": t.bandwidth, "MaximumNetworkInterfaces": 8},
		"Volume":  map[string]any{"MaximumCount": 16, "SupportedVolumeTypes": []string{"ESSD_PL0", "ESSD_FlexPL"}},
	}
}

func hourly(t gpuType) decimal.Decimal {
	return dec(perGPUHour[t.gpu]).Mul(decimal.NewFromInt(int64(t.count))).
		Add(dec(perVCPUHour).Mul(decimal.NewFromInt(int64(t.vcpus)))).Round(2)
}

func month(h decimal.Decimal) decimal.Decimal { return h.Mul(dec(monthFactor)).Round(2) }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
