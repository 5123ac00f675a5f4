package aws

import (
	"testing"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// TestConvertInstanceType_Replay checks the conversion of real records as the SDK
// decodes them from the recorded us-west-2 answers.
func TestConvertInstanceType_Replay(t *testing.T) {
	srv := harness.Start(t)
	d := crawlRegion(t, srv, "us-west-2")
	byID := map[string]catalog.InstanceType{}
	for _, it := range d.Instances {
		byID[it.ID] = it
	}
	acc := func(kind catalog.AcceleratorKind, name, maker string, count int, share, mem string) catalog.Accelerator {
		return catalog.Accelerator{Kind: kind, Name: name, Manufacturer: maker, Count: count, Share: catalog.Dec(share), MemoryGiB: catalog.Dec(mem)}
	}
	tests := []struct {
		id   string
		want []catalog.Accelerator
	}{
		{"p5.48xlarge", []catalog.Accelerator{acc(catalog.KindGPU, "H100", "NVIDIA", 8, "1", "80")}},
		// Partitioned L4: Count 0 in the API, one logical GPU that is an eighth
		// (g6f.large) or half (gr6f.4xlarge) of the device.
		{"g6f.large", []catalog.Accelerator{acc(catalog.KindGPU, "L4", "NVIDIA", 1, "0.125", "2.7939453125")}},
		{"gr6f.4xlarge", []catalog.Accelerator{acc(catalog.KindGPU, "L4", "NVIDIA", 1, "0.5", "11.17578125")}},
		{"trn1.32xlarge", []catalog.Accelerator{acc(catalog.KindNPU, "Trainium", "AWS", 16, "1", "32")}},
		// inf1 and inf2 list their chips under both NeuronInfo and
		// InferenceAcceleratorInfo: counted once, as Neuron devices.
		{"inf2.xlarge", []catalog.Accelerator{acc(catalog.KindNPU, "Inferentia2", "AWS", 1, "1", "32")}},
		{"inf1.xlarge", []catalog.Accelerator{acc(catalog.KindNPU, "Inferentia", "AWS", 1, "1", "8")}},
		{"dl2q.24xlarge", []catalog.Accelerator{acc(catalog.KindInference, "Qualcomm AI100", "Qualcomm", 8, "1", "15.625")}},
		{"f2.6xlarge", []catalog.Accelerator{acc(catalog.KindFPGA, "Virtex UltraScale+ (VU47P)", "Xilinx", 1, "1", "80")}},
		{"vt1.3xlarge", []catalog.Accelerator{acc(catalog.KindMedia, "U30", "Xilinx", 1, "1", "24")}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			it, ok := byID[tc.id]
			if !ok {
				t.Fatalf("%s not crawled", tc.id)
			}
			if diff := cmp.Diff(tc.want, it.Accelerators); diff != "" {
				t.Errorf("accelerators (-want +got):\n%s", diff)
			}
		})
	}

	gbps := catalog.Dec("100")
	want := catalog.InstanceType{
		Provider: catalog.AWS, ID: "p5.48xlarge", Family: "p5", VCPUs: 192, MemoryGiB: catalog.Dec("2048"),
		CPUArch: "x86_64", CPUVendor: "AMD", Accelerators: tests[0].want,
		LocalStorageGB: 30400, LocalNVMe: true, Network: "3200 Gigabit", NetworkGbps: &gbps, RDMA: "efa",
		Generation: "current", Source: "aws:ec2:DescribeInstanceTypes",
	}
	if diff := cmp.Diff(want, byID["p5.48xlarge"]); diff != "" {
		t.Errorf("p5.48xlarge (-want +got):\n%s", diff)
	}
	if g := byID["g5g.xlarge"]; g.CPUArch != "arm64" || g.CPUVendor != "AWS" {
		t.Errorf("g5g.xlarge arch %q vendor %q, want arm64 AWS", g.CPUArch, g.CPUVendor)
	}
	// As the API says: g2 is a previous generation, the retired p3 still current.
	if g2, p3 := byID["g2.2xlarge"], byID["p3.2xlarge"]; g2.Generation != "previous" || p3.Generation != "current" {
		t.Errorf("g2.2xlarge generation %q, p3.2xlarge %q; want previous, current", g2.Generation, p3.Generation)
	}
}

func TestConvertInstanceType_Edges(t *testing.T) {
	tests := []struct {
		name   string
		info   types.InstanceTypeInfo
		wantOK bool
		want   catalog.InstanceType
	}{
		{"no accelerator", types.InstanceTypeInfo{InstanceType: "m5.large", VCpuInfo: &types.VCpuInfo{DefaultVCpus: awsv2.Int32(2)}}, false, catalog.InstanceType{}},
		{"empty gpu list", types.InstanceTypeInfo{InstanceType: "x1.large", GpuInfo: &types.GpuInfo{}}, false, catalog.InstanceType{}},
		{
			"only nil-able fields missing",
			types.InstanceTypeInfo{InstanceType: "zz1.metal", BareMetal: awsv2.Bool(true),
				GpuInfo: &types.GpuInfo{Gpus: []types.GpuDeviceInfo{{Name: awsv2.String("X")}}}},
			true,
			catalog.InstanceType{Provider: catalog.AWS, ID: "zz1.metal", Family: "zz1", MemoryGiB: catalog.Dec("0"),
				Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: "X", Share: catalog.Dec("1"), MemoryGiB: catalog.Dec("0")}},
				Generation:   "previous", BareMetal: true, Source: "aws:ec2:DescribeInstanceTypes"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := convertInstanceType(tc.info)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
