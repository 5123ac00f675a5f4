// Command fixturegen turns the real Tencent Cloud data in ../shared/realdata/tencent
// (cvm_gpu_vms.csv, a SkyPilot catalog) into the replay fixtures of the Tencent
// adapter: recorded CVM API 3.0 answers ({"Response":{...}}) for DescribeRegions,
// DescribeZoneInstanceConfigInfos and InquiryPriceRunInstances, and a manifest.json
// that states the source and every conversion. It replaces the output folder; its
// output is deterministic.
//
//	go run ./providers/tencent/internal/fixturegen -realdata ../shared/realdata/tencent -out providers/tencent/testdata/replay
package main

import (
	"cmp"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/internal/skypilot"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

var source = skypilot.Catalog{Repo: "sugarlxn/skypilot-catalog", Path: "catalogs/v8/tencentcloud/vms.csv", Commit: "319364519647e37c5ee585be5338b02b10f744be"}

func main() {
	fixture.Command{Cloud: "tencent", Reads: "cvm_gpu_vms.csv", Generate: run}.Main()
}

func run(realdata, out string) error {
	rows, err := skypilot.ReadVMs(filepath.Join(realdata, "cvm_gpu_vms.csv"))
	if err != nil {
		return err
	}
	f, err := fixture.Create(out)
	if err != nil {
		return err
	}

	byRegion := map[string][]skypilot.VM{}
	for _, r := range rows {
		byRegion[r.Region] = append(byRegion[r.Region], r)
	}
	regions := slices.Sorted(maps.Keys(byRegion))

	var regionSet []map[string]any
	for _, r := range regions {
		regionSet = append(regionSet, map[string]any{"Region": r, "RegionState": "AVAILABLE"})
	}
	f.Add(replay.Exchange{Service: "cvm", Action: "DescribeRegions", ContentType: "application/json",
		Body: response(f, "regions.json", map[string]any{"TotalCount": len(regionSet), "RegionSet": regionSet})})

	for _, region := range regions {
		rs := byRegion[region]
		slices.SortStableFunc(rs, func(a, b skypilot.VM) int {
			return cmp.Or(cmp.Compare(a.Zone, b.Zone), cmp.Compare(a.InstanceType, b.InstanceType))
		})
		var items []map[string]any
		for _, r := range rs {
			items = append(items, map[string]any{
				"Zone": r.Zone, "InstanceType": r.InstanceType, "InstanceChargeType": "POSTPAID_BY_HOUR",
				"InstanceFamily": r.Family, "Cpu": json.Number(r.VCPUs), "Memory": json.Number(r.MemoryGiB), "GpuCount": json.Number(r.AcceleratorCount),
			})
		}
		// No charge-type filter: the answer lists every charge type, each
		// item saying its own (see the manifest).
		f.Add(replay.Exchange{Service: "cvm", Action: "DescribeZoneInstanceConfigInfos", Region: region,
			Params:      map[string]string{"filter.instance-charge-type": ""},
			ContentType: "application/json",
			Body:        response(f, "zone_instance_config_infos/"+region+".json", map[string]any{"InstanceTypeQuotaSet": items})})
		for _, r := range rs {
			cny, err := skypilot.RecoverCNY(r.Price)
			if err != nil {
				return r.Errorf("%s in %s: %w", r.InstanceType, r.Zone, err)
			}
			body := response(f, "inquiry_price/CNY-"+cny.String()+".json", map[string]any{"Price": map[string]any{
				"InstancePrice": map[string]any{"UnitPriceDiscount": json.Number(cny.String()), "ChargeUnit": "HOUR"}}})
			f.Add(replay.Exchange{Service: "cvm", Action: "InquiryPriceRunInstances", Region: region,
				Params:      map[string]string{"Placement.Zone": r.Zone, "InstanceType": r.InstanceType, "InstanceChargeType": "POSTPAID_BY_HOUR"},
				ContentType: "application/json", Body: body})
		}
	}
	return f.WriteManifest(manifest)
}

// manifest states the source and every conversion; WriteManifest adds the exchanges.
var manifest = replay.Manifest{
	Provider: "tencent", Real: replay.RealAll, Retrieved: skypilot.RetrievedOn,
	Sources: []string{source.Provenance("../shared/realdata/tencent/cvm_gpu_vms.csv")},
	Notes: []string{
		skypilot.DateNote,
		"The source was produced with DescribeRegions (RegionState AVAILABLE), DescribeInstanceTypeConfigs per region (rows with GPU > 0) and InquiryPriceRunInstances per zone (POSTPAID_BY_HOUR, InstanceCount 1, a TencentOS public image, default system disk, no public bandwidth).",
		"The type list is replayed as DescribeZoneInstanceConfigInfos without a charge-type filter, the call the adapter makes (one per region; the API then lists every charge type, each item naming its own InstanceChargeType): one item per source row with Zone, InstanceType, InstanceChargeType=POSTPAID_BY_HOUR, InstanceFamily, Cpu, Memory and GpuCount. The source has no stock status, no price in this call, no bandwidth and no GPU memory: Status, Price, InstanceBandwidth and the rest are absent, so the crawl reports availability unknown and asks InquiryPriceRunInstances for every price, as the source did.",
		"Prices: the source stores USD = CNY × 0.138 rounded to 8 decimals; CNY is recovered as the shortest decimal whose product with 0.138, rounded to 8 decimals, is the stored USD. All 405 recover to at most 2 decimals (fen), as Tencent's prices are. They are replayed as Price.InstancePrice.UnitPriceDiscount (CNY/hour, ChargeUnit HOUR); the source took UnitPriceDiscount, falling back to UnitPrice, and kept no list price, so UnitPrice is absent.",
		"The source has no spot (SPOTPAID) and no monthly (PREPAID) data: the DescribeZoneInstanceConfigInfos answers have no items of those charge types, so the crawl asks no price for them (and makes no offer) rather than inventing one. Tencent does sell many GPU types by spot and by month: the answers say what the source can price, not everything CVM sells.",
		"The source's GPU names come from a family map, not the API (the CVM API names no GPU); the adapter maps families through data/tencent_gpu_families.csv. Families outside the source's map (GN7vw, GNV4v, HCC*) are absent from the data.",
		"DescribeRegions lists the 16 regions that have rows, all AVAILABLE (the source only crawled AVAILABLE regions); RegionName is absent.",
		"RequestId values are synthetic, derived from the answer's file name.",
	},
}

// response writes an API 3.0 answer, {"Response": {...v, "RequestId": ...}}, with
// a RequestId derived from its file name.
func response(f *fixture.Folder, name string, v map[string]any) string {
	v["RequestId"] = fixture.RequestID(name)
	return f.JSON(name, map[string]any{"Response": v})
}
