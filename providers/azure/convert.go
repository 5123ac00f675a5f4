package azure

import (
	"sort"
	"strconv"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v6"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Sources named in the catalog records this adapter produces.
const (
	sourceSKUs        = "azure:compute:ResourceSKUs"
	sourcePrices      = "azure:retail-prices:Consumption"
	sourceSpot        = "azure:retail-prices:Consumption Spot"
	sourceSavingsPlan = "azure:retail-prices:savingsPlan"
	sourceReservation = "azure:retail-prices:Reservation"

	actionSKUs   = "ResourceSKUs.List"
	actionPrices = "RetailPrices"
)

// sizeInfo is one GPU size in one region: its catalog record and its zones.
type sizeInfo struct {
	region     string
	instance   catalog.InstanceType
	placements []catalog.Placement
}

// convertSKU turns one Resource SKUs record into a GPU size per location it
// is offered in; none for a record that is not a virtual machine size or has
// no accelerator. A location or zone the SKU is restricted in for the
// subscription (restrictions) is sold out to it.
func convertSKU(s *armcompute.ResourceSKU) []sizeInfo {
	if s == nil || !strings.EqualFold(str(s.ResourceType), "virtualMachines") {
		return nil
	}
	name := strings.TrimSpace(str(s.Name))
	caps := map[string]string{}
	for _, c := range s.Capabilities {
		if c != nil {
			caps[str(c.Name)] = strings.TrimSpace(str(c.Value))
		}
	}
	apiGPUs, _ := strconv.Atoi(caps["GPUs"])
	ser, known := seriesOf(name)
	if !known && apiGPUs <= 0 {
		return nil
	}
	acc := catalog.Accelerator{Kind: catalog.KindGPU, Name: "GPU (" + name + ")", Count: apiGPUs, Share: decimal.NewFromInt(1)}
	source := sourceSKUs
	if known {
		count, share, ok := ser.devices(name, apiGPUs)
		if !ok {
			return nil
		}
		acc = catalog.Accelerator{Kind: ser.kind, Name: ser.name, Manufacturer: ser.vendor, Model: ser.model,
			Count: count, Share: share, MemoryGiB: ser.deviceMemory(name)}
		if ser.model != "" {
			acc.MappingConfidence = "certain"
		}
		source += "; device from the size name by " + docSeries + ser.page + " (" + docDate + ")"
	}
	vcpus, _ := strconv.Atoi(caps["vCPUs"])
	mem, err := decimal.NewFromString(caps["MemoryGB"])
	if err != nil {
		mem = decimal.Zero
	}
	it := catalog.InstanceType{
		Provider:     catalog.Azure,
		ID:           name,
		Family:       str(s.Family),
		VCPUs:        vcpus,
		MemoryGiB:    mem,
		CPUArch:      cpuArch(caps["CpuArchitectureType"]),
		Accelerators: []catalog.Accelerator{acc},
		Generation:   "current",
		Source:       source,
	}
	if strings.EqualFold(caps["RdmaEnabled"], "True") {
		it.RDMA = "rdma"
	}
	restricted, restrictedZones := restrictions(s)
	var out []sizeInfo
	seen := map[string]bool{}
	for _, li := range s.LocationInfo {
		if li == nil {
			continue
		}
		region := strings.ToLower(str(li.Location))
		if region == "" || seen[region] {
			continue
		}
		seen[region] = true
		info := sizeInfo{region: region, instance: it}
		zones := make([]string, 0, len(li.Zones))
		for _, z := range li.Zones {
			if z != nil && *z != "" {
				zones = append(zones, *z)
			}
		}
		sort.Strings(zones)
		status := func(zone string) catalog.Availability {
			if restricted[region] || restrictedZones[region+"/"+zone] {
				return catalog.SoldOut
			}
			return catalog.Available
		}
		if len(zones) == 0 {
			info.placements = append(info.placements, catalog.Placement{Provider: catalog.Azure, InstanceType: name, Region: region, Status: status("")})
		}
		for _, z := range zones {
			info.placements = append(info.placements, catalog.Placement{Provider: catalog.Azure, InstanceType: name, Region: region,
				Zone: region + "-" + z, Status: status(z)})
		}
		out = append(out, info)
	}
	// A record without locationInfo names its locations only.
	for _, l := range s.Locations {
		region := strings.ToLower(str(l))
		if region == "" || seen[region] {
			continue
		}
		seen[region] = true
		st := catalog.Available
		if restricted[region] {
			st = catalog.SoldOut
		}
		out = append(out, sizeInfo{region: region, instance: it,
			placements: []catalog.Placement{{Provider: catalog.Azure, InstanceType: name, Region: region, Status: st}}})
	}
	return out
}

// restrictions reads a SKU's restrictions for the subscription: whole
// locations (type Location) and zones (type Zone, as "region/zone").
func restrictions(s *armcompute.ResourceSKU) (locations, zones map[string]bool) {
	locations, zones = map[string]bool{}, map[string]bool{}
	for _, r := range s.Restrictions {
		if r == nil || r.Type == nil {
			continue
		}
		switch *r.Type {
		case armcompute.ResourceSKURestrictionsTypeLocation:
			for _, v := range r.Values {
				locations[strings.ToLower(str(v))] = true
			}
		case armcompute.ResourceSKURestrictionsTypeZone:
			if r.RestrictionInfo == nil {
				continue
			}
			for _, l := range r.RestrictionInfo.Locations {
				for _, z := range r.RestrictionInfo.Zones {
					zones[strings.ToLower(str(l))+"/"+str(z)] = true
				}
			}
		}
	}
	return locations, zones
}

// cpuArch maps the CpuArchitectureType capability (x64, Arm64).
func cpuArch(s string) string {
	switch strings.ToLower(s) {
	case "x64":
		return "x86_64"
	case "arm64":
		return "arm64"
	}
	return ""
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
