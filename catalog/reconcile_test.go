package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// The rows of data/gpus.csv the cases below use, with their real figures.
const reconcileModels = `id,vendor,name,kind,memory_gb,source,source_date
nvidia-a10g-24gb,NVIDIA,NVIDIA A10G,gpu,24,https://example.org/a10g,2021-11-11
nvidia-t4-16gb,NVIDIA,NVIDIA T4,gpu,16,https://example.org/t4,2018-09-12
aws-trainium2,AWS,AWS Trainium2,npu,96,https://aws.amazon.com/ai/machine-learning/trainium/,2026-03-31
nvidia-a40-48gb,NVIDIA,NVIDIA A40,gpu,48,https://example.org/a40,2020-10-05
amd-firepro-s7150,AMD,AMD FirePro S7150,gpu,,https://example.org/s7150,2026-11-30
`

func reconcileRef(t *testing.T) *GPUReference {
	t.Helper()
	ref, err := ParseGPUReference("gpus.csv", strings.NewReader(reconcileModels), "aliases.csv",
		strings.NewReader("provider,name,model,share,confidence,evidence\n"))
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// Each case is a real accelerator row of the embedded catalog as the provider
// reports it.
func TestReconcile(t *testing.T) {
	ref := reconcileRef(t)
	acc := func(name, model string, count int, share, mem string) Accelerator {
		return Accelerator{Kind: KindGPU, Name: name, Model: model, Count: count, Share: Dec(share), MemoryGiB: Dec(mem)}
	}
	tests := []struct {
		name      string
		in        Accelerator
		wantMem   string
		wantClass *decimal.Decimal // nil: no class
		filled    bool
		conflict  *SpecConflict
		rule      string
	}{
		{"aws g5.12xlarge A10G reports usable GiB", acc("A10G", "nvidia-a10g-24gb", 4, "1", "22.3515625"),
			"22.3515625", DecPtr("24"), false, nil, "24"},
		{"tencent GN7 carries no memory", acc("nvidia-t4-16gb", "nvidia-t4-16gb", 1, "1", "0"),
			"16", DecPtr("16"), true, nil, "16"},
		{"tencent GN7 vGPU quarter T4", acc("nvidia-t4-16gb", "nvidia-t4-16gb", 1, "0.25", "0"),
			"4", DecPtr("4"), true, nil, "4"},
		{"huawei A40 8Q slice", acc("NVIDIA-A40-8Q", "nvidia-a40-48gb", 1, "0.166667", "8"),
			"8", DecPtr("8"), false, nil, "8"},
		{"aws trn2 reports 512 GiB per Trainium2", acc("Trainium2", "aws-trainium2", 16, "1", "512"),
			"512", DecPtr("96"), false,
			&SpecConflict{Field: FieldGPUMemory, Accelerator: "Trainium2", Model: "aws-trainium2", ProviderValue: Dec("512"),
				ReferenceValue: Dec("96"), Unit: "GiB", Source: "https://aws.amazon.com/ai/machine-learning/trainium/ (2026-03-31)"}, "96"},
		{"reference without memory", acc("AMD S7150", "amd-firepro-s7150", 1, "1", "0"), "0", nil, false, nil, "0"},
		{"unmapped", acc("G49", "", 1, "1", "24"), "24", nil, false, nil, "24"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it := InstanceType{Provider: AWS, ID: "x", Accelerators: []Accelerator{tc.in}}
			got := ref.Reconcile(it)
			a := got.Accelerators[0]
			if !a.MemoryGiB.Equal(Dec(tc.wantMem)) || a.MemoryFromReference != tc.filled {
				t.Errorf("memory %s (from reference %v), want %s (%v)", a.MemoryGiB, a.MemoryFromReference, tc.wantMem, tc.filled)
			}
			if (a.NominalMemoryGB == nil) != (tc.wantClass == nil) || (a.NominalMemoryGB != nil && !a.NominalMemoryGB.Equal(*tc.wantClass)) {
				t.Errorf("class %v, want %v", a.NominalMemoryGB, tc.wantClass)
			}
			if !a.RuleMemoryGiB().Equal(Dec(tc.rule)) {
				t.Errorf("rule memory %s, want %s", a.RuleMemoryGiB(), tc.rule)
			}
			var want []SpecConflict
			if tc.conflict != nil {
				want = []SpecConflict{*tc.conflict}
			}
			if diff := cmp.Diff(want, got.Conflicts); diff != "" {
				t.Errorf("conflicts (-want +got):\n%s", diff)
			}
			if !cmp.Equal(ref.Reconcile(got), got) {
				t.Error("a second Reconcile changed the result")
			}
			if tc.in.MemoryFromReference || it.Accelerators[0].NominalMemoryGB != nil {
				t.Error("Reconcile changed its argument")
			}
		})
	}
	if got := (*GPUReference)(nil).Reconcile(InstanceType{ID: "y"}); got.ID != "y" {
		t.Error("a nil reference must leave the type as it is")
	}
}

// g5.12xlarge: 4 × 24 = 96 by the class, 89.4 GiB as reported; the snapshot lists
// trn2's conflict with its instance type and keeps other fields' conflicts.
func TestReconcile_TotalsAndSnapshotConflicts(t *testing.T) {
	ref := reconcileRef(t)
	g5 := ref.Reconcile(InstanceType{Provider: AWS, ID: "g5.12xlarge", Accelerators: []Accelerator{
		{Kind: KindGPU, Name: "A10G", Model: "nvidia-a10g-24gb", Count: 4, Share: Dec("1"), MemoryGiB: Dec("22.3515625")}}})
	if !g5.RuleGPUMemoryGiB().Equal(Dec("96")) || !g5.GPUMemoryGiB().Equal(Dec("89.40625")) {
		t.Errorf("g5.12xlarge memory %s by class, %s reported; want 96, 89.40625", g5.RuleGPUMemoryGiB(), g5.GPUMemoryGiB())
	}
	if !g5.Accelerators[0].UsableDiffers() {
		t.Error("A10G: usable and class differ, both are to be shown")
	}
	other := SpecConflict{Field: "vcpus", ProviderValue: Dec("1"), ReferenceValue: Dec("2")}
	trn2 := ref.Reconcile(InstanceType{Provider: AWS, ID: "trn2.48xlarge", Conflicts: []SpecConflict{other}, Accelerators: []Accelerator{
		{Kind: KindNPU, Name: "Trainium2", Model: "aws-trainium2", Count: 16, Share: Dec("1"), MemoryGiB: Dec("512")}}})
	s := &Snapshot{Instances: []InstanceType{g5, trn2}}
	got := s.SpecConflicts()
	if len(got) != 2 || got[0].Field != "vcpus" || got[1].InstanceType != "trn2.48xlarge" || got[1].Field != FieldGPUMemory ||
		!got[1].ProviderValue.Equal(Dec("512")) || !got[1].ReferenceValue.Equal(Dec("96")) {
		t.Errorf("conflicts %+v", got)
	}
}

func TestRegion_Mainland(t *testing.T) {
	for _, tc := range []struct {
		r    Region
		want bool
	}{
		{Region{Provider: Tencent, ID: "ap-beijing", Country: "CN"}, true},
		{Region{Provider: Alibaba, ID: "cn-hongkong", Country: "HK"}, false},
		{Region{Provider: Tencent, ID: "ap-hongkong", Country: "HK"}, false},
		{Region{Provider: AWS, ID: "us-east-1", Country: "US"}, false},
		{Region{Provider: AWS, ID: "unknown"}, false},
	} {
		if got := tc.r.Mainland(); got != tc.want {
			t.Errorf("%s Mainland() = %v, want %v", tc.r.Key(), got, tc.want)
		}
	}
}
