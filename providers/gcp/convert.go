package gcp

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"
	"google.golang.org/api/compute/v1"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Sources named in the catalog records this adapter produces, and the API
// actions of its errors.
const (
	sourceMachineTypes = "gcp:compute:machineTypes.aggregatedList"
	sourceSKUs         = "gcp:cloudbilling:services.skus.list"
	sourceSpotSKUs     = "gcp:cloudbilling:services.skus.list Spot Preemptible"

	actionMachineTypes     = "machineTypes.aggregatedList"
	actionAcceleratorTypes = "acceleratorTypes.aggregatedList"
	actionSKUs             = "services.skus.list"
)

// machineInfo is one GPU machine type in one region: its catalog record, its
// zones, and what its price is made of.
type machineInfo struct {
	instance   catalog.InstanceType
	placements []catalog.Placement
	series     string // the words of its core and RAM SKUs (SeriesSKU)
	accType    string // its accelerator type name
	accCount   int
}

// acceleratorNames maps accelerator type names to their descriptions
// ("nvidia-tesla-a100" -> "NVIDIA A100 40GB"), the names the catalog shows.
func acceleratorNames(pairs acceleratorPage) map[string]string {
	out := map[string]string{}
	for _, p := range pairs {
		for _, t := range p.types {
			if t == nil {
				continue
			}
			if name, d := t.Name, strings.TrimSpace(t.Description); name != "" && d != "" {
				out[name] = d
			}
		}
	}
	return out
}

// machineTypes turns the machine types' aggregated list into the GPU machine
// types of each region, with a placement per zone: a machine type with one
// kind of accelerator attached. The same type listed in several zones of a
// region is one record; a type whose vCPUs, memory or accelerators differ
// between zones keeps the first zone's (zones in order).
func machineTypes(pairs machinePage, names map[string]string) map[string][]machineInfo {
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].key < pairs[j].key })
	byRegion := map[string]map[string]*machineInfo{}
	for _, p := range pairs {
		zone, ok := strings.CutPrefix(p.key, "zones/")
		if !ok {
			continue
		}
		region := regionOf(zone)
		for _, mt := range p.types {
			if mt == nil {
				continue
			}
			info, ok := machine(mt, names)
			if !ok {
				continue
			}
			if byRegion[region] == nil {
				byRegion[region] = map[string]*machineInfo{}
			}
			have := byRegion[region][info.instance.ID]
			if have == nil {
				have = &info
				byRegion[region][info.instance.ID] = have
			}
			have.placements = append(have.placements, catalog.Placement{Provider: catalog.GCP, InstanceType: info.instance.ID,
				Region: region, Zone: zone, Status: catalog.Available})
		}
	}
	out := map[string][]machineInfo{}
	for region, types := range byRegion {
		for _, m := range types {
			out[region] = append(out[region], *m)
		}
		sort.Slice(out[region], func(i, j int) bool { return out[region][i].instance.ID < out[region][j].instance.ID })
	}
	return out
}

// machine is one machine type's catalog record; false for a type without
// exactly one kind of accelerator, of a series the billing catalog prices
// (SeriesSKU), or deprecated.
func machine(mt *compute.MachineType, names map[string]string) (machineInfo, bool) {
	name := strings.TrimSpace(mt.Name)
	series := SeriesSKU(name)
	if series == "" || len(mt.Accelerators) != 1 || mt.Accelerators[0] == nil || (mt.Deprecated != nil && mt.Deprecated.State != "") {
		return machineInfo{}, false
	}
	acc := mt.Accelerators[0]
	accType, count := acc.GuestAcceleratorType, int(acc.GuestAcceleratorCount)
	if accType == "" || count <= 0 || mt.GuestCpus <= 0 || mt.MemoryMb <= 0 {
		return machineInfo{}, false
	}
	display := names[accType]
	if display == "" {
		display = accType
	}
	a := catalog.Accelerator{Kind: catalog.KindGPU, Name: display, Manufacturer: "NVIDIA", Count: count, Share: decimal.NewFromInt(1)}
	source := sourceMachineTypes
	if known, ok := accelerators[accType]; ok {
		a.Model, a.MappingConfidence = known.model, "certain"
		source += "; GPU model of " + accType + " by " + docGPUs + " (" + docDate + ")"
	}
	it := catalog.InstanceType{
		Provider:     catalog.GCP,
		ID:           name,
		Family:       strings.Join(strings.SplitN(name, "-", 3)[:2], "-"),
		VCPUs:        int(mt.GuestCpus),
		MemoryGiB:    decimal.NewFromInt(mt.MemoryMb).Div(decimal.NewFromInt(1024)),
		CPUArch:      "x86_64",
		Accelerators: []catalog.Accelerator{a},
		Generation:   "current",
		Source:       source,
	}
	return machineInfo{instance: it, series: series, accType: accType, accCount: count}, true
}

// regionOf is a zone's region: the zone without its last part
// ("us-central1-a" -> "us-central1").
func regionOf(zone string) string {
	if i := strings.LastIndexByte(zone, '-'); i > 0 {
		return zone[:i]
	}
	return zone
}
