package alibaba

import (
	"fmt"
	"strings"

	"github.com/aliyun/alibaba-cloud-sdk-go/services/ecs"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/providers"
)

// convertInstanceType turns a DescribeInstanceTypes record into a catalog
// instance type; ok is false for a record without an id or an accelerator.
//
// The accelerator name is GPUSpec as the API returns it ("NVIDIA A10",
// "NVIDIA A10*1/12", "H", "L20N 48G"); the runner maps it to a GPU model
// through data/gpu_aliases.csv, which also carries the share of vGPU slices,
// so Share stays zero here. GPUMemorySize is per GPU (GiB).
func convertInstanceType(t ecs.InstanceType) (catalog.InstanceType, bool) {
	id := t.InstanceTypeId
	if id == "" || t.GPUAmount <= 0 {
		return catalog.InstanceType{}, false
	}
	name := strings.TrimSpace(t.GPUSpec)
	acc := catalog.Accelerator{
		Kind:         acceleratorKind(t.InstanceTypeFamily, name),
		Name:         name,
		Manufacturer: providers.Vendor(name),
		Count:        t.GPUAmount,
	}
	if t.GPUMemorySize > 0 {
		acc.MemoryGiB = decimal.NewFromFloat(t.GPUMemorySize)
	}
	it := catalog.InstanceType{
		Provider:     catalog.Alibaba,
		ID:           id,
		Family:       t.InstanceTypeFamily,
		VCPUs:        t.CpuCoreCount,
		MemoryGiB:    decimal.NewFromFloat(t.MemorySize),
		CPUArch:      cpuArch(t.CpuArchitecture),
		Accelerators: []catalog.Accelerator{acc},
		// The API lists the types it sells; it has no retired flag.
		Generation: "current",
		BareMetal:  strings.HasPrefix(t.InstanceTypeFamily, "ecs.ebm"),
		Source:     sourceInstanceTypes,
	}
	if t.InstanceBandwidthRx > 0 {
		// InstanceBandwidthRx is in Kbit/s.
		g := decimal.NewFromInt(int64(t.InstanceBandwidthRx)).Div(decimal.NewFromInt(1_000_000))
		it.NetworkGbps = &g
		it.Network = fmt.Sprintf("%s Gbit/s", g.String())
	}
	if t.EriQuantity > 0 {
		it.RDMA = "eRDMA"
	}
	if t.LocalStorageAmount > 0 && t.LocalStorageCapacity > 0 {
		it.LocalStorageGB = t.LocalStorageAmount * int(t.LocalStorageCapacity)
		it.LocalNVMe = strings.Contains(t.LocalStorageCategory, "nvme")
	}
	return it, true
}

func acceleratorKind(family, name string) catalog.AcceleratorKind {
	n := strings.ToLower(name)
	if strings.HasPrefix(family, "ecs.f") || strings.Contains(n, "xilinx") || strings.Contains(n, "fpga") {
		return catalog.KindFPGA
	}
	return catalog.KindGPU
}

func cpuArch(a string) string {
	switch strings.ToUpper(a) {
	case "X86":
		return "x86_64"
	case "ARM":
		return "arm64"
	}
	return strings.ToLower(a)
}
