package volcengine

import (
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/volcengine/volcengine-go-sdk/service/ecs"
	"github.com/volcengine/volcengine-go-sdk/volcengine"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// Sources named in the catalog records this adapter produces.
const (
	sourceTypes        = "volcengine:ecs:DescribeInstanceTypes"
	sourcePayAsYouGo   = "volcengine:billing:QueryPriceForPayAsYouGo"
	sourceSubscription = "volcengine:billing:QueryPriceForSubscription"
	sourceSpot         = "volcengine:ecs:DescribeSpotPriceHistory"
)

var mib = decimal.NewFromInt(1024)

// convertInstanceType turns a DescribeInstanceTypes record into a catalog type;
// ok is false for a type without GPUs. Memory sizes are MiB in the API.
func convertInstanceType(t *ecs.InstanceTypeForDescribeInstanceTypesOutput) (catalog.InstanceType, bool) {
	if t == nil || t.Gpu == nil {
		return catalog.InstanceType{}, false
	}
	var accs []catalog.Accelerator
	for _, d := range t.Gpu.GpuDevices {
		if d == nil || volcengine.Int32Value(d.Count) < 1 {
			continue
		}
		a := catalog.Accelerator{Kind: catalog.KindGPU, Name: volcengine.StringValue(d.ProductName), Count: int(volcengine.Int32Value(d.Count))}
		if d.Memory != nil && d.Memory.Size != nil {
			a.MemoryGiB = decimal.NewFromInt(int64(*d.Memory.Size)).Div(mib)
		}
		if strings.HasPrefix(strings.ToUpper(a.Name), "NVIDIA") || strings.HasPrefix(a.Name, "Tesla") {
			a.Manufacturer = "NVIDIA"
		}
		accs = append(accs, a)
	}
	if len(accs) == 0 {
		return catalog.InstanceType{}, false
	}
	id := volcengine.StringValue(t.InstanceTypeId)
	it := catalog.InstanceType{
		Provider:     catalog.Volcengine,
		ID:           id,
		Family:       volcengine.StringValue(t.InstanceTypeFamily),
		CPUArch:      "x86_64",
		Accelerators: accs,
		Generation:   "current",
		Source:       sourceTypes,
	}
	if it.Family == "" {
		it.Family = id[:strings.LastIndex(id+".", ".")]
	}
	if p := t.Processor; p != nil {
		it.VCPUs = int(volcengine.Int32Value(p.Cpus))
		it.CPUVendor = providers.Vendor(volcengine.StringValue(p.Model))
	}
	if t.Memory != nil && t.Memory.Size != nil {
		it.MemoryGiB = decimal.NewFromInt(int64(*t.Memory.Size)).Div(mib)
	}
	if n := t.Network; n != nil && n.MaximumBandwidthMbps != nil {
		g := decimal.NewFromInt(int64(*n.MaximumBandwidthMbps)).Div(decimal.NewFromInt(1000))
		it.NetworkGbps = &g
		it.Network = g.String() + " Gbit/s"
	}
	if r := t.Rdma; r != nil && volcengine.Int32Value(r.RdmaNetworkInterfaces) > 0 {
		it.RDMA = "rdma"
	}
	for _, v := range t.LocalVolumes {
		if v != nil {
			it.LocalStorageGB += int(volcengine.Int32Value(v.Count) * volcengine.Int32Value(v.Size))
			if strings.Contains(strings.ToUpper(volcengine.StringValue(v.VolumeType)), "NVME") {
				it.LocalNVMe = true
			}
		}
	}
	return it, true
}

// convertPlacements reads DescribeAvailableResource: per zone, each instance
// type's status (Available or SoldOut), kept for the GPU types only.
func convertPlacements(resp *ecs.DescribeAvailableResourceOutput, region string, types map[string]catalog.InstanceType) []catalog.Placement {
	if resp == nil {
		return nil
	}
	var out []catalog.Placement
	for _, z := range resp.AvailableZones {
		if z == nil {
			continue
		}
		zone := volcengine.StringValue(z.ZoneId)
		for _, ar := range z.AvailableResources {
			if ar == nil || volcengine.StringValue(ar.Type) != "InstanceType" {
				continue
			}
			for _, sr := range ar.SupportedResources {
				if sr == nil {
					continue
				}
				id := volcengine.StringValue(sr.Value)
				if _, ok := types[id]; !ok {
					continue
				}
				out = append(out, catalog.Placement{Provider: catalog.Volcengine, InstanceType: id, Region: region, Zone: zone, Status: availability(volcengine.StringValue(sr.Status))})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

func availability(s string) catalog.Availability {
	switch strings.ToLower(s) {
	case "available":
		return catalog.Available
	case "soldout":
		return catalog.SoldOut
	}
	return catalog.Unknown
}

// money parses an amount the API gives as a decimal string.
func money(s *string) (decimal.Decimal, bool) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(strings.TrimSpace(*s))
	return d, err == nil
}

// floatMoney turns a price the API gives as a JSON number (decoded to float64 by
// the SDK) into the shortest decimal that prints the same, so 0.35 stays 0.35.
func floatMoney(f *float64) (decimal.Decimal, bool) {
	if f == nil {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(strconv.FormatFloat(*f, 'f', -1, 64))
	return d, err == nil
}
