package aws

import (
	"math"
	"strings"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// mib is the number of MiB in a GiB; AWS reports memory in MiB.
var mib = decimal.NewFromInt(1024)

// convertInstanceType turns one DescribeInstanceTypes record into a catalog
// instance type. ok is false for a type without any accelerator (GPU, Neuron,
// inference, FPGA or media), which the catalog does not list.
func convertInstanceType(info types.InstanceTypeInfo) (it catalog.InstanceType, ok bool) {
	id := string(info.InstanceType)
	accs := accelerators(info)
	if id == "" || len(accs) == 0 {
		return catalog.InstanceType{}, false
	}
	family, _, _ := strings.Cut(id, ".")
	it = catalog.InstanceType{
		Provider:     catalog.AWS,
		ID:           id,
		Family:       family,
		Accelerators: accs,
		Generation:   "previous",
		BareMetal:    awsv2.ToBool(info.BareMetal),
		Source:       sourceInstanceTypes,
	}
	if awsv2.ToBool(info.CurrentGeneration) {
		it.Generation = "current"
	}
	if v := info.VCpuInfo; v != nil {
		it.VCPUs = int(awsv2.ToInt32(v.DefaultVCpus))
	}
	if m := info.MemoryInfo; m != nil {
		it.MemoryGiB = mibToGiB(awsv2.ToInt64(m.SizeInMiB))
	}
	if pi := info.ProcessorInfo; pi != nil {
		it.CPUArch = cpuArch(pi.SupportedArchitectures)
		it.CPUVendor = awsv2.ToString(pi.Manufacturer)
	}
	if s := info.InstanceStorageInfo; s != nil {
		it.LocalStorageGB = int(awsv2.ToInt64(s.TotalSizeInGB))
		it.LocalNVMe = s.NvmeSupport == types.EphemeralNvmeSupportRequired || s.NvmeSupport == types.EphemeralNvmeSupportSupported
	}
	if n := info.NetworkInfo; n != nil {
		it.Network = awsv2.ToString(n.NetworkPerformance)
		for i, c := range n.NetworkCards {
			card := catalog.NetworkCard{Index: i, PeakGbps: gbps(c.PeakBandwidthInGbps), BaselineGbps: gbps(c.BaselineBandwidthInGbps)}
			if c.NetworkCardIndex != nil {
				card.Index = int(*c.NetworkCardIndex)
			}
			it.NetworkCards = append(it.NetworkCards, card)
		}
		it.NetworkGbps = instanceNetworkGbps(it.Network, it.NetworkCards)
		if awsv2.ToBool(n.EfaSupported) {
			it.RDMA = "efa"
			if e := n.EfaInfo; e != nil {
				it.EFAInterfaces = int(awsv2.ToInt32(e.MaximumEfaInterfaces))
			}
		}
	}
	return it, true
}

// instanceNetworkGbps is the instance's network bandwidth, all cards together.
// NetworkPerformance is AWS's figure for the whole instance ("3200 Gigabit",
// "4x 100 Gigabit", "Up to 25 Gigabit": its burst figure); a named class
// ("High", "Moderate") falls back to the sum of the cards' peak bandwidth. One
// card's peak is not the instance's: a p5.48xlarge has 32 cards of 100 Gbit/s.
// Where the cards do not add up to the published figure (p6-b200.48xlarge lists
// 8 cards of 200 against "3200 Gigabit"), the published figure wins; the cards
// are kept as listed.
func instanceNetworkGbps(published string, cards []catalog.NetworkCard) *decimal.Decimal {
	if g, ok := parseNetworkPerformance(published); ok {
		return &g
	}
	sum := decimal.Zero
	for _, c := range cards {
		sum = sum.Add(c.PeakGbps)
	}
	if !sum.IsPositive() {
		return nil
	}
	return &sum
}

// parseNetworkPerformance reads "[Up to ][Nx ]G Gigabit" as N × G Gbit/s.
func parseNetworkPerformance(s string) (decimal.Decimal, bool) {
	f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(s), "Up to "))
	if len(f) < 2 || len(f) > 3 || f[len(f)-1] != "Gigabit" {
		return decimal.Zero, false
	}
	times := decimal.NewFromInt(1)
	if len(f) == 3 {
		n, ok := strings.CutSuffix(f[0], "x")
		k, err := decimal.NewFromString(n)
		if !ok || err != nil || !k.IsPositive() {
			return decimal.Zero, false
		}
		times = k
	}
	g, err := decimal.NewFromString(f[len(f)-2])
	if err != nil || !g.IsPositive() || times.GreaterThanOrEqual(maxGbps) {
		return decimal.Zero, false
	}
	if total := g.Mul(times); total.LessThan(maxGbps) {
		return total, true
	}
	return decimal.Zero, false
}

// maxGbps bounds a bandwidth the catalog takes from the API: anything at or
// above it (or not a finite, non-negative number) is a broken answer and is
// recorded as unknown rather than carried into the snapshot, whose numbers
// must stay below 1e15.
var maxGbps = decimal.NewFromInt(1_000_000)

// gbps is a bandwidth the API gives as a float, as the shortest decimal; zero
// (unknown) when absent or implausible.
func gbps(f *float64) decimal.Decimal {
	if f == nil || math.IsNaN(*f) || math.IsInf(*f, 0) || *f < 0 || *f >= maxGbps.InexactFloat64() {
		return decimal.Zero
	}
	return decimal.NewFromFloat(*f)
}

// accelerators lists every device kind a type has. Model stays empty: the runner
// maps names through the GPU reference.
func accelerators(info types.InstanceTypeInfo) []catalog.Accelerator {
	var out []catalog.Accelerator
	one := decimal.NewFromInt(1)
	if g := info.GpuInfo; g != nil {
		for _, d := range g.Gpus {
			count := int(awsv2.ToInt32(d.Count))
			// A GPU is counted as AWS counts it: one per GPU die, so a
			// p2.16xlarge has 16 K80 GPUs (8 two-GPU boards) and a
			// g3.16xlarge 4 M60 GPUs. The GPU reference describes one such GPU
			// and records the board relation (gpus_per_board); a zero share
			// here is a whole GPU, set by the runner.
			var share decimal.Decimal
			// A partitioned GPU (g6f, gr6f) reports Count 0, the slice size as
			// GpuPartitionSize (0.125 = one eighth of an L4) and LogicalGpuCount 1:
			// the instance sees one device that is a share of a physical GPU.
			if ps := awsv2.ToFloat64(d.GpuPartitionSize); ps > 0 && ps < 1 {
				share = decimal.NewFromFloat(ps)
			}
			if logical := int(awsv2.ToInt32(d.LogicalGpuCount)); count == 0 && logical > 0 {
				count = logical
			}
			out = append(out, catalog.Accelerator{Kind: catalog.KindGPU, Name: awsv2.ToString(d.Name),
				Manufacturer: awsv2.ToString(d.Manufacturer), Count: count, Share: share, MemoryGiB: memoryGiB(d.MemoryInfo)})
		}
	}
	neuron := map[string]bool{}
	if n := info.NeuronInfo; n != nil {
		for _, d := range n.NeuronDevices {
			name := awsv2.ToString(d.Name)
			neuron[strings.ToLower(name)] = true
			// Neuron devices (Inferentia, Trainium) are AWS's own; the API gives
			// no manufacturer for them.
			out = append(out, catalog.Accelerator{Kind: catalog.KindNPU, Name: name, Manufacturer: "AWS",
				Count: int(awsv2.ToInt32(d.Count)), Share: one, MemoryGiB: memoryGiB(d.MemoryInfo)})
		}
	}
	if a := info.InferenceAcceleratorInfo; a != nil {
		for _, d := range a.Accelerators {
			name := awsv2.ToString(d.Name)
			// inf1 lists its Inferentia chips both here and under NeuronInfo; the
			// Neuron view is kept, so the chips are counted once.
			if neuron[strings.ToLower(name)] {
				continue
			}
			out = append(out, catalog.Accelerator{Kind: catalog.KindInference, Name: name, Manufacturer: awsv2.ToString(d.Manufacturer),
				Count: int(awsv2.ToInt32(d.Count)), Share: one, MemoryGiB: memoryGiB(d.MemoryInfo)})
		}
	}
	if f := info.FpgaInfo; f != nil {
		for _, d := range f.Fpgas {
			out = append(out, catalog.Accelerator{Kind: catalog.KindFPGA, Name: awsv2.ToString(d.Name), Manufacturer: awsv2.ToString(d.Manufacturer),
				Count: int(awsv2.ToInt32(d.Count)), Share: one, MemoryGiB: memoryGiB(d.MemoryInfo)})
		}
	}
	if m := info.MediaAcceleratorInfo; m != nil {
		for _, d := range m.Accelerators {
			out = append(out, catalog.Accelerator{Kind: catalog.KindMedia, Name: awsv2.ToString(d.Name), Manufacturer: awsv2.ToString(d.Manufacturer),
				Count: int(awsv2.ToInt32(d.Count)), Share: one, MemoryGiB: memoryGiB(d.MemoryInfo)})
		}
	}
	return out
}

// deviceMemory is a device's memory as EC2 describes it: the five device
// kinds' memory types are one struct (SizeInMiB) under five names.
type deviceMemory interface {
	*types.GpuDeviceMemoryInfo | *types.NeuronDeviceMemoryInfo | *types.InferenceDeviceMemoryInfo |
		*types.FpgaDeviceMemoryInfo | *types.MediaDeviceMemoryInfo
}

// memoryGiB is a device's memory in GiB (0, unknown, when the API gives none).
func memoryGiB[M deviceMemory](m M) decimal.Decimal {
	var mib int64
	if info := (*types.GpuDeviceMemoryInfo)(m); info != nil {
		mib = int64(awsv2.ToInt32(info.SizeInMiB))
	}
	return mibToGiB(mib)
}

// mibToGiB divides by 1024, which is exact in at most ten decimal places.
func mibToGiB(n int64) decimal.Decimal {
	return decimal.NewFromInt(n).DivRound(mib, 10)
}

// cpuArch picks the architecture a type is sold for: arm64 or x86_64 over the
// i386 that older x86 types also list.
func cpuArch(archs []types.ArchitectureType) string {
	for _, want := range []types.ArchitectureType{types.ArchitectureTypeArm64, types.ArchitectureTypeX8664} {
		for _, a := range archs {
			if a == want {
				return string(a)
			}
		}
	}
	if len(archs) > 0 {
		return string(archs[0])
	}
	return ""
}
