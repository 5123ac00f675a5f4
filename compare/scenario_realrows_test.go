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
// fine-tuning's 24 GB per GPU, and the check says both figures.
func TestScenario_RealRows_UsableMemoryPassesByClass(t *testing.T) {
	r := RankScenario(scScenario(t, "llm-finetune"), embedded(t), scGPUs(t), MatrixOptions{})
	by := fitsByKey(r)
	for _, key := range []string{"aws/g5.12xlarge", "aws/g6.12xlarge"} {
		f, ok := by[key]
		if !ok {
			t.Fatalf("%s not ranked", key)
		}
		if f.Verdict == DoesNotFit {
			t.Errorf("%s does not fit: %q", key, rsAll(checkReasons(f)))
		}
		found := false
		for _, c := range f.Checks {
			if c.Requirement == "min_gpu_memory_gib" {
				found = true
				if want := "gpu_memory_each_ok(have=24 GB, need=24 GB)[memory_usable(usable=22.3515625 GiB)]"; c.Status != Pass || rs(c.Reason) != want {
					t.Errorf("%s memory check %s %s, want pass %s", key, c.Status, rs(c.Reason), want)
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
		t.Fatalf("p5.48xlarge: %v %q", ok, rsAll(checkReasons(f)))
	}
	detail := ""
	for _, d := range f.Dimensions {
		if d.Dimension == DimInterconnect {
			detail = rs(d.Reason)
		}
	}
	if !strings.Contains(detail, "part_network(have=3200 Gbps, target=3200 Gbps, score=1 score)") {
		t.Errorf("interconnect %q, want the network at 3200 of 3200", detail)
	}
	spec := scScenario(t, "llm-training")
	spec.Requires.MinNetworkGbps = catalog.DecPtr("3200")
	f = fitsByKey(RankScenario(spec, embedded(t), scGPUs(t), MatrixOptions{}))["aws/p5.48xlarge"]
	if f.Verdict != Fits {
		t.Errorf("p5.48xlarge with min_network_gbps 3200: %q", rsAll(checkReasons(f)))
	}
}

// A spec conflict is ruled on the reference's figure and said; a missing figure
// comes from the reference and is said.
func TestSpecs_RealRows_ConflictAndFill(t *testing.T) {
	s := embedded(t)
	tests := []struct {
		key, mem, from string
	}{
		{"aws/trn2.48xlarge", "103.08", "memory_spec_conflict(reported=512 GiB)"},
		{"tencent/GN7.2XLARGE32", "16", "memory_from_reference"},
		{"alibaba/ecs.gn7s-c16g1.4xlarge", "24", "memory_from_reference"},
		{"huawei/pi2.2xlarge.4", "16", "memory_from_reference"},
		{"aws/p5.48xlarge", "80", ""},
	}
	for _, tc := range tests {
		sp := specsOf(scGPUs(t), embeddedType(t, s, tc.key))
		from := ""
		if sp.memFrom != nil {
			from = rs(*sp.memFrom)
		}
		if sp.memEach == nil || !sp.memEach.Equal(catalog.Dec(tc.mem)) || from != tc.from {
			t.Errorf("%s: %v GiB %q, want %s GiB %q", tc.key, sp.memEach, from, tc.mem, tc.from)
		}
	}
}
