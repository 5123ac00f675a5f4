// Command fixturegen turns the real Alibaba Cloud data in ../shared/realdata/alibaba
// (ecs_gpu_vms.csv, a SkyPilot catalog) into the replay fixtures of the Alibaba
// adapter: recorded ECS answers in the RPC JSON wire format (DescribeRegions,
// DescribeInstanceTypes, DescribeAvailableResource per way of selling,
// DescribePrice) and a
// manifest.json that states the source and every conversion. It replaces the
// output folder; its output is deterministic.
//
//	go run ./providers/alibaba/internal/fixturegen -realdata ../shared/realdata/alibaba -out providers/alibaba/testdata/replay
package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/internal/skypilot"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

var source = skypilot.Catalog{Repo: "sugarlxn/skypilot-catalog", Path: "catalogs/v8/alicloud/vms.csv", Commit: "003c56a723d369190b11308e630e4cfd33e25c86"}

// pageSize splits DescribeInstanceTypes as MaxResults=100 does (the value the
// source's crawler and the adapter use).
const pageSize = 100

// row is a source row with the columns only the Alibaba catalog has.
type row struct {
	skypilot.VM
	gpuInfo, spot, arch string
}

func main() {
	fixture.Command{Cloud: "alibaba", Reads: "ecs_gpu_vms.csv", Generate: run}.Main()
}

func run(realdata, out string) error {
	vms, err := skypilot.ReadVMs(filepath.Join(realdata, "ecs_gpu_vms.csv"), "GpuInfo", "SpotPrice", "Arch")
	if err != nil {
		return err
	}
	rows := make([]row, len(vms))
	for i, v := range vms {
		rows[i] = row{VM: v, gpuInfo: v.Get("GpuInfo"), spot: v.Get("SpotPrice"), arch: v.Get("Arch")}
	}
	f, err := fixture.Create(out)
	if err != nil {
		return err
	}

	// DescribeRegions: the regions that have rows.
	regionSet := map[string]bool{}
	for _, r := range rows {
		regionSet[r.Region] = true
	}
	regions := slices.Sorted(maps.Keys(regionSet))
	var regionList []map[string]any
	for _, r := range regions {
		regionList = append(regionList, map[string]any{"RegionId": r})
	}
	f.Add(replay.Exchange{Service: "ecs", Action: "DescribeRegions", Params: map[string]string{"ResourceType": "instance"},
		ContentType: "application/json", Body: answer(f, "regions.json", map[string]any{"Regions": map[string]any{"Region": regionList}})})

	// DescribeInstanceTypes: one record per type, in pages of 100.
	specs := map[string]row{}
	for _, r := range rows {
		specs[r.InstanceType] = r
	}
	ids := slices.Sorted(maps.Keys(specs))
	for page, start := 1, 0; start < len(ids); page, start = page+1, start+pageSize {
		end := min(start+pageSize, len(ids))
		var recs []map[string]any
		for _, id := range ids[start:end] {
			recs = append(recs, instanceType(specs[id]))
		}
		next := ""
		if end < len(ids) {
			next = fmt.Sprintf("replay-page-%d", page+1)
		}
		token := ""
		if page > 1 {
			token = fmt.Sprintf("replay-page-%d", page)
		}
		f.Add(replay.Exchange{Service: "ecs", Action: "DescribeInstanceTypes",
			Params:      map[string]string{"MinimumGPUAmount": "1", "NextToken": token},
			ContentType: "application/json",
			Body:        answer(f, fmt.Sprintf("instance_types/page%d.json", page), map[string]any{"NextToken": next, "InstanceTypes": map[string]any{"InstanceType": recs}})})
	}

	// DescribeAvailableResource per region and way of selling: the zones and
	// types of the rows that have a price of that kind (see the manifest).
	noneSold := answer(f, "available_resource/none.json", map[string]any{"AvailableZones": map[string]any{"AvailableZone": []any{}}})
	for _, region := range regions {
		for _, k := range []struct {
			charge, spot, file string
			priced             func(row) bool
		}{
			{"PostPaid", "", "postpaid", func(r row) bool { return r.Price != "" }},
			{"PostPaid", "SpotAsPriceGo", "spot", func(r row) bool { return r.spot != "" }},
		} {
			body := availableResource(f, region, "available_resource/"+k.file+"/"+region+".json", rows, k.priced)
			if body == "" {
				body = noneSold
			}
			f.Add(replay.Exchange{Service: "ecs", Action: "DescribeAvailableResource", Region: region,
				Params:      map[string]string{"DestinationResource": "InstanceType", "InstanceChargeType": k.charge, "SpotStrategy": k.spot},
				ContentType: "application/json", Body: body})
		}
		// Subscription (PrePaid): the source has no subscription price, so
		// no type is listed as sold that way.
		f.Add(replay.Exchange{Service: "ecs", Action: "DescribeAvailableResource", Region: region,
			Params:      map[string]string{"DestinationResource": "InstanceType", "InstanceChargeType": "PrePaid"},
			ContentType: "application/json", Body: noneSold})
	}

	// DescribePrice per row: pay-as-you-go and spot.
	for _, r := range rows {
		for _, q := range []struct{ usd, spot string }{{r.Price, ""}, {r.spot, "SpotAsPriceGo"}} {
			if q.usd == "" {
				continue
			}
			cny, err := skypilot.RecoverCNY(q.usd)
			if err != nil {
				return r.Errorf("%s in %s: %w", r.InstanceType, r.Zone, err)
			}
			body := f.Body("price/CNY-"+cny.String()+".json",
				fmt.Appendf(nil, `{"RequestId":%q,"PriceInfo":{"Price":{"TradePrice":%s,"Currency":"CNY"},"Rules":{"Rule":[]}}}`, requestID("price "+cny.String()), cny.String()))
			f.Add(replay.Exchange{Service: "ecs", Action: "DescribePrice", Region: r.Region,
				Params: map[string]string{"InstanceType": r.InstanceType, "ZoneId": r.Zone, "PriceUnit": "Hour", "SpotStrategy": q.spot,
					"ResourceType": "instance", "SystemDisk.Category": "cloud_essd", "SystemDisk.Size": "40"},
				ContentType: "application/json", Body: body})
		}
	}
	return f.WriteManifest(manifest)
}

// availableResource writes the DescribeAvailableResource answer of a region
// listing, per zone, the types of the rows for which priced is true, and
// returns its file name ("" when no row of the region is).
func availableResource(f *fixture.Folder, region, name string, rows []row, priced func(row) bool) string {
	zoneTypes := map[string][]string{}
	for _, r := range rows {
		if r.Region == region && priced(r) {
			zoneTypes[r.Zone] = append(zoneTypes[r.Zone], r.InstanceType)
		}
	}
	if len(zoneTypes) == 0 {
		return ""
	}
	var zones []map[string]any
	for _, z := range slices.Sorted(maps.Keys(zoneTypes)) {
		ts := zoneTypes[z]
		slices.Sort(ts)
		var sup []map[string]any
		for _, t := range ts {
			sup = append(sup, map[string]any{"Value": t})
		}
		zones = append(zones, map[string]any{"RegionId": region, "ZoneId": z,
			"AvailableResources": map[string]any{"AvailableResource": []map[string]any{{
				"Type": "InstanceType", "SupportedResources": map[string]any{"SupportedResource": sup}}}}})
	}
	return answer(f, name, map[string]any{"AvailableZones": map[string]any{"AvailableZone": zones}})
}

// manifest states the source and every conversion; WriteManifest adds the exchanges.
var manifest = replay.Manifest{
	Provider:  "alibaba",
	Real:      replay.RealAll,
	Retrieved: skypilot.RetrievedOn,
	Sources:   []string{source.Provenance("../shared/realdata/alibaba/ecs_gpu_vms.csv")},
	Notes: []string{
		skypilot.DateNote,
		"The source was produced with DescribeInstanceTypes (MinimumGPUAmount=1, MaxResults=100), DescribeZones (InstanceChargeType=PostPaid, verbose) and DescribePrice per zone (ResourceType=instance, InstanceNetworkType=vpc, PriceUnit=Hour, Amount=1, SystemDisk cloud_essd 40 GiB; spot: SpotStrategy=SpotAsPriceGo, SpotDuration=0). Every price therefore includes the 40 GiB ESSD system disk.",
		"Prices: the source stores USD = CNY × 0.138 rounded to 8 decimals. CNY is recovered as the shortest decimal (at most 8 places) whose product with 0.138, rounded to 8 decimals, is the stored USD. Rounding to 2 decimals would not be a recovery: 2339 of the 2354 prices need 3 to 8 places (e.g. 4.56135954 USD = 33.05333 CNY exactly), so Alibaba's hourly TradePrice is not kept to cents.",
		"DescribePrice answers carry TradePrice and Currency=CNY only: the source kept TradePrice alone, so OriginalPrice (list price) and DiscountPrice are absent rather than invented, and the crawl's offers have no list price.",
		"DescribeInstanceTypes records carry only what the source kept: InstanceTypeId, InstanceTypeFamily, CpuCoreCount, MemorySize, GPUAmount, GPUSpec, GPUMemorySize (parsed from GpuInfo '<name> <N>GB', per GPU; absent when GpuInfo has none, e.g. 'intel SG1') and CpuArchitecture. No bandwidth, ENI, local disk or PPS figures exist in the source.",
		"GPUSpec is the source's AcceleratorName, which is the API's GPUSpec with 'NVIDIA ' and 'GPU' removed by the source; the real API answer may carry the 'NVIDIA ' prefix (data/gpu_aliases.csv holds both forms).",
		"DescribeInstanceTypes is split into pages of 100 records with synthetic NextToken values replay-page-N; the last page has an empty NextToken.",
		"DescribeAvailableResource (DestinationResource=InstanceType) is recorded once per region for each way of selling the adapter asks about, and lists, per zone, the types the source has a price of that kind for. InstanceChargeType=PostPaid (no SpotStrategy): the rows with a pay-as-you-go price (the source's DescribeZones, asked with InstanceChargeType=PostPaid, said they can be created pay-as-you-go, and DescribePrice priced them). InstanceChargeType=PostPaid with SpotStrategy=SpotAsPriceGo: the rows with a spot price (DescribePrice with SpotAsPriceGo priced them). Every row has both, so the two answers list the same zones and types. InstanceChargeType=PrePaid: no zone at all (AvailableZones.AvailableZone empty), because the source has no subscription price; Alibaba does sell most GPU types by subscription, so this answer says what the source can price, not what ECS sells. This derivation replaces the earlier replay, in which every subscription quote was asked and answered PriceNotFound (1,620 requests that priced nothing).",
		"The source has no stock status, so Status and StatusCategory are absent from the DescribeAvailableResource answers and the crawl reports availability unknown; sold-out zones exist only in the hand-made cases under testdata/cases.",
		"DescribeRegions lists the 20 regions that have rows; RegionEndpoint, LocalName and Status are absent (not in the source).",
		"No DescribePrice for PriceUnit=Month or Year (subscription) is recorded: the source has no subscription prices, and the PrePaid DescribeAvailableResource answers list nothing, so the adapter asks none. A request with no recorded answer gets the replay's InvalidAction.NotFound (HTTP 404), which the adapter reads as not found.",
		"RequestId values are synthetic, derived from the answer's content.",
		"Real oddities are kept: ecs.gn5i-c12g1.6xlarge in cn-beijing-k has on-demand = spot = 0.084 CNY/hour; 4 rows have spot equal to on-demand.",
	},
}

var gpuMemory = regexp.MustCompile(`\s(\d+(?:\.\d+)?)GB$`)

// instanceType is the DescribeInstanceTypes record of a row (ReadVMs checked
// that its counts and sizes are numbers).
func instanceType(r row) map[string]any {
	rec := map[string]any{
		"InstanceTypeId":     r.InstanceType,
		"InstanceTypeFamily": r.Family,
		"CpuCoreCount":       json.Number(r.VCPUs),
		"MemorySize":         json.Number(r.MemoryGiB),
		"GPUAmount":          json.Number(r.AcceleratorCount),
		"GPUSpec":            r.AcceleratorName,
		"CpuArchitecture":    r.arch,
	}
	if m := gpuMemory.FindStringSubmatch(r.gpuInfo); m != nil {
		rec["GPUMemorySize"] = json.Number(m[1])
	}
	return rec
}

// answer writes an RPC JSON answer: v with a RequestId derived from its file name.
func answer(f *fixture.Folder, name string, v map[string]any) string {
	v["RequestId"] = requestID(name)
	return f.JSON(name, v)
}

// requestID is an upper-case id, as ECS writes them.
func requestID(seed string) string { return strings.ToUpper(fixture.RequestID(seed)) }
