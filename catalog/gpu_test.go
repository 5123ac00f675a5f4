package catalog

import (
	"strings"
	"testing"
)

const testModels = `id,vendor,name,kind,memory_gb,fp64_tflops,nvenc,source,source_date
nvidia-a10-24gb,NVIDIA,A10,gpu,24,0.976,1,https://example.org/a10,2021-04-12
nvidia-a10g-24gb,NVIDIA,A10G,gpu,24,,,https://example.org/a10g,2021-11-11
`

const testAliases = `provider,name,model,share,confidence,evidence
*,NVIDIA A10,nvidia-a10-24gb,,certain,datasheet
aws,A10G,nvidia-a10g-24gb,,certain,DescribeInstanceTypes
alibaba,A10*1/12,nvidia-a10-24gb,1/12,certain,vGPU slice
alibaba,G49,,,uncertain,no public source
`

func TestGPUReference_Resolve(t *testing.T) {
	ref, err := ParseGPUReference("gpus.csv", strings.NewReader(testModels), "aliases.csv", strings.NewReader(testAliases))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		provider Provider
		name     string
		model    string
		share    string
		ok       bool
	}{
		{AWS, "A10G", "nvidia-a10g-24gb", "0", true},
		{AWS, "  a10g ", "nvidia-a10g-24gb", "0", true},
		{Alibaba, "A10G", "", "0", false}, // AWS-only alias
		{Tencent, "NVIDIA  A10", "nvidia-a10-24gb", "0", true},
		{Alibaba, "A10*1/12", "nvidia-a10-24gb", "0.083333", true},
		{Alibaba, "G49", "", "0", false}, // known name without a model: reported
		{Huawei, "nvidia-a10-24gb", "nvidia-a10-24gb", "0", true},
		{AWS, "Zeta 9000", "", "0", false},
	}
	for _, tt := range tests {
		t.Run(string(tt.provider)+"/"+tt.name, func(t *testing.T) {
			m, ok := ref.Resolve(tt.provider, tt.name)
			if ok != tt.ok || m.Model != tt.model || !m.Share.Equal(Dec(tt.share)) {
				t.Errorf("Resolve = %+v, %v; want model %q share %s ok %v", m, ok, tt.model, tt.share, tt.ok)
			}
		})
	}
	a10, _ := ref.Model("nvidia-a10-24gb")
	if a10.FP64TFLOPS == nil || a10.FP64TFLOPS.String() != "0.976" || a10.NVENC == nil || *a10.NVENC != 1 {
		t.Errorf("A10 figures not parsed: %+v", a10)
	}
	if a10.GPUsPerBoard != nil {
		t.Errorf("A10 gpus_per_board = %d, want nil (one GPU per board) when the column is absent", *a10.GPUsPerBoard)
	}
	if g, _ := ref.Model("nvidia-a10g-24gb"); g.FP64TFLOPS != nil {
		t.Error("an empty cell must stay unknown (nil), not zero")
	}
}

func TestParseGPUReference_Errors(t *testing.T) {
	const capHeader = "id,vendor,name,kind,memory_gb,source,training,capability_source,capability_source_zh\n"
	tests := []struct {
		name, models, aliases, want string
	}{
		{"bad number", strings.Replace(testModels, "0.976", "fast", 1), testAliases, "gpus.csv:2: fp64_tflops \"fast\""},
		{"no source", strings.Replace(testModels, "https://example.org/a10g", "", 1), testAliases, "gpus.csv:3: source is empty"},
		{"duplicate id", testModels + "nvidia-a10-24gb,NVIDIA,A10,gpu,24,,,x,2021\n", testAliases, "gpus.csv:4: duplicate model id"},
		{"unknown model", testModels, testAliases + "aws,T4,nvidia-t4-16gb,,certain,x\n", "aliases.csv:6: model \"nvidia-t4-16gb\" is not in gpus.csv"},
		{"bad share", testModels, testAliases + "alibaba,T4/0,nvidia-a10-24gb,1/0,certain,x\n", "aliases.csv:6: share \"1/0\""},
		{"duplicate alias", testModels, testAliases + "aws,a10g,nvidia-a10g-24gb,,certain,x\n", "already defined on line 3"},
		{"missing column", "id,vendor\n", testAliases, "gpus.csv:1: missing column"},
		{"capability source without Chinese", capHeader + "nvidia-a10-24gb,NVIDIA,A10,gpu,24,x,yes,https://a.example/x gloss,\n", testAliases, "gpus.csv:2: capability_source_zh is empty"},
		{"Chinese capability source citing another address", capHeader + "nvidia-a10-24gb,NVIDIA,A10,gpu,24,x,yes,https://a.example/x gloss,https://b.example/x 说明\n", testAliases, "gpus.csv:2: capability_source_zh cites [\"https://b.example/x\"]"},
		{"Chinese capability source alone", capHeader + "nvidia-a10-24gb,NVIDIA,A10,gpu,24,x,,,https://a.example/x 说明\n", testAliases, "gpus.csv:2: capability_source_zh without capability_source"},
		{"no GPU on a board", "id,vendor,name,kind,memory_gb,source,gpus_per_board\nnvidia-a10-24gb,NVIDIA,A10,gpu,24,x,0\n", testAliases, "gpus.csv:2: gpus_per_board 0 is not at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseGPUReference("gpus.csv", strings.NewReader(tt.models), "aliases.csv", strings.NewReader(tt.aliases))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestGPUReference_ResolveDeviceByMemory(t *testing.T) {
	models := testModels + "nvidia-a100-sxm-40gb,NVIDIA,A100 40GB,gpu,40,,,x,2020\nnvidia-a100-sxm-80gb,NVIDIA,A100 80GB,gpu,80,,,x,2020\n"
	aliases := "provider,name,model,share,memory_gib,confidence,evidence\n" +
		"aws,A100,nvidia-a100-sxm-40gb,,,likely,default\n" +
		"aws,A100,nvidia-a100-sxm-80gb,,80,likely,p4de\n"
	ref, err := ParseGPUReference("gpus.csv", strings.NewReader(models), "aliases.csv", strings.NewReader(aliases))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ mem, want string }{{"80", "nvidia-a100-sxm-80gb"}, {"76.29", "nvidia-a100-sxm-80gb"}, {"40", "nvidia-a100-sxm-40gb"}, {"0", "nvidia-a100-sxm-40gb"}} {
		m, ok := ref.ResolveDevice(AWS, "A100", Dec(tt.mem))
		if !ok || m.Model != tt.want {
			t.Errorf("A100 with %s GiB: got %q, want %q", tt.mem, m.Model, tt.want)
		}
	}
	if _, err := ParseGPUReference("gpus.csv", strings.NewReader(models), "aliases.csv", strings.NewReader(aliases+"aws,A100,nvidia-a100-sxm-80gb,,80,likely,dup\n")); err == nil || !strings.Contains(err.Error(), "aliases.csv:4: alias aws \"A100\" with memory 80 is already defined on line 3") {
		t.Errorf("duplicate memory alias: got %v", err)
	}
}

// A two-GPU board's row describes one GPU and says how many a board carries.
func TestParseGPUReference_GPUsPerBoard(t *testing.T) {
	models := "id,vendor,name,kind,memory_gb,source,gpus_per_board\nnvidia-k80-24gb,NVIDIA,Tesla K80,gpu,12,x,2\nnvidia-a10-24gb,NVIDIA,A10,gpu,24,x,\n"
	ref, err := ParseGPUReference("gpus.csv", strings.NewReader(models), "aliases.csv", strings.NewReader("provider,name,model,share,confidence,evidence\n"))
	if err != nil {
		t.Fatal(err)
	}
	k80, _ := ref.Model("nvidia-k80-24gb")
	if k80.GPUsPerBoard == nil || *k80.GPUsPerBoard != 2 {
		t.Errorf("K80 gpus_per_board = %v, want 2", k80.GPUsPerBoard)
	}
	if a10, _ := ref.Model("nvidia-a10-24gb"); a10.GPUsPerBoard != nil {
		t.Errorf("A10 gpus_per_board = %d, want nil", *a10.GPUsPerBoard)
	}
}

// An estimated price is shown but never leads an answer: Leads is the one
// rule every cheapest, "from" and default answer reads.
func TestOffer_EstimatedNeverLeads(t *testing.T) {
	o := Offer{Billing: Spot}
	if !o.Leads() || !o.Observed() {
		t.Fatal("a plain observed offer must lead")
	}
	o.Estimated = true
	if o.Leads() || o.Observed() {
		t.Error("an estimated offer leads")
	}
}

// The maker's memory unit: GB by default, GiB where the maker states GiB
// (AWS Neuron: Inferentia2 32 GiB). The rules' class is in GB, converted
// exactly; a unit other than GB or GiB is an error.
func TestGPUReference_MemoryUnit(t *testing.T) {
	models := "id,vendor,name,kind,memory_gb,source,memory_unit\naws-inferentia2,AWS,Inferentia2,npu,32,x,GiB\nnvidia-a10g-24gb,NVIDIA,A10G,gpu,24,x,\n"
	ref, err := ParseGPUReference("gpus.csv", strings.NewReader(models), "aliases.csv", strings.NewReader("provider,name,model,share,confidence,evidence\n"))
	if err != nil {
		t.Fatal(err)
	}
	inf2, _ := ref.Model("aws-inferentia2")
	if inf2.MemoryUnit != "GiB" || inf2.NominalGB().String() != "34.359738368" {
		t.Errorf("Inferentia2: %s %s, nominal %s GB; want 32 GiB = 34.359738368 GB", inf2.MemoryGB, inf2.MemoryUnit, inf2.NominalGB())
	}
	if a, _ := ref.Model("nvidia-a10g-24gb"); a.MemoryUnit != "GB" || a.NominalGB().String() != "24" {
		t.Errorf("A10G: %s %s", a.NominalGB(), a.MemoryUnit)
	}
	it := ref.Reconcile(InstanceType{Accelerators: []Accelerator{{Kind: KindNPU, Model: "aws-inferentia2", Count: 1, Share: Dec("1"), MemoryGiB: Dec("32")}}})
	if a := it.Accelerators[0]; a.NominalMemoryGB == nil || a.NominalMemoryGB.String() != "34.36" || len(it.Conflicts) != 0 {
		t.Errorf("inf2 reconciled: nominal %v, conflicts %v; want 34.36 GB and none (32 GiB as AWS reports)", a.NominalMemoryGB, it.Conflicts)
	}
	bad := strings.Replace(models, ",GiB\n", ",MB\n", 1)
	if _, err := ParseGPUReference("gpus.csv", strings.NewReader(bad), "aliases.csv", strings.NewReader("provider,name,model,share,confidence,evidence\n")); err == nil ||
		!strings.Contains(err.Error(), `gpus.csv:2: memory_unit "MB" is not GB or GiB`) {
		t.Errorf("bad unit: %v", err)
	}
}

// data/gpu_sources.csv: a figure cites its source, an empty figure says why,
// a second value names its source and is a conflict; rows name models of the
// reference. Errors name file:line.
func TestGPUSources(t *testing.T) {
	ref, err := ParseGPUReference("gpus.csv", strings.NewReader(testModels), "aliases.csv", strings.NewReader(testAliases))
	if err != nil {
		t.Fatal(err)
	}
	head := "gpu_id,field,value,unit,basis,source_url,source_title,locator,source_date,second_value,second_source,note\n"
	good := head + "nvidia-a10-24gb,memory,24,GB,per_gpu,https://example.org/a10,A10 datasheet,table 1,2021-04,,,\n" +
		"nvidia-a10-24gb,fp8_tflops,,TFLOPS,dense,,,,,,,Ampere has no FP8\n" +
		"nvidia-a10g-24gb,memory,24,GB,per_gpu,https://example.org/a10g,,,,22,https://example.org/other,\n"
	fs, err := parseGPUSources("gpu_sources.csv", strings.NewReader(good), ref)
	if err != nil {
		t.Fatal(err)
	}
	ref.Sources = fs
	c := ref.FigureConflicts()
	if len(fs) != 3 || len(c) != 1 || c[0].GPU != "nvidia-a10g-24gb" || c[0].Line != 4 ||
		c[0].Message() != "nvidia-a10g-24gb memory: 24 GB (https://example.org/a10g) against 22 (https://example.org/other)" {
		t.Errorf("sources %d, conflicts %+v", len(fs), c)
	}
	for _, tc := range []struct{ name, row, want string }{
		{"unknown model", "nvidia-x-1gb,memory,1,GB,per_gpu,https://x,,,,,,\n", `gpu_sources.csv:2: gpu_id "nvidia-x-1gb" is not in data/gpus.csv`},
		{"figure without source", "nvidia-a10-24gb,memory,24,GB,per_gpu,,,,,,,\n", "gpu_sources.csv:2: nvidia-a10-24gb memory has no source_url"},
		{"empty without reason", "nvidia-a10-24gb,memory,,GB,per_gpu,,,,,,,\n", "gpu_sources.csv:2: value is empty without a note"},
		{"second without source", "nvidia-a10-24gb,memory,24,GB,per_gpu,https://x,,,,22,,\n", `second_value "22" has no second_source`},
		{"bad basis", "nvidia-a10-24gb,memory,24,GB,boards,https://x,,,,,,\n", `basis "boards" is not one of`},
	} {
		if _, err := parseGPUSources("gpu_sources.csv", strings.NewReader(head+tc.row), ref); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
