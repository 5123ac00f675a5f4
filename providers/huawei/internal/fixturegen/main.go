// Command fixturegen writes the Huawei Cloud replay fixtures from
// ../shared/realdata/huawei: ECS ListFlavors answers built from the real
// OTC/Huawei-stack GPU flavor tables (otc_gpu_flavors.csv) and the documented
// example response (otc_list_flavors_example_response.json), IAM project and BSS
// price answers that are synthetic (no public data exists), priced by the rule in
// the manifest notes, and manifest.json. It replaces the output folder; its output
// is deterministic.
//
//	go run ./providers/huawei/internal/fixturegen -realdata ../shared/realdata/huawei -out providers/huawei/testdata/replay
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	retrieved         = "2026-11-30" // when GPU Atlas copied the flavor tables (the shared real-data set)
	reportedRetrieved = "2026-12-01" // the community notes came with the second batch
	instanceSource    = "Open Telekom Cloud's GPU flavor tables, which use Huawei's ECS flavors (opentelekomcloud-docs/elastic-cloud-server @ 3830cb51, 2026-06-15); Huawei Cloud's own regions may list other flavors"
	communitySource   = "ringochen06/deepjump cloud/HUAWEI_CLOUD_PLAN.md @ 7296e6a2c273f069f0103760d1e647cfd94e65ab (2026-07-13, no licence file), via ../shared/realdata/huawei/community_price_and_availability_notes.csv: one person's reading of Huawei Cloud's purchase pages for Beijing-4"
	specSource        = "opentelekomcloud-docs/elastic-cloud-server umn/source/service_overview/ecs_types_and_specifications/ecs_specifications/gpu-accelerated_ecss.rst @ 3830cb51a24c1046f9d9b23a9480e7c8980bf9ea (2026-06-15, Apache-2.0), via ../shared/realdata/huawei/otc_gpu_flavors.csv"
	exampleSource     = "opentelekomcloud-docs/elastic-cloud-server api-ref/source/apis_recommended/flavor_management/listing_flavor_details_and_extended_information.rst @ 992644fa9a16c3a073273cf442ffd9ea615c3cb4 (2026-02-04): ListFlavors example response shape and the c3.2xlarge.2 record"
	domainID          = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
)

// regionPlan says which flavor families each fixture region lists and its AZs.
// It is synthetic: the real data has no regional availability.
var regionPlan = []struct {
	region   string
	zones    []string
	families []string // empty: all
	factor   string   // synthetic regional price factor
}{
	{"cn-north-4", []string{"cn-north-4a", "cn-north-4b", "cn-north-4c"}, nil, "1.00"},
	{"cn-east-3", []string{"cn-east-3a", "cn-east-3b"}, []string{"P2s", "Pi2", "G6", "P3"}, "1.00"},
	{"ap-southeast-1", []string{"ap-southeast-1a", "ap-southeast-1b"}, []string{"Pi2", "G6", "P2v", "Pi5e"}, "1.20"},
}

// perGPUHour is the synthetic CNY price of one GPU-hour by the name the fixtures
// give the GPU; a vGPU profile "<GPU>-<N>Q" costs N/48 of an A40.
var perGPUHour = map[string]string{
	"T4": "6.00", "V100/16": "12.00", "V100/32": "14.00", "NVIDIA A100 80 GB": "28.00",
	"H100 PCIe": "45.00", "H100 NVL": "50.00", "L4": "7.00", "NVIDIA-A40": "16.00",
}

const (
	perVCPUHour     = "0.10"
	monthlyFactor   = "511" // 730 hours × 0.70
	yearlyPerMonths = "10"  // a year costs ten months
)

type row struct {
	family, flavor       string
	vcpus                int
	memGiB               int
	gpuName              string
	gpuCount             int
	gpuMemGiB            int             // per GPU
	gpuHour              decimal.Decimal // synthetic CNY per GPU-hour
	maxGbps, assuredGbps string
}

func main() {
	fixture.Command{Cloud: "huawei", Reads: "otc_gpu_flavors.csv, otc_list_flavors_example_response.json and community_price_and_availability_notes.csv", Generate: run}.Main()
}

func run(realdata, out string) error {
	rows, err := readRows(filepath.Join(realdata, "otc_gpu_flavors.csv"))
	if err != nil {
		return err
	}
	example, err := readExample(filepath.Join(realdata, "otc_list_flavors_example_response.json"))
	if err != nil {
		return err
	}
	f, err := fixture.Create(out)
	if err != nil {
		return err
	}
	reported, err := readReported(filepath.Join(realdata, "community_price_and_availability_notes.csv"))
	if err != nil {
		return err
	}
	m := replay.Manifest{
		Provider:       "huawei",
		Real:           replay.RealInstanceTypes, // specs are real; regions, zones, stock and prices are not
		Retrieved:      retrieved,
		InstanceSource: instanceSource,
		Reported:       reported,
		Sources:        []string{specSource, exampleSource, communitySource},
		Notes: []string{
			"What make data publishes from this replay: the GPU flavors' specs (real, below) as Huawei Cloud instance types, labelled as Open Telekom Cloud's tables for the Huawei stack, with no region, zone, stock or price (made up here); and the reported prices (reported_prices), each labelled as reported with its source and date. Retrieved " + retrieved + " (the specs; the reported price was added with the second batch of the shared data, " + reportedRetrieved + ").",
			"REAL: in ecs-flavors-*.json the GPU flavor ids, vCPUs, RAM, GPU model names as printed in the tables, GPU count, GPU memory and max/assured bandwidth (quota:max_rate/min_rate) come from the OTC flavor tables; the c3.2xlarge.2 record is the documented example response, unchanged.",
			"SYNTHETIC: which regions list which families, the AZ names and cond:operation:status/az values, the extra-spec encoding of the GPU (info:gpu:name \"<n> * <name> / <GiB> GiB\"; pi2.* use pci_passthrough:alias \"nvidia-t4:<n>\" instead), project ids (iam-projects.json) and every BSS answer (bss-*.json).",
			"SYNTHETIC PRICES (bss-*.json), CNY: on-demand hour = (sum over GPUs of the per-GPU-hour figure + " + perVCPUHour + " per vCPU) × region factor, rounded to 0.01; per GPU-hour: T4 6.00, V100 16 GiB 12.00, V100 32 GiB 14.00, A100 80 GB 28.00, H100 PCIe 45.00, H100 NVL 50.00, L4 7.00, A40 16.00, A40 vGPU <N>Q = 16.00 × N/48; region factor cn-north-4 1.00, cn-east-3 1.00, ap-southeast-1 1.20; month = hour × 511 (730 h × 0.70), rounded to 0.01; year = month × 10. No discount: amount = official_website_amount.",
			"AZ status rule (synthetic): every listed flavor is normal in every AZ of its region, except p5e.* sold out (sellout) in the region's last AZ and g7v.* in open beta (obt) in the first AZ.",
			"Billing rule (synthetic): g7v.* carry cond:operation:charge \"demand\" (sold pay-per-use only), the other flavors none (both ways); the subscription inquiry (bss-period-*.json) is recorded for the flavors sold by subscription only, as the adapter asks it.",
		},
	}
	// IAM: one project per fixture region, plus the domain-level MOS project that
	// real accounts have, which the adapter must ignore.
	projects := []map[string]any{{"id": projectID("MOS"), "name": "MOS", "enabled": true, "domain_id": domainID, "is_domain": false, "parent_id": domainID, "description": ""}}
	for _, rp := range regionPlan {
		projects = append(projects, map[string]any{"id": projectID(rp.region), "name": rp.region, "enabled": true,
			"domain_id": domainID, "is_domain": false, "parent_id": domainID, "description": "",
			"links": map[string]any{"self": "https://iam.myhuaweicloud.com/v3/projects/" + projectID(rp.region)}})
	}
	f.Add(replay.Exchange{Service: "iam", Action: "GET /v3/projects", ContentType: "application/json",
		Body: f.JSON("iam-projects.json", map[string]any{"links": map[string]any{"self": "https://iam.myhuaweicloud.com/v3/projects", "next": nil, "previous": nil}, "projects": projects})})

	for _, rp := range regionPlan {
		pid := projectID(rp.region)
		flavors := []any{example}
		var listed []row
		for _, r := range rows {
			if len(rp.families) > 0 && !slices.Contains(rp.families, r.family) {
				continue
			}
			listed = append(listed, r)
			flavors = append(flavors, flavorJSON(r, rp.zones, pid))
		}
		f.Add(replay.Exchange{Service: "ecs", Action: "GET /v1/{project_id}/cloudservers/flavors",
			Region: pid, Params: map[string]string{"marker": ""}, ContentType: "application/json",
			Body: f.JSON("ecs-flavors-"+rp.region+".json", map[string]any{"flavors": flavors})})

		// On-demand: one inquiry for the region's flavors, in ListFlavors order.
		var results []any
		total := decimal.Zero
		for _, r := range listed {
			h := hourly(r, rp.factor)
			total = total.Add(h)
			results = append(results, map[string]any{"id": r.flavor, "product_id": "synthetic-" + r.flavor,
				"amount": num(h), "discount_amount": num(decimal.Zero), "official_website_amount": num(h), "measure_id": 1})
		}
		f.Add(replay.Exchange{Service: "bss", Action: "POST /v2/bills/ratings/on-demand-resources",
			Region: rp.region, Params: map[string]string{"product_infos.1.id": listed[0].flavor}, ContentType: "application/json",
			Body: f.JSON("bss-on-demand-"+rp.region+".json", map[string]any{"amount": num(total), "discount_amount": num(decimal.Zero),
				"official_website_amount": num(total), "measure_id": 1, "currency": "CNY", "product_rating_results": results})})

		// Subscription: month and year quotes in one inquiry, of the flavors
		// sold by subscription (cond:operation:charge).
		var period []any
		var firstPeriod string
		total = decimal.Zero
		for _, r := range listed {
			if !soldByPeriod(r) {
				continue
			}
			if firstPeriod == "" {
				firstPeriod = r.flavor
			}
			month := hourly(r, rp.factor).Mul(decimal.RequireFromString(monthlyFactor)).Round(2)
			year := month.Mul(decimal.RequireFromString(yearlyPerMonths)).Round(2)
			total = total.Add(month).Add(year)
			period = append(period,
				map[string]any{"id": r.flavor + "#month", "product_id": "synthetic-" + r.flavor + "-month", "official_website_amount": num(month), "measure_id": 1},
				map[string]any{"id": r.flavor + "#year", "product_id": "synthetic-" + r.flavor + "-year", "official_website_amount": num(year), "measure_id": 1})
		}
		f.Add(replay.Exchange{Service: "bss", Action: "POST /v2/bills/ratings/period-resources/subscribe-rate",
			Region: rp.region, Params: map[string]string{"product_infos.1.id": firstPeriod + "#month"}, ContentType: "application/json",
			Body: f.JSON("bss-period-"+rp.region+".json", map[string]any{"official_website_rating_result": map[string]any{
				"official_website_amount": num(total), "measure_id": 1, "product_rating_results": period},
				"optional_discount_rating_results": []any{}, "currency": "CNY"})})
	}
	return f.WriteManifest(m)
}

// soldByPeriod is the synthetic billing rule: the G7v vGPU flavors are sold
// pay-per-use only (cond:operation:charge "demand"); every other flavor has no
// cond:operation:charge, which means both ways.
func soldByPeriod(r row) bool { return r.family != "G7v" }

func flavorJSON(r row, zones []string, pid string) map[string]any {
	specs := map[string]any{
		"ecs:performancetype":          "gpu",
		"ecs:generation":               strings.ToLower(r.family),
		"ecs:virtualization_env_types": "CloudCompute",
		"resource_type":                "IOoptimized" + r.family,
		"cond:operation:status":        "normal",
		"quota:max_rate":               mbps(r.maxGbps),
		"quota:min_rate":               mbps(r.assuredGbps),
	}
	if !soldByPeriod(r) {
		specs["cond:operation:charge"] = "demand"
	}
	if r.family == "Pi2" {
		specs["pci_passthrough:alias"] = fmt.Sprintf("nvidia-t4:%d", r.gpuCount)
	} else {
		specs["info:gpu:name"] = fmt.Sprintf("%d * %s / %d GiB", r.gpuCount, r.gpuName, r.gpuMemGiB)
	}
	var az []string
	for i, z := range zones {
		st := "normal"
		switch {
		case r.family == "P5e" && i == len(zones)-1:
			st = "sellout"
		case r.family == "G7v" && i == 0:
			st = "obt"
		}
		az = append(az, z+"("+st+")")
	}
	specs["cond:operation:az"] = strings.Join(az, ",")
	return map[string]any{
		"id": r.flavor, "name": r.flavor, "vcpus": strconv.Itoa(r.vcpus), "ram": r.memGiB * 1024,
		"disk": "0", "swap": "", "OS-FLV-EXT-DATA:ephemeral": 0, "rxtx_factor": 1, "OS-FLV-DISABLED:disabled": false,
		"rxtx_quota": nil, "rxtx_cap": nil, "os-flavor-access:is_public": true,
		"links": []any{
			map[string]any{"rel": "self", "href": "https://ecs.region.example.com/v1.0/" + pid + "/flavors/" + r.flavor, "type": nil},
			map[string]any{"rel": "bookmark", "href": "https://ecs.region.example.com/" + pid + "/flavors/" + r.flavor, "type": nil},
		},
		"os_extra_specs": specs,
	}
}

// gpuHour is the synthetic per-GPU-hour figure (CNY) of the GPU a source row names.
func gpuHour(name string, memGiB int) (decimal.Decimal, error) {
	rate := perGPUHour[name]
	switch {
	case name == "V100":
		rate = perGPUHour[fmt.Sprintf("V100/%d", memGiB)]
	case strings.HasPrefix(name, "NVIDIA-A40-") && strings.HasSuffix(name, "Q"):
		n, err := decimal.NewFromString(strings.TrimSuffix(strings.TrimPrefix(name, "NVIDIA-A40-"), "Q"))
		if err != nil {
			return decimal.Zero, fmt.Errorf("vGPU profile %q: %w", name, err)
		}
		return decimal.RequireFromString(perGPUHour["NVIDIA-A40"]).Mul(n).Div(decimal.NewFromInt(48)), nil
	}
	if rate == "" {
		return decimal.Zero, fmt.Errorf("no synthetic per-GPU-hour figure for %s", name)
	}
	return decimal.RequireFromString(rate), nil
}

func hourly(r row, factor string) decimal.Decimal {
	h := r.gpuHour.Mul(decimal.NewFromInt(int64(r.gpuCount))).
		Add(decimal.RequireFromString(perVCPUHour).Mul(decimal.NewFromInt(int64(r.vcpus))))
	return h.Mul(decimal.RequireFromString(factor)).Round(2)
}

// num writes an amount as a JSON number with two decimals, as BSS does.
func num(d decimal.Decimal) json.Number { return json.Number(d.StringFixed(2)) }

func mbps(gbps string) string {
	d, err := decimal.NewFromString(gbps)
	if err != nil {
		return ""
	}
	return d.Mul(decimal.NewFromInt(1000)).String()
}

// projectID is a stable 32-hex-digit id for a fixture project.
func projectID(name string) string {
	sum := sha256.Sum256([]byte("gpuatlas-fixture-project/" + name))
	return hex.EncodeToString(sum[:16])
}

func readRows(path string) ([]row, error) {
	recs, err := fixture.ReadCSV(path, "family", "flavor", "vcpus", "memory_gib", "gpus", "gpu_memory_gib", "max_assured_bandwidth_gbps")
	if err != nil {
		return nil, err
	}
	var out []row
	for _, rec := range recs {
		var r row
		r.family, r.flavor = rec.Get("family"), rec.Get("flavor")
		var err error
		if r.vcpus, err = strconv.Atoi(rec.Get("vcpus")); err != nil {
			return nil, rec.Errorf("vcpus: %w", err)
		}
		if r.memGiB, err = strconv.Atoi(strings.ReplaceAll(rec.Get("memory_gib"), ",", "")); err != nil {
			return nil, rec.Errorf("memory_gib: %w", err)
		}
		cnt, name, ok := strings.Cut(rec.Get("gpus"), " x ")
		if !ok {
			return nil, rec.Errorf("gpus %q is not \"<n> x <name>\"", rec.Get("gpus"))
		}
		r.gpuName = strings.TrimSpace(name)
		if r.gpuCount, err = strconv.Atoi(cnt); err != nil {
			return nil, rec.Errorf("gpu count: %w", err)
		}
		// gpu_memory_gib is either "<n> x <per GPU>[ GiB]" or the total.
		mem := strings.TrimSuffix(rec.Get("gpu_memory_gib"), " GiB")
		if _, per, ok := strings.Cut(mem, " x "); ok {
			r.gpuMemGiB, err = strconv.Atoi(per)
		} else {
			var total int
			total, err = strconv.Atoi(mem)
			r.gpuMemGiB = total / r.gpuCount
		}
		if err != nil {
			return nil, rec.Errorf("gpu_memory_gib: %w", err)
		}
		if r.gpuHour, err = gpuHour(r.gpuName, r.gpuMemGiB); err != nil {
			return nil, rec.Errorf("gpus: %w", err)
		}
		r.maxGbps, r.assuredGbps, _ = strings.Cut(rec.Get("max_assured_bandwidth_gbps"), "/")
		out = append(out, r)
	}
	return out, nil
}

func readExample(path string) (any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v struct {
		Flavors []any `json:"flavors"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: want one example flavor (%w)", path, err)
	}
	if len(v.Flavors) != 1 {
		return nil, fmt.Errorf("%s: want one example flavor, found %d", path, len(v.Flavors))
	}
	return v.Flavors[0], nil
}

// reportedRegion maps the region names the community notes use to Huawei
// Cloud region ids (Huawei's region list: Beijing-4 is cn-north-4).
var reportedRegion = map[string]string{"Beijing-4": "cn-north-4"}

// readReported reads the community notes' price statements: one reported
// on-demand price per flavor and region (the notes state p2v.16xlarge.8 twice,
// 131.50 and 131.5 CNY an hour: the same price, published once with the first
// statement). Availability remarks and specs are not prices and are left out.
func readReported(path string) ([]replay.ReportedPrice, error) {
	rows, err := fixture.ReadCSV(path, "source_repo", "source_path", "source_commit", "source_commit_date", "region_as_written",
		"flavor", "kind", "ondemand_cny_per_hour", "statement")
	if err != nil {
		return nil, err
	}
	var out []replay.ReportedPrice
	seen := map[string]decimal.Decimal{}
	for _, r := range rows {
		if r.Get("kind") != "price" || r.Get("ondemand_cny_per_hour") == "" {
			continue
		}
		region, ok := reportedRegion[r.Get("region_as_written")]
		if !ok {
			return nil, r.Errorf("region %q has no Huawei Cloud region id in reportedRegion", r.Get("region_as_written"))
		}
		amount, err := decimal.NewFromString(r.Get("ondemand_cny_per_hour"))
		if err != nil {
			return nil, r.Errorf("ondemand_cny_per_hour: %v", err)
		}
		key := r.Get("flavor") + "/" + region
		if prev, ok := seen[key]; ok {
			if !prev.Equal(amount) {
				return nil, r.Errorf("%s is reported at %s and at %s", key, prev, amount)
			}
			continue
		}
		seen[key] = amount
		day := r.Get("source_commit_date")
		if len(day) < 10 {
			return nil, r.Errorf("source_commit_date %q is not a date", day)
		}
		out = append(out, replay.ReportedPrice{InstanceType: r.Get("flavor"), Region: region, Billing: "on_demand",
			Amount: amount.String(), Currency: "CNY", Unit: "hour", Includes: "",
			Observed: day[:10], Retrieved: reportedRetrieved,
			Source:    fmt.Sprintf("reported, not from an API: %s %s @ %s (%s), read from Huawei Cloud's purchase page", r.Get("source_repo"), r.Get("source_path"), r.Get("source_commit")[:8], day[:10]),
			Statement: r.Get("statement")})
	}
	return out, nil
}
