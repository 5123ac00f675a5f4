package aws

import (
	"math"
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
		// A whole GPU leaves the share to the runner and the alias table.
		{"p5.48xlarge", []catalog.Accelerator{acc(catalog.KindGPU, "H100", "NVIDIA", 8, "0", "80")}},
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

	gbps := catalog.Dec("3200")
	var cards []catalog.NetworkCard
	for i := range 32 {
		cards = append(cards, catalog.NetworkCard{Index: i, PeakGbps: catalog.Dec("100"), BaselineGbps: catalog.Dec("100")})
	}
	want := catalog.InstanceType{
		Provider: catalog.AWS, ID: "p5.48xlarge", Family: "p5", VCPUs: 192, MemoryGiB: catalog.Dec("2048"),
		CPUArch: "x86_64", CPUVendor: "AMD", Accelerators: tests[0].want,
		LocalStorageGB: 30400, LocalNVMe: true, Network: "3200 Gigabit", NetworkGbps: &gbps, NetworkCards: cards,
		RDMA: "efa", EFAInterfaces: 32, Generation: "current", Source: "aws:ec2:DescribeInstanceTypes",
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

// The instance's network figure is all its cards together, as AWS publishes it
// (NetworkPerformance), not one card's peak: real records from the replay.
func TestConvertInstanceType_NetworkTotal(t *testing.T) {
	srv := harness.Start(t)
	byID := map[string]catalog.InstanceType{}
	for _, region := range []string{"us-west-2", "us-east-2"} { // trn2 is only in us-east-2
		for _, it := range crawlRegion(t, srv, region).Instances {
			byID[it.ID] = it
		}
	}
	tests := []struct {
		id, published, want string
		cards, efa          int
	}{
		{"p5.48xlarge", "3200 Gigabit", "3200", 32, 32},
		{"p5en.48xlarge", "3200 Gigabit", "3200", 16, 16},
		// The cards list 8 × 200 Gbit/s; AWS publishes 3200 for the instance.
		{"p6-b200.48xlarge", "3200 Gigabit", "3200", 8, 8},
		// 16 EFA cards of 400 and a primary ENA card of 350: AWS publishes 6400.
		{"p6-b300.48xlarge", "6400 Gigabit", "6400", 17, 16},
		{"p4d.24xlarge", "4x 100 Gigabit", "400", 4, 4},
		{"p4de.24xlarge", "4x 100 Gigabit", "400", 4, 4},
		{"trn2.48xlarge", "16x 200 Gigabit", "3200", 16, 16},
		{"g5.12xlarge", "40 Gigabit", "40", 1, 1},
		{"g5.xlarge", "Up to 10 Gigabit", "10", 1, 0}, // the burst figure
		{"g2.2xlarge", "Moderate", "10", 1, 0},        // a named class: the cards' sum
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			it, ok := byID[tc.id]
			if !ok {
				t.Fatalf("%s not crawled", tc.id)
			}
			if it.Network != tc.published || it.NetworkGbps == nil || !it.NetworkGbps.Equal(catalog.Dec(tc.want)) {
				t.Errorf("network %q %v Gbit/s, want %q %s", it.Network, it.NetworkGbps, tc.published, tc.want)
			}
			if len(it.NetworkCards) != tc.cards || it.EFAInterfaces != tc.efa {
				t.Errorf("%d cards, %d EFA interfaces; want %d, %d", len(it.NetworkCards), it.EFAInterfaces, tc.cards, tc.efa)
			}
		})
	}
}

func TestParseNetworkPerformance(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" = not a figure
	}{
		{"3200 Gigabit", "3200"}, {"4x 100 Gigabit", "400"}, {"16x 200 Gigabit", "3200"},
		{"Up to 25 Gigabit", "25"}, {"3.12 Gigabit", "3.12"}, {"Moderate", ""}, {"High", ""},
		{"", ""}, {"x 100 Gigabit", ""}, {"0x 100 Gigabit", ""}, {"100 Megabit", ""}, {"-5 Gigabit", ""},
		{"1e30 Gigabit", ""}, {"1000000x 2 Gigabit", ""}, {"999999 Gigabit", "999999"},
	}
	for _, tc := range tests {
		g, ok := parseNetworkPerformance(tc.in)
		if ok != (tc.want != "") || (ok && !g.Equal(catalog.Dec(tc.want))) {
			t.Errorf("parseNetworkPerformance(%q) = %s, %v; want %q", tc.in, g, ok, tc.want)
		}
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
				Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Name: "X", MemoryGiB: catalog.Dec("0")}},
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

// A card bandwidth that is absent, not finite, negative or absurd is unknown (0).
func TestGbps(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		in   *float64
		want string
	}{{nil, "0"}, {f(100), "100"}, {f(3.125), "3.125"}, {f(math.NaN()), "0"}, {f(math.Inf(1)), "0"}, {f(-1), "0"}, {f(1e300), "0"}} {
		if got := gbps(tc.in); !got.Equal(catalog.Dec(tc.want)) {
			t.Errorf("gbps(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
