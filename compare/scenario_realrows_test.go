package compare

import (
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

// embedded is the committed catalog (data/catalog.json): real rows, reconciled
// with the GPU reference by the crawl.
func embedded(t *testing.T) *catalog.Snapshot {
	t.Helper()
	b, err := data.FS.ReadFile("catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := catalog.DecodeSnapshot("data/catalog.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func embeddedType(t *testing.T, s *catalog.Snapshot, key string) catalog.InstanceType {
	t.Helper()
	for _, it := range s.Instances {
		if it.Key() == key {
			return it
		}
	}
	t.Fatalf("%s is not in the embedded catalog", key)
	return catalog.InstanceType{}
}

// A10G and L4 report 22.35 GiB usable; their 24 GB class passes LLM
// fine-tuning's 24 GiB per GPU, and the check says both figures.
func TestScenario_RealRows_UsableMemoryPassesByClass(t *testing.T) {
	r := RankScenario(scScenario(t, "llm-finetune"), embedded(t), scGPUs(t), MatrixOptions{})
	by := fitsByKey(r)
	for _, key := range []string{"aws/g5.12xlarge", "aws/g6.12xlarge"} {
		f, ok := by[key]
		if !ok {
			t.Fatalf("%s not ranked", key)
		}
		if f.Verdict == DoesNotFit {
			t.Errorf("%s does not fit: %s", key, f.Summary)
		}
		found := false
		for _, c := range f.Checks {
			if c.Requirement == "min_gpu_memory_gib" {
				found = true
				if c.Status != Pass || c.Detail != "24 GiB per GPU (nominal; 22.35 GiB usable as reported) ≥ 24 GiB" {
					t.Errorf("%s memory check %s %q", key, c.Status, c.Detail)
				}
			}
		}
		if !found {
			t.Errorf("%s has no min_gpu_memory_gib check", key)
		}
	}
}

// p5.48xlarge's network is all 32 cards: 3200 Gbit/s meets the LLM-training
// target in full.
func TestScenario_RealRows_NetworkIsTheInstanceTotal(t *testing.T) {
	r := RankScenario(scScenario(t, "llm-training"), embedded(t), scGPUs(t), MatrixOptions{})
	f, ok := fitsByKey(r)["aws/p5.48xlarge"]
	if !ok || f.Verdict != Fits {
		t.Fatalf("p5.48xlarge: %v %s", ok, f.Summary)
	}
	detail := ""
	for _, d := range f.Dimensions {
		if d.Dimension == DimInterconnect {
			detail = d.Detail
		}
	}
	if !strings.Contains(detail, "network 3200/3200 Gbps 1") {
		t.Errorf("interconnect %q, want the network at 3200 of 3200", detail)
	}
	spec := scScenario(t, "llm-training")
	spec.Requires.MinNetworkGbps = catalog.DecPtr("3200")
	f = fitsByKey(RankScenario(spec, embedded(t), scGPUs(t), MatrixOptions{}))["aws/p5.48xlarge"]
	if f.Verdict != Fits {
		t.Errorf("p5.48xlarge with min_network_gbps 3200: %s", f.Summary)
	}
}

// A spec conflict is ruled on the reference's figure and said; a missing figure
// comes from the reference and is said.
func TestSpecs_RealRows_ConflictAndFill(t *testing.T) {
	s := embedded(t)
	tests := []struct {
		key, mem, from string
	}{
		{"aws/trn2.48xlarge", "96", " (GPU reference; the provider reports 512 GiB: spec conflict)"},
		{"tencent/GN7.2XLARGE32", "16", " (from the GPU reference)"},
		{"alibaba/ecs.gn7s-c16g1.4xlarge", "24", " (from the GPU reference)"},
		{"huawei/pi2.2xlarge.4", "16", " (from the GPU reference)"},
		{"aws/p5.48xlarge", "80", ""},
	}
	for _, tc := range tests {
		sp := specsOf(scGPUs(t), embeddedType(t, s, tc.key))
		if sp.memEach == nil || !sp.memEach.Equal(catalog.Dec(tc.mem)) || sp.memFrom != tc.from {
			t.Errorf("%s: %v GiB%q, want %s GiB%q", tc.key, sp.memEach, sp.memFrom, tc.mem, tc.from)
		}
	}
}
