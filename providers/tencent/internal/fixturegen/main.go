// Command fixturegen turns the real Tencent Cloud data under ../shared/realdata/tencent
// into recorded CVM API 3.0 answers ({"Response":{...}}), with a replay manifest that
// states every conversion. Its output is deterministic.
//
//	go run ./providers/tencent/internal/fixturegen -realdata ../shared/realdata/tencent -out providers/tencent/testdata/replay
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
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/skypilot"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	sourceRepo   = "sugarlxn/skypilot-catalog"
	sourcePath   = "catalogs/v8/tencentcloud/vms.csv"
	sourceCommit = "319364519647e37c5ee585be5338b02b10f744be"
	asOf         = "2026-11-30" // the date GPU Atlas retrieved the data; the capture date is unknown
)

type row struct {
	instanceType, accelName, accelCount, vcpus, memory string
	price, region, zone, family                        string
}

func main() {
	realdata := flag.String("realdata", "../shared/realdata/tencent", "folder holding cvm_gpu_vms.csv")
	out := flag.String("out", "providers/tencent/testdata/replay", "fixture folder to (re)write")
	flag.Parse()
	if err := run(*realdata, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fixturegen:", err)
		os.Exit(1)
	}
}

func run(realdata, out string) error {
	f, err := os.Open(filepath.Join(realdata, "cvm_gpu_vms.csv"))
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

	byRegion := map[string][]row{}
	for _, r := range rows {
		byRegion[r.region] = append(byRegion[r.region], r)
	}
	regions := make([]string, 0, len(byRegion))
	for r := range byRegion {
		regions = append(regions, r)
	}
	sort.Strings(regions)

	var regionSet []map[string]any
	for _, r := range regions {
		regionSet = append(regionSet, map[string]any{"Region": r, "RegionState": "AVAILABLE"})
	}
	ex = append(ex, replay.Exchange{Service: "cvm", Action: "DescribeRegions", ContentType: "application/json",
		Body: w.response("regions.json", map[string]any{"TotalCount": len(regionSet), "RegionSet": regionSet})})

	empty := w.response("zone_instance_config_infos/empty.json", map[string]any{"InstanceTypeQuotaSet": []any{}})
	for _, region := range regions {
		rs := byRegion[region]
		sort.SliceStable(rs, func(i, j int) bool {
			if rs[i].zone != rs[j].zone {
				return rs[i].zone < rs[j].zone
			}
			return rs[i].instanceType < rs[j].instanceType
		})
		var items []map[string]any
		for _, r := range rs {
			items = append(items, map[string]any{
				"Zone": r.zone, "InstanceType": r.instanceType, "InstanceChargeType": "POSTPAID_BY_HOUR",
				"InstanceFamily": r.family, "Cpu": json.Number(r.vcpus), "Memory": json.Number(r.memory), "GpuCount": json.Number(r.accelCount),
			})
		}
		ex = append(ex, replay.Exchange{Service: "cvm", Action: "DescribeZoneInstanceConfigInfos", Region: region,
			Params:      map[string]string{"filter.instance-charge-type": "POSTPAID_BY_HOUR"},
			ContentType: "application/json",
			Body:        w.response("zone_instance_config_infos/"+region+".json", map[string]any{"InstanceTypeQuotaSet": items})})
		for _, ct := range []string{"SPOTPAID", "PREPAID"} {
			ex = append(ex, replay.Exchange{Service: "cvm", Action: "DescribeZoneInstanceConfigInfos", Region: region,
				Params: map[string]string{"filter.instance-charge-type": ct}, ContentType: "application/json", Body: empty})
		}
		for _, r := range rs {
			cny, err := skypilot.RecoverCNY(r.price)
			if err != nil {
				return fmt.Errorf("%s in %s: %w", r.instanceType, r.zone, err)
			}
			body := w.response("inquiry_price/CNY-"+cny.String()+".json", map[string]any{"Price": map[string]any{
				"InstancePrice": map[string]any{"UnitPriceDiscount": json.Number(cny.String()), "ChargeUnit": "HOUR"}}})
			ex = append(ex, replay.Exchange{Service: "cvm", Action: "InquiryPriceRunInstances", Region: region,
				Params:      map[string]string{"Placement.Zone": r.zone, "InstanceType": r.instanceType, "InstanceChargeType": "POSTPAID_BY_HOUR"},
				ContentType: "application/json", Body: body})
		}
	}
	if w.err != nil {
		return w.err
	}
	replay.SortExchanges(ex)
	m := replay.Manifest{
		Provider: "tencent", AsOf: asOf, Synthetic: false,
		Sources: []string{fmt.Sprintf("https://github.com/%s/blob/%s/%s (via ../shared/realdata/tencent/cvm_gpu_vms.csv, unchanged but LF line endings; no licence file in the repository)",
			sourceRepo, sourceCommit, sourcePath)},
		Notes: []string{
			"as_of 2026-11-30 is the date GPU Atlas retrieved this data, not the date it was captured: the source records no capture date and its commit's date could not be found. The prices are at least this old; their capture date is unknown.",
			"The source was produced with DescribeRegions (RegionState AVAILABLE), DescribeInstanceTypeConfigs per region (rows with GPU > 0) and InquiryPriceRunInstances per zone (POSTPAID_BY_HOUR, InstanceCount 1, a TencentOS public image, default system disk, no public bandwidth).",
			"The type list is replayed as DescribeZoneInstanceConfigInfos (filter instance-charge-type=POSTPAID_BY_HOUR), the call the adapter makes: one item per source row with Zone, InstanceType, InstanceChargeType, InstanceFamily, Cpu, Memory and GpuCount. The source has no stock status, no price in this call, no bandwidth and no GPU memory: Status, Price, InstanceBandwidth and the rest are absent, so the crawl reports availability unknown and asks InquiryPriceRunInstances for every price, as the source did.",
			"Prices: the source stores USD = CNY × 0.138 rounded to 8 decimals; CNY is recovered as the shortest decimal whose product with 0.138, rounded to 8 decimals, is the stored USD. All 405 recover to at most 2 decimals (fen), as Tencent's prices are. They are replayed as Price.InstancePrice.UnitPriceDiscount (CNY/hour, ChargeUnit HOUR); the source took UnitPriceDiscount, falling back to UnitPrice, and kept no list price, so UnitPrice is absent.",
			"The source has no spot (SPOTPAID) and no monthly (PREPAID) data: DescribeZoneInstanceConfigInfos for those charge types answers an empty InstanceTypeQuotaSet (no offers) rather than invented prices.",
			"The source's GPU names come from a family map, not the API (the CVM API names no GPU); the adapter maps families through data/tencent_gpu_families.csv. Families outside the source's map (GN7vw, GNV4v, HCC*) are absent from the data.",
			"DescribeRegions lists the 16 regions that have rows, all AVAILABLE (the source only crawled AVAILABLE regions); RegionName is absent.",
			"RequestId values are synthetic, derived from the answer's file name.",
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
	for _, c := range []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB", "Price", "Region", "AvailabilityZone", "Generation"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("cvm_gpu_vms.csv: no column %s", c)
		}
	}
	var rows []row
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		g := func(c string) string { return strings.TrimSpace(rec[col[c]]) }
		for _, n := range []string{"AcceleratorCount", "vCPUs", "MemoryGiB"} {
			if _, err := decimal.NewFromString(g(n)); err != nil {
				return nil, fmt.Errorf("%s: %s %q is not a number", g("InstanceType"), n, g(n))
			}
		}
		rows = append(rows, row{g("InstanceType"), g("AcceleratorName"), g("AcceleratorCount"), g("vCPUs"), g("MemoryGiB"),
			g("Price"), g("Region"), g("AvailabilityZone"), g("Generation")})
	}
}

func requestID(seed string) string {
	h := sha256.Sum256([]byte(seed))
	x := fmt.Sprintf("%x", h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

type writer struct {
	dir     string
	written map[string]bool
	err     error
}

// response writes {"Response": {...v, "RequestId": ...}} once per name.
func (w *writer) response(name string, v map[string]any) string {
	if w.written == nil {
		w.written = map[string]bool{}
	}
	if w.written[name] {
		return name
	}
	w.written[name] = true
	v["RequestId"] = requestID(name)
	data, err := json.MarshalIndent(map[string]any{"Response": v}, "", "  ")
	if err != nil {
		w.err = errors.Join(w.err, err)
		return name
	}
	p := filepath.Join(w.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.err = errors.Join(w.err, err)
		return name
	}
	if err := os.WriteFile(p, append(data, '\n'), 0o644); err != nil {
		w.err = errors.Join(w.err, err)
	}
	return name
}
