package huawei

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	ecsmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2/model"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Sources named in the catalog records this adapter produces.
const (
	sourceFlavors  = "huawei:ecs:ListFlavors"
	sourceOnDemand = "huawei:bss:ListOnDemandResourceRatings"
	sourcePeriod   = "huawei:bss:ListRateOnPeriodDetail"
)

// flavorInfo is a GPU flavor as the crawl uses it: the catalog record, its zones,
// and which billing modes the flavor is sold with.
type flavorInfo struct {
	instance     catalog.InstanceType
	placements   []catalog.Placement
	zones        []string // zones where it can be bought now
	availability catalog.Availability
	onDemand     bool
	period       bool
}

// convertFlavor turns one ListFlavors record into a GPU instance type with its
// placements; ok is false for a flavor without accelerators or one withdrawn from
// sale (abandon) everywhere in the region.
func convertFlavor(f flavor, region string) (flavorInfo, bool) {
	specs := f.OsExtraSpecs
	if specs == nil {
		specs = &ecsmodel.FlavorExtraSpec{}
	}
	perf := str(specs.Ecsperformancetype)
	if perf != "gpu" && perf != "ascend" {
		return flavorInfo{}, false
	}
	accs := accelerators(specs, perf)
	if len(accs) == 0 {
		return flavorInfo{}, false
	}
	vcpus, _ := strconv.Atoi(strings.TrimSpace(f.Vcpus))
	it := catalog.InstanceType{
		Provider:     catalog.Huawei,
		ID:           f.Id,
		Family:       family(f.Id, str(specs.Ecsgeneration)),
		VCPUs:        vcpus,
		MemoryGiB:    decimal.NewFromInt(int64(f.Ram)).Div(decimal.NewFromInt(1024)),
		CPUArch:      "x86_64",
		Accelerators: accs,
		Generation:   "current",
		Source:       sourceFlavors,
	}
	if str(specs.EcsinstanceArchitecture) == "arm64" {
		it.CPUArch = "arm64"
	}
	if mbps, err := decimal.NewFromString(str(specs.QuotamaxRate)); err == nil && mbps.IsPositive() {
		g := mbps.Div(decimal.NewFromInt(1000))
		it.NetworkGbps = &g
		it.Network = g.String() + " Gbit/s"
		if minMbps, err := decimal.NewFromString(str(specs.QuotaminRate)); err == nil && minMbps.IsPositive() {
			it.Network += " max, " + minMbps.Div(decimal.NewFromInt(1000)).String() + " Gbit/s assured"
		}
	}

	info := flavorInfo{instance: it}
	regionStatus := status(str(specs.Condoperationstatus))
	zoneStatus := parseZoneStatus(str(specs.Condoperationaz))
	zones := make([]string, 0, len(zoneStatus))
	for z := range zoneStatus {
		zones = append(zones, z)
	}
	sort.Strings(zones)
	anyAvailable, anySoldOut, anyListed := false, false, false
	for _, z := range zones {
		st, ok := zoneStatus[z]
		if !ok || st == "" {
			continue // abandon: not sold in this zone
		}
		anyListed = true
		info.placements = append(info.placements, catalog.Placement{Provider: catalog.Huawei, InstanceType: f.Id, Region: region, Zone: z, Status: st})
		switch st {
		case catalog.Available:
			anyAvailable = true
			info.zones = append(info.zones, z)
		case catalog.SoldOut:
			anySoldOut = true
		}
	}
	if !anyListed {
		// No zone is named: the region-level status holds for every zone.
		if regionStatus == "" {
			return flavorInfo{}, false
		}
		anyAvailable = regionStatus == catalog.Available
		anySoldOut = regionStatus == catalog.SoldOut
	}
	switch {
	case anyAvailable:
		info.availability = catalog.Available
	case anySoldOut:
		info.availability = catalog.SoldOut
	default:
		info.availability = catalog.Unknown
	}
	// cond:operation:charge lists the billing modes ("demand", "period"); absent
	// means both.
	charge := str(specs.Condoperationcharge)
	info.onDemand = charge == "" || strings.Contains(charge, "demand")
	info.period = charge == "" || strings.Contains(charge, "period")
	return info, true
}

// status maps a cond:operation status to an availability; "" means abandon
// (withdrawn, not shown). An absent region status means normal.
func status(s string) catalog.Availability {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "normal", "promotion":
		return catalog.Available
	case "sellout":
		return catalog.SoldOut
	case "abandon":
		return ""
	default: // obt (open beta, on application) and anything new
		return catalog.Unknown
	}
}

var zoneStatusRE = regexp.MustCompile(`([^\s,()]+)\(([^)]*)\)`)

// parseZoneStatus reads cond:operation:az, "cn-north-4a(normal),cn-north-4b(sellout)".
func parseZoneStatus(s string) map[string]catalog.Availability {
	out := map[string]catalog.Availability{}
	for _, m := range zoneStatusRE.FindAllStringSubmatch(s, -1) {
		if strings.TrimSpace(m[2]) == "" {
			continue // no status in the parentheses is an invalid entry per the API doc
		}
		out[m[1]] = status(m[2])
	}
	return out
}

func family(id, generation string) string {
	if generation != "" {
		return generation
	}
	fam, _, _ := strings.Cut(id, ".")
	return fam
}

// accelerators reads the flavor's devices, preferring the structured info:gpus /
// info:asic_accelerators, then info:gpu:name ("1 * NVIDIA V100 / 32 GiB"), then
// pci_passthrough:alias ("nvidia-a30:1") and pci_passthrough:gpu_specs
// ("m60_1q:virt:1"). Names are kept as the API gives them.
func accelerators(specs *ecsmodel.FlavorExtraSpec, perf string) []catalog.Accelerator {
	kind := catalog.KindGPU
	structured := str(specs.Infogpus)
	if perf == "ascend" {
		kind = catalog.KindNPU
		if s := str(specs.InfoasicAccelerators); s != "" {
			structured = s
		}
	}
	if accs := parseInfoDevices(structured, kind); len(accs) > 0 {
		return accs
	}
	if a, ok := parseGPUName(str(specs.Infogpuname), kind); ok {
		return []catalog.Accelerator{a}
	}
	for _, s := range []string{str(specs.PciPassthroughalias), str(specs.PciPassthroughgpuSpecs)} {
		if accs := parseAliasList(s, kind); len(accs) > 0 {
			return accs
		}
	}
	return nil
}

// parseInfoDevices reads info:gpus, a JSON list of {name, memory_mb, count}.
// Numbers may come as strings; a single object is accepted too.
func parseInfoDevices(s string, kind catalog.AcceleratorKind) []catalog.Accelerator {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	type device struct {
		Name     string      `json:"name"`
		MemoryMB json.Number `json:"memory_mb"`
		Count    json.Number `json:"count"`
	}
	var list []device
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		var one device
		if err := json.Unmarshal([]byte(s), &one); err != nil {
			return nil
		}
		list = []device{one}
	}
	var out []catalog.Accelerator
	for _, d := range list {
		n, _ := strconv.Atoi(d.Count.String())
		if d.Name == "" || n < 1 {
			continue
		}
		a := catalog.Accelerator{Kind: kind, Name: d.Name, Count: n}
		if mb, err := decimal.NewFromString(d.MemoryMB.String()); err == nil {
			a.MemoryGiB = mb.Div(decimal.NewFromInt(1024))
		}
		out = append(out, a)
	}
	return out
}

var gpuNameRE = regexp.MustCompile(`^\s*(\d+)\s*[*x×]\s*(.+?)\s*(?:/\s*([\d.]+)\s*(GiB|GB|G|MiB|MB))?\s*$`)

// parseGPUName reads info:gpu:name, "<count> * <name> / <memory per GPU> GiB".
func parseGPUName(s string, kind catalog.AcceleratorKind) (catalog.Accelerator, bool) {
	m := gpuNameRE.FindStringSubmatch(s)
	if m == nil {
		return catalog.Accelerator{}, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 {
		return catalog.Accelerator{}, false
	}
	a := catalog.Accelerator{Kind: kind, Name: m[2], Count: n}
	if m[3] != "" {
		mem, err := decimal.NewFromString(m[3])
		if err == nil {
			if strings.HasPrefix(m[4], "M") {
				mem = mem.Div(decimal.NewFromInt(1024))
			}
			a.MemoryGiB = mem
		}
	}
	return a, true
}

// parseAliasList reads "name:count[,name:count]" or "name:mode:count".
func parseAliasList(s string, kind catalog.AcceleratorKind) []catalog.Accelerator {
	var out []catalog.Accelerator
	for _, part := range strings.Split(s, ",") {
		fields := strings.Split(strings.TrimSpace(part), ":")
		if len(fields) < 2 || fields[0] == "" {
			continue
		}
		n, err := strconv.Atoi(fields[len(fields)-1])
		if err != nil || n < 1 {
			continue
		}
		out = append(out, catalog.Accelerator{Kind: kind, Name: fields[0], Count: n})
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
