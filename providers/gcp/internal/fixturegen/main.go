// Command fixturegen writes the Google Cloud replay fixtures from
// ../shared/realdata/gcp: SkyPilot's catalog of Compute Engine prices
// (skypilot_v8_gcp_vms_accelerator_machine_rows.csv: each GPU machine type's
// vCPUs, memory and machine part per zone, on demand and spot;
// skypilot_v8_gcp_vms_gpu_accelerator_rows.csv: the GPUs' part per zone and
// count) become the answers of the three listings the adapter reads:
// Compute Engine's aggregated machine types and accelerator types, in the
// shape of libcloud's recorded answers
// (compute_machineTypes_list_us-central1-a_libcloud.json), and the billing
// catalog's Compute SKUs, in the shape of opencost's recorded page
// (cloudbilling_services_skus_list_page_opencost.json). It replaces the output
// folder; its output is deterministic.
//
//	go run ./providers/gcp/internal/fixturegen -realdata ../shared/realdata/gcp -out providers/gcp/testdata/replay
package main

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/providers/gcp"
	"github.com/gpuatlas/gpuatlas/providers/internal/fixture"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

const (
	retrieved = "2026-12-04" // when GPU Atlas copied the sources (the shared real-data set)
	project   = "gpuatlas-replay"
	service   = "6F81-5844-456A"
	// Page sizes, smaller than the APIs' so that a crawl follows nextPageToken.
	zonesPerPage = 12
	skusPerPage  = 100

	priceSource = "skypilot-org/skypilot-catalog catalogs/v8/gcp/vms.csv @ 006059e0f18acb1341e22a27751e9f80df6ba92f (commit date not known; Apache-2.0; SkyPilot builds it from the Cloud Billing Catalog API and Compute Engine's lists), via ../shared/realdata/gcp/skypilot_v8_gcp_vms_accelerator_machine_rows.csv and skypilot_v8_gcp_vms_gpu_accelerator_rows.csv"
	shapeSource = "apache/libcloud libcloud/test/compute/fixtures/gce/zones_us-central1-a_machineTypes.json @ 65487e6362a415a2d069a1d799eb857622fb313e and opencost/opencost pkg/cloud/gcp/test/skus.json @ 42976a2b8bbe50dc99481b74e8c7aee9e4c69e5b (Apache-2.0): the answers' shapes"
)

func main() {
	fixture.Command{Cloud: "gcp", Reads: "skypilot_v8_gcp_vms_accelerator_machine_rows.csv and skypilot_v8_gcp_vms_gpu_accelerator_rows.csv", Generate: run}.Main()
}

// attached says which accelerators a machine type carries, by name
// (https://cloud.google.com/compute/docs/gpus): SkyPilot's accelerator name,
// Compute Engine's accelerator type and its description.
var attached = []struct {
	prefix, skypilot, accType, description string
}{
	{"a2-highgpu-", "A100", "nvidia-tesla-a100", "NVIDIA A100 40GB"},
	{"a2-megagpu-", "A100", "nvidia-tesla-a100", "NVIDIA A100 40GB"},
	{"a2-ultragpu-", "A100-80GB", "nvidia-a100-80gb", "NVIDIA A100 80GB"},
	{"a3-highgpu-", "H100", "nvidia-h100-80gb", "NVIDIA H100 80GB"},
	{"a3-edgegpu-", "H100", "nvidia-h100-80gb", "NVIDIA H100 80GB"},
	{"a3-megagpu-", "H100-MEGA", "nvidia-h100-mega-80gb", "NVIDIA H100 80GB MEGA"},
	{"a3-ultragpu-", "H200", "nvidia-h200-141gb", "NVIDIA H200 141GB"},
	{"a4-highgpu-", "B200", "nvidia-b200", "NVIDIA B200"},
}

var gpuCount = regexp.MustCompile(`-(\d+)g(-|$)`)

// machine is one machine type in one zone.
type machine struct {
	name, zone, region string
	vcpus, memGiB      decimal.Decimal
	price, spot        string
	acc                int // index in attached
	count              int
}

// key is one SKU's words, region and kind.
type key struct {
	words, region string
	spot          bool
}

// rate is one SKU: its group, unit and price per unit.
type rate struct {
	group, unit string
	price       decimal.Decimal
}

func run(realdata, out string) error {
	mrows, err := fixture.ReadCSV(realdata+"/skypilot_v8_gcp_vms_accelerator_machine_rows.csv", "InstanceType", "vCPUs", "MemoryGiB", "Region", "AvailabilityZone", "Price", "SpotPrice")
	if err != nil {
		return err
	}
	grows, err := fixture.ReadCSV(realdata+"/skypilot_v8_gcp_vms_gpu_accelerator_rows.csv", "AcceleratorName", "AcceleratorCount", "Region", "AvailabilityZone", "Price", "SpotPrice")
	if err != nil {
		return err
	}
	var machines []machine
	for _, r := range mrows {
		m := machine{name: r.Get("InstanceType"), zone: r.Get("AvailabilityZone"), region: r.Get("Region"), price: r.Get("Price"), spot: r.Get("SpotPrice"), acc: -1}
		var err1, err2 error
		m.vcpus, err1 = decimal.NewFromString(r.Get("vCPUs"))
		m.memGiB, err2 = decimal.NewFromString(r.Get("MemoryGiB"))
		if err1 != nil || err2 != nil || !strings.HasPrefix(m.zone, m.region+"-") {
			return r.Errorf("vCPUs %q, MemoryGiB %q or zone %q", r.Get("vCPUs"), r.Get("MemoryGiB"), m.zone)
		}
		for i, a := range attached {
			if strings.HasPrefix(m.name, a.prefix) {
				m.acc = i
			}
		}
		c := gpuCount.FindStringSubmatch(m.name)
		if m.acc < 0 || c == nil || gcp.SeriesSKU(m.name) == "" {
			return r.Errorf("machine type %q: no accelerator known", m.name)
		}
		m.count, _ = strconv.Atoi(c[1])
		machines = append(machines, m)
	}
	rates := map[key]rate{}
	if err := machineRates(machines, rates); err != nil {
		return err
	}
	if err := gpuRates(machines, grows, rates); err != nil {
		return err
	}
	f, err := fixture.Create(out)
	if err != nil {
		return err
	}
	machinePages(f, machines)
	acceleratorPage(f, machines)
	skuPages(f, rates)
	return f.WriteManifest(replay.Manifest{
		Provider: "gcp", Real: replay.RealAll, Retrieved: retrieved,
		Sources: []string{priceSource, shapeSource},
		Notes: []string{
			"Machine types: every a2, a3 and a4 row of SkyPilot's catalog, in the zones it lists them, with its vCPUs and memory (memoryMb is GiB times 1,024) and the accelerators Google's GPU documentation gives each series; accelerator descriptions are the documentation's names. The g2 (L4) and n1 rows were not copied, so those types are not listed.",
			"Prices: SkyPilot gives each machine type's machine part and each GPU count's part per zone; the billing catalog gives per-unit SKUs per region. The GPU SKU is the part divided by the count. The series' core and RAM SKUs are solved from two machine types of the series with different memory per vCPU (A2: a2-highgpu and a2-ultragpu); where every type of a series has the same memory per vCPU the source cannot tell core from RAM, and the fixture prices the machine part by the core SKU with a RAM SKU of 0. Each rate is rounded to the nano (the API's precision) and reproduces SkyPilot's machine part to 0.00001 USD (checked).",
			"A4 (B200) has a price of 0 in the source: no machine SKU is written, so A4 types have no offer. H100 and H100 Mega GPU prices differ between regions as the source has them. A blank SpotPrice is no spot SKU.",
			"SKU ids, names and the descriptions' place words (the region id, where the API names a geography) are the fixture's own; the source gives no dates, so the offers' observed date stays unknown.",
		},
	})
}

// machineRates writes each series' core and RAM SKUs per region, on demand
// and spot, from the machine types' machine parts (one zone per region: the
// zones of a region must agree).
func machineRates(machines []machine, rates map[key]rate) error {
	type point struct {
		v, m, p decimal.Decimal
		name    string
	}
	groups := map[key][]point{}
	seen := map[string]string{}
	for _, m := range machines {
		for _, spot := range []bool{false, true} {
			p := m.price
			if spot {
				p = m.spot
			}
			id := fmt.Sprintf("%s/%s/%v", m.name, m.region, spot)
			if prev, ok := seen[id]; ok {
				if prev != p {
					return fmt.Errorf("%s: zones disagree (%s, %s)", id, prev, p)
				}
				continue
			}
			seen[id] = p
			d, err := decimal.NewFromString(p)
			if err != nil || !d.IsPositive() {
				continue // blank or 0: no price
			}
			k := key{gcp.SeriesSKU(m.name), m.region, spot}
			groups[k] = append(groups[k], point{m.vcpus, m.memGiB, d, m.name})
		}
	}
	tolerance := decimal.New(1, -5)
	for k, pts := range groups {
		// The largest types first: their parts carry the most digits.
		slices.SortStableFunc(pts, func(a, b point) int { return b.v.Cmp(a.v) })
		var core, ram decimal.Decimal
		var other *point
		for i := range pts {
			if !pts[i].m.Mul(pts[0].v).Equal(pts[0].m.Mul(pts[i].v)) {
				other = &pts[i]
				break
			}
		}
		if other == nil {
			core = pts[0].p.Div(pts[0].v).Round(9)
		} else {
			a := pts[0]
			ram = other.p.Mul(a.v).Sub(a.p.Mul(other.v)).Div(other.m.Mul(a.v).Sub(a.m.Mul(other.v))).Round(9)
			core = a.p.Sub(ram.Mul(a.m)).Div(a.v).Round(9)
		}
		for _, p := range pts {
			if got := core.Mul(p.v).Add(ram.Mul(p.m)); got.Sub(p.p).Abs().GreaterThan(tolerance) {
				return fmt.Errorf("%s in %s (spot %v): core %s and RAM %s give %s, the source %s", p.name, k.region, k.spot, core, ram, got, p.p)
			}
		}
		rates[key{k.words + " Instance Core", k.region, k.spot}] = rate{"CPU", "h", core}
		rates[key{k.words + " Instance Ram", k.region, k.spot}] = rate{"RAM", "GiBy.h", ram}
	}
	return nil
}

// gpuRates writes each GPU's SKU per region, on demand and spot, from the
// GPU rows: the part of the largest count, divided by it; the other counts
// must agree to 0.00001 USD a GPU.
func gpuRates(machines []machine, rows []fixture.Row, rates map[key]rate) error {
	used := map[string]string{} // SkyPilot name -> accelerator type
	for _, m := range machines {
		used[attached[m.acc].skypilot] = attached[m.acc].accType
	}
	type best struct {
		count int
		each  decimal.Decimal
		row   fixture.Row
	}
	chosen := map[key]best{}
	for _, r := range rows {
		accType, ok := used[r.Get("AcceleratorName")]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(r.Get("AcceleratorCount"))
		if err != nil || n <= 0 || !strings.HasPrefix(r.Get("AvailabilityZone"), r.Get("Region")+"-") {
			return r.Errorf("count %q or zone %q", r.Get("AcceleratorCount"), r.Get("AvailabilityZone"))
		}
		for _, spot := range []bool{false, true} {
			p := r.Get("Price")
			if spot {
				p = r.Get("SpotPrice")
			}
			d, err := decimal.NewFromString(p)
			if err != nil || !d.IsPositive() {
				continue
			}
			k := key{gcp.AcceleratorSKU(accType), r.Get("Region"), spot}
			each := d.Div(decimal.NewFromInt(int64(n))).Round(9)
			b, ok := chosen[k]
			switch {
			case !ok || n > b.count:
				chosen[k] = best{n, each, r}
			case each.Sub(b.each).Abs().GreaterThan(decimal.New(1, -5)):
				return r.Errorf("%s x%d in %s (spot %v): %s a GPU, but %s at x%d", r.Get("AcceleratorName"), n, r.Get("AvailabilityZone"), spot, each, b.each, b.count)
			}
		}
	}
	for k, b := range chosen {
		rates[k] = rate{"GPU", "h", b.each}
	}
	return nil
}

// machinePages writes the machine types' aggregated list, a page per
// zonesPerPage zones.
func machinePages(f *fixture.Folder, machines []machine) {
	byZone := map[string][]machine{}
	for _, m := range machines {
		byZone[m.zone] = append(byZone[m.zone], m)
	}
	zones := keys(byZone)
	pages(len(zones), zonesPerPage, func(page, start, end int, next string) {
		items := map[string]any{}
		for _, z := range zones[start:end] {
			ms := byZone[z]
			slices.SortFunc(ms, func(a, b machine) int { return strings.Compare(a.name, b.name) })
			var list []map[string]any
			for _, m := range ms {
				mb := m.memGiB.Mul(decimal.NewFromInt(1024)).IntPart()
				a := attached[m.acc]
				list = append(list, map[string]any{
					"kind": "compute#machineType", "id": id("machine " + m.name + " " + z), "creationTimestamp": "1969-12-31T16:00:00.000-08:00",
					"name": m.name, "description": fmt.Sprintf("%s vCPUs, %s GB RAM, %d GPU", m.vcpus, m.memGiB, m.count),
					"guestCpus": m.vcpus.IntPart(), "memoryMb": mb, "imageSpaceGb": 0, "maximumPersistentDisks": 128,
					"maximumPersistentDisksSizeGb": "263168", "zone": z, "isSharedCpu": false,
					"selfLink":     "https://www.googleapis.com/compute/v1/projects/" + project + "/zones/" + z + "/machineTypes/" + m.name,
					"accelerators": []map[string]any{{"guestAcceleratorType": a.accType, "guestAcceleratorCount": m.count}},
				})
			}
			items["zones/"+z] = map[string]any{"machineTypes": list}
		}
		body := map[string]any{"kind": "compute#machineTypeAggregatedList", "id": "projects/" + project + "/aggregated/machineTypes",
			"items": items, "selfLink": "https://www.googleapis.com/compute/v1/projects/" + project + "/aggregated/machineTypes"}
		if next != "" {
			body["nextPageToken"] = next
		}
		f.Add(replay.Exchange{Service: "compute", Action: "GET /compute/v1/projects/{project}/aggregated/machineTypes",
			Params: map[string]string{"pageToken": token(page)}, Body: f.JSON(fmt.Sprintf("compute/machine-types-%d.json", page), body)})
	})
}

// acceleratorPage writes the accelerator types' aggregated list: in each
// zone, the types its machine types carry.
func acceleratorPage(f *fixture.Folder, machines []machine) {
	byZone := map[string]map[int]int{}
	for _, m := range machines {
		if byZone[m.zone] == nil {
			byZone[m.zone] = map[int]int{}
		}
		byZone[m.zone][m.acc] = max(byZone[m.zone][m.acc], m.count)
	}
	items := map[string]any{}
	for _, z := range keys(byZone) {
		var list []map[string]any
		seen := map[string]bool{}
		for _, i := range keys(byZone[z]) {
			a := attached[i]
			if seen[a.accType] {
				continue
			}
			seen[a.accType] = true
			list = append(list, map[string]any{"kind": "compute#acceleratorType", "id": id("accelerator " + a.accType + " " + z),
				"creationTimestamp": "1969-12-31T16:00:00.000-08:00", "name": a.accType, "description": a.description, "zone": z,
				"maximumCardsPerInstance": byZone[z][i],
				"selfLink":                "https://www.googleapis.com/compute/v1/projects/" + project + "/zones/" + z + "/acceleratorTypes/" + a.accType})
		}
		items["zones/"+z] = map[string]any{"acceleratorTypes": list}
	}
	f.Add(replay.Exchange{Service: "compute", Action: "GET /compute/v1/projects/{project}/aggregated/acceleratorTypes",
		Params: map[string]string{"pageToken": ""}, Body: f.JSON("compute/accelerator-types-1.json", map[string]any{
			"kind": "compute#acceleratorTypeAggregatedList", "id": "projects/" + project + "/aggregated/acceleratorTypes", "items": items})})
}

// skuPages writes the billing catalog's Compute SKUs, skusPerPage a page.
func skuPages(f *fixture.Folder, rates map[key]rate) {
	ks := make([]key, 0, len(rates))
	for k := range rates {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b key) int {
		return strings.Compare(fmt.Sprintf("%s|%s|%v", a.region, a.words, a.spot), fmt.Sprintf("%s|%s|%v", b.region, b.words, b.spot))
	})
	pages(len(ks), skusPerPage, func(page, start, end int, next string) {
		var skus []map[string]any
		for _, k := range ks[start:end] {
			r := rates[k]
			desc, usage := k.words+" running in "+k.region, "OnDemand"
			if k.spot {
				desc, usage = "Spot Preemptible "+desc, "Preemptible"
			}
			skuID := skuID(desc)
			units := r.price.Truncate(0)
			nanos := r.price.Sub(units).Shift(9).IntPart()
			unitDesc := map[string]string{"h": "hour", "GiBy.h": "gibibyte hour"}[r.unit]
			baseUnit := map[string]string{"h": "s", "GiBy.h": "By.s"}[r.unit]
			skus = append(skus, map[string]any{
				"name": "services/" + service + "/skus/" + skuID, "skuId": skuID, "description": desc,
				"category": map[string]string{"serviceDisplayName": "Compute Engine", "resourceFamily": "Compute",
					"resourceGroup": r.group, "usageType": usage},
				"serviceRegions": []string{k.region},
				"pricingInfo": []map[string]any{{"summary": "", "currencyConversionRate": 1,
					"pricingExpression": map[string]any{"usageUnit": r.unit, "displayQuantity": 1, "usageUnitDescription": unitDesc,
						"baseUnit": baseUnit, "tieredRates": []map[string]any{{"startUsageAmount": 0,
							"unitPrice": map[string]any{"currencyCode": "USD", "units": units.String(), "nanos": nanos}}}}}},
				"serviceProviderName": "Google",
				"geoTaxonomy":         map[string]any{"type": "REGIONAL", "regions": []string{k.region}},
			})
		}
		body := map[string]any{"skus": skus, "nextPageToken": next}
		f.Add(replay.Exchange{Service: "billing", Action: "GET /v1/services/" + service + "/skus",
			Params: map[string]string{"pageToken": token(page), "currencyCode": "USD"}, Body: f.JSON(fmt.Sprintf("billing/skus-%d.json", page), body)})
	})
}

// pages calls write for each page of n items, size a page, with the token of
// the page after it ("" for the last).
func pages(n, size int, write func(page, start, end int, next string)) {
	for page, start := 1, 0; start < n; page, start = page+1, start+size {
		end := min(start+size, n)
		next := ""
		if end < n {
			next = token(page + 1)
		}
		write(page, start, end, next)
	}
}

// token is a page's token: "" for the first.
func token(page int) string {
	if page == 1 {
		return ""
	}
	return "page-" + strconv.Itoa(page)
}

// id is a record's numeric id, stable for its seed.
func id(seed string) string {
	h := sha256.Sum256([]byte(seed))
	n := uint64(0)
	for _, b := range h[:7] {
		n = n<<8 | uint64(b)
	}
	return strconv.FormatUint(n, 10)
}

// skuID is a SKU id in the catalog's shape (XXXX-XXXX-XXXX), stable for its
// description.
func skuID(desc string) string {
	h := fmt.Sprintf("%X", sha256.Sum256([]byte(desc)))
	return h[0:4] + "-" + h[4:8] + "-" + h[8:12]
}

func keys[K ~string | ~int, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
