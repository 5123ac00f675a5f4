package tencent

import (
	"fmt"
	"math"
	"strings"

	"github.com/shopspring/decimal"
	cvm "github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm/v20170312"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// convertInstanceType turns a DescribeZoneInstanceConfigInfos item into a
// catalog instance type.
//
// The accelerator name is the family's model id from the family table (an id
// the GPU reference resolves exactly), or the family itself when the table has
// no row, so that the runner reports it as unmapped. GpuCount is fractional
// for vGPU types (0.25 for a quarter T4): such a type sees one device with
// that share.
func (p *Adapter) convertInstanceType(it *cvm.InstanceTypeQuotaItem) catalog.InstanceType {
	fam := str(it.InstanceFamily)
	if fam == "" {
		fam, _, _ = strings.Cut(str(it.InstanceType), ".")
	}
	source := sourceConfigInfos
	acc := catalog.Accelerator{Kind: catalog.KindGPU, Name: fam, Count: 1, Share: decimal.NewFromInt(1)}
	if f, ok := p.families[familyKey(fam)]; ok && f.model != "" {
		acc.Name = f.model
		acc.Model = f.model
		acc.MappingConfidence = f.confidence
		source += fmt.Sprintf("; GPU model from family %s (data/%s, %s)", fam, familiesFile, f.confidence)
	} else {
		source += fmt.Sprintf("; the API names no GPU and family %s is not in data/%s", fam, familiesFile)
	}
	switch n := gpuCount(it); {
	case n > 0 && n < 1:
		acc.Share = decimal.NewFromFloat(n)
	case n >= 1:
		acc.Count = int(math.Round(n))
	}
	out := catalog.InstanceType{
		Provider:     catalog.Tencent,
		ID:           str(it.InstanceType),
		Family:       fam,
		Accelerators: []catalog.Accelerator{acc},
		Generation:   "current",
		CPUArch:      "x86_64",
		CPUVendor:    providers.Vendor(str(it.CpuType)),
		Source:       source,
	}
	if it.Cpu != nil {
		out.VCPUs = int(*it.Cpu)
	}
	if it.Memory != nil {
		out.MemoryGiB = decimal.NewFromInt(*it.Memory)
	}
	if it.InstanceBandwidth != nil && *it.InstanceBandwidth > 0 {
		g := decimal.NewFromFloat(*it.InstanceBandwidth) // Gbit/s
		out.NetworkGbps = &g
		out.Network = g.String() + " Gbit/s"
	}
	if strings.HasPrefix(fam, "HCC") {
		out.BareMetal = true
		out.RDMA = "rdma"
	}
	return out
}

func gpuCount(it *cvm.InstanceTypeQuotaItem) float64 {
	if it.GpuCount != nil && *it.GpuCount > 0 {
		return *it.GpuCount
	}
	if it.Gpu != nil {
		return float64(*it.Gpu)
	}
	return 0
}
