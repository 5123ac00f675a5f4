// Command fixturegen turns the real Alibaba Cloud data under ../shared/realdata/alibaba
// into recorded ECS API answers in the RPC JSON wire format, with a replay manifest
// that states every conversion. Its output is deterministic.
//
//	go run ./providers/alibaba/internal/fixturegen -realdata ../shared/realdata/alibaba -out providers/alibaba/testdata/replay
package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/skypilot"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	sourceRepo   = "sugarlxn/skypilot-catalog"
	sourcePath   = "catalogs/v8/alicloud/vms.csv"
	sourceCommit = "003c56a723d369190b11308e630e4cfd33e25c86"
	// asOf is the date GPU Atlas retrieved the data (the shared real-data set,
	// 2026-11-30): the source records no capture date and its commit's date
	// could not be found, so the prices are at least this old.
	asOf = "2026-11-30"
	// pageSize splits DescribeInstanceTypes as MaxResults=100 does (the value the
	// source's crawler and the adapter use).
	pageSize = 100
)

type row struct {
	instanceType, accelName, accelCount, vcpus, memory, gpuInfo string
	price, spot, region, zone, family, arch                     string
}

func main() {
	realdata := flag.String("realdata", "../shared/realdata/alibaba", "folder holding ecs_gpu_vms.csv")
	out := flag.String("out", "providers/alibaba/testdata/replay", "fixture folder to (re)write")
	flag.Parse()
	if err := run(*realdata, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fixturegen:", err)
		os.Exit(1)
	}
}

func run(realdata, out string) error {
	f, err := os.Open(filepath.Join(realdata, "ecs_gpu_vms.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := readRows(f)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	w := &writer{dir: out}
	var ex []replay.Exchange

	// DescribeRegions: the regions that have rows.
	regionSet := map[string]bool{}
	for _, r := range rows {
		regionSet[r.region] = true
	}
	regions := sortedKeys(regionSet)
	var regionList []map[string]any
	for _, r := range regions {
		regionList = append(regionList, map[string]any{"RegionId": r})
	}
	ex = append(ex, replay.Exchange{Service: "ecs", Action: "DescribeRegions", Params: map[string]string{"ResourceType": "instance"},
		ContentType: "application/json", Body: w.json("regions.json", map[string]any{"Regions": map[string]any{"Region": regionList}})})

	// DescribeInstanceTypes: one record per type, in pages of 100.
	specs := map[string]row{}
	for _, r := range rows {
		specs[r.instanceType] = r
	}
	ids := sortedKeys(specs)
	for page, start := 1, 0; start < len(ids); page, start = page+1, start+pageSize {
		end := min(start+pageSize, len(ids))
		var recs []map[string]any
		for _, id := range ids[start:end] {
			rec, err := instanceType(specs[id])
			if err != nil {
				return err
			}
			recs = append(recs, rec)
		}
		next := ""
		if end < len(ids) {
			next = fmt.Sprintf("replay-page-%d", page+1)
		}
		token := ""
		if page > 1 {
			token = fmt.Sprintf("replay-page-%d", page)
		}
		ex = append(ex, replay.Exchange{Service: "ecs", Action: "DescribeInstanceTypes",
			Params:      map[string]string{"MinimumGPUAmount": "1", "NextToken": token},
			ContentType: "application/json",
			Body:        w.json(fmt.Sprintf("instance_types/page%d.json", page), map[string]any{"NextToken": next, "InstanceTypes": map[string]any{"InstanceType": recs}})})
	}

	// DescribeAvailableResource per region: the zones and types of the rows.
	for _, region := range regions {
		zoneTypes := map[string][]string{}
		for _, r := range rows {
			if r.region == region {
				zoneTypes[r.zone] = append(zoneTypes[r.zone], r.instanceType)
			}
		}
		var zones []map[string]any
		for _, z := range sortedKeys(zoneTypes) {
			ts := zoneTypes[z]
			sort.Strings(ts)
			var sup []map[string]any
			for _, t := range ts {
				sup = append(sup, map[string]any{"Value": t})
			}
			zones = append(zones, map[string]any{"RegionId": region, "ZoneId": z,
				"AvailableResources": map[string]any{"AvailableResource": []map[string]any{{
					"Type": "InstanceType", "SupportedResources": map[string]any{"SupportedResource": sup}}}}})
		}
		ex = append(ex, replay.Exchange{Service: "ecs", Action: "DescribeAvailableResource", Region: region,
			Params:      map[string]string{"DestinationResource": "InstanceType", "InstanceChargeType": "PostPaid"},
			ContentType: "application/json",
			Body:        w.json("available_resource/"+region+".json", map[string]any{"AvailableZones": map[string]any{"AvailableZone": zones}})})
	}

	// DescribePrice per row: pay-as-you-go and spot.
	for _, r := range rows {
		for _, q := range []struct{ usd, spot string }{{r.price, ""}, {r.spot, "SpotAsPriceGo"}} {
			if q.usd == "" {
				continue
			}
			cny, err := skypilot.RecoverCNY(q.usd)
			if err != nil {
				return fmt.Errorf("%s in %s: %w", r.instanceType, r.zone, err)
			}
			body := w.raw("price/CNY-"+cny.String()+".json",
				fmt.Sprintf(`{"RequestId":%q,"PriceInfo":{"Price":{"TradePrice":%s,"Currency":"CNY"},"Rules":{"Rule":[]}}}`, requestID("price "+cny.String()), cny.String()))
			ex = append(ex, replay.Exchange{Service: "ecs", Action: "DescribePrice", Region: r.region,
				Params: map[string]string{"InstanceType": r.instanceType, "ZoneId": r.zone, "PriceUnit": "Hour", "SpotStrategy": q.spot,
					"ResourceType": "instance", "SystemDisk.Category": "cloud_essd", "SystemDisk.Size": "40"},
				ContentType: "application/json", Body: body})
		}
	}
	// Subscription prices are not in the source: answer with the error ECS gives
	// for a price it cannot quote, instead of inventing one.
	notFound := w.raw("errors/price_not_found.json", replay.AlibabaError("PriceNotFound", "The price of your queried resource is not found."))
	for _, unit := range []string{"Month", "Year"} {
		ex = append(ex, replay.Exchange{Service: "ecs", Action: "DescribePrice", Params: map[string]string{"PriceUnit": unit},
			Status: 400, ContentType: "application/json", Body: notFound})
	}
	if w.err != nil {
		return w.err
	}
	replay.SortExchanges(ex)
	m := replay.Manifest{
		Provider:  "alibaba",
		AsOf:      asOf,
		Synthetic: false,
		Sources: []string{fmt.Sprintf("https://github.com/%s/blob/%s/%s (via ../shared/realdata/alibaba/ecs_gpu_vms.csv, unchanged but LF line endings; no licence file in the repository)",
			sourceRepo, sourceCommit, sourcePath)},
		Notes: []string{
			"as_of 2026-11-30 is the date GPU Atlas retrieved this data, not the date it was captured: the source records no capture date and its commit's date could not be found. The prices are at least this old; their capture date is unknown.",
			"The source was produced with DescribeInstanceTypes (MinimumGPUAmount=1, MaxResults=100), DescribeZones (InstanceChargeType=PostPaid, verbose) and DescribePrice per zone (ResourceType=instance, InstanceNetworkType=vpc, PriceUnit=Hour, Amount=1, SystemDisk cloud_essd 40 GiB; spot: SpotStrategy=SpotAsPriceGo, SpotDuration=0). Every price therefore includes the 40 GiB ESSD system disk.",
			"Prices: the source stores USD = CNY × 0.138 rounded to 8 decimals. CNY is recovered as the shortest decimal (at most 8 places) whose product with 0.138, rounded to 8 decimals, is the stored USD. Rounding to 2 decimals would not be a recovery: 2339 of the 2354 prices need 3 to 8 places (e.g. 4.56135954 USD = 33.05333 CNY exactly), so Alibaba's hourly TradePrice is not kept to cents.",
			"DescribePrice answers carry TradePrice and Currency=CNY only: the source kept TradePrice alone, so OriginalPrice (list price) and DiscountPrice are absent rather than invented, and the crawl's offers have no list price.",
			"DescribeInstanceTypes records carry only what the source kept: InstanceTypeId, InstanceTypeFamily, CpuCoreCount, MemorySize, GPUAmount, GPUSpec, GPUMemorySize (parsed from GpuInfo '<name> <N>GB', per GPU; absent when GpuInfo has none, e.g. 'intel SG1') and CpuArchitecture. No bandwidth, ENI, local disk or PPS figures exist in the source.",
			"GPUSpec is the source's AcceleratorName, which is the API's GPUSpec with 'NVIDIA ' and 'GPU' removed by the source; the real API answer may carry the 'NVIDIA ' prefix (data/gpu_aliases.csv holds both forms).",
			"DescribeInstanceTypes is split into pages of 100 records with synthetic NextToken values replay-page-N; the last page has an empty NextToken.",
			"DescribeAvailableResource answers list, per zone, the types the source has a row for (the source's DescribeZones said they can be created pay-as-you-go). The source has no stock status, so Status and StatusCategory are absent and the crawl reports availability unknown; sold-out zones exist only in the hand-made cases under testdata/cases.",
			"DescribeRegions lists the 20 regions that have rows; RegionEndpoint, LocalName and Status are absent (not in the source).",
			"DescribePrice for PriceUnit=Month or Year (subscription) answers HTTP 400 PriceNotFound: the source has no subscription prices. The code is the one ECS uses for a price it cannot quote as recalled from its error list, not verified against the current documentation.",
			"RequestId values are synthetic, derived from the answer's content.",
			"Real oddities are kept: ecs.gn5i-c12g1.6xlarge in cn-beijing-k has on-demand = spot = 0.084 CNY/hour; 4 rows have spot equal to on-demand.",
		},
		Exchanges: ex,
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "manifest.json"), append(data, '\n'), 0o644)
}

func readRows(r io.Reader) ([]row, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, c := range []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "GpuInfo", "Price", "SpotPrice", "Region", "AvailabilityZone", "Generation", "Arch"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("ecs_gpu_vms.csv: no column %s", c)
		}
	}
	var rows []row
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		g := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
		rows = append(rows, row{g("InstanceType"), g("AcceleratorName"), g("AcceleratorCount"), g("vCPUs"), g("MemoryGiB"), g("GpuInfo"),
			g("Price"), g("SpotPrice"), g("Region"), g("AvailabilityZone"), g("Generation"), g("Arch")})
	}
	return rows, nil
}

var gpuMemory = regexp.MustCompile(`\s(\d+(?:\.\d+)?)GB$`)

func instanceType(r row) (map[string]any, error) {
	rec := map[string]any{
		"InstanceTypeId":     r.instanceType,
		"InstanceTypeFamily": r.family,
		"CpuCoreCount":       json.Number(r.vcpus),
		"MemorySize":         json.Number(r.memory),
		"GPUAmount":          json.Number(r.accelCount),
		"GPUSpec":            r.accelName,
		"CpuArchitecture":    r.arch,
	}
	if m := gpuMemory.FindStringSubmatch(r.gpuInfo); m != nil {
		rec["GPUMemorySize"] = json.Number(m[1])
	}
	for _, k := range []string{"CpuCoreCount", "MemorySize", "GPUAmount"} {
		if _, err := decimal.NewFromString(string(rec[k].(json.Number))); err != nil {
			return nil, fmt.Errorf("%s: %s is not a number", r.instanceType, k)
		}
	}
	return rec, nil
}

func requestID(seed string) string {
	h := sha256.Sum256([]byte(seed))
	x := fmt.Sprintf("%X", h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// writer writes body files once each and remembers the first error.
type writer struct {
	dir     string
	written map[string]bool
	err     error
}

func (w *writer) json(name string, v map[string]any) string {
	v["RequestId"] = requestID(name)
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		w.err = errors.Join(w.err, err)
		return name
	}
	return w.raw(name, string(data))
}

func (w *writer) raw(name, body string) string {
	if w.written == nil {
		w.written = map[string]bool{}
	}
	if w.written[name] {
		return name
	}
	w.written[name] = true
	p := filepath.Join(w.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.err = errors.Join(w.err, err)
		return name
	}
	if err := os.WriteFile(p, []byte(strings.TrimRight(body, "\n")+"\n"), 0o644); err != nil {
		w.err = errors.Join(w.err, err)
	}
	return name
}
