package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// presetFleet is tcoFleet with a p4d.24xlarge offer whose TCO input cannot be
// built: a yearly price on a 3-year term.
func presetFleet() *catalog.Snapshot {
	s := tcoFleet()
	s.Offers = append(s.Offers, scOffer(catalog.AWS, "p4d.24xlarge", "us-east-1", catalog.Reserved3yAllUpfront, "100000", catalog.USD, catalog.PerYear))
	return s
}

// errText compares errors by their text.
var errText = cmp.Comparer(func(a, b error) bool { return a.Error() == b.Error() })

func TestTCOPresets_PresetIsTheModelOfItsChoice(t *testing.T) {
	snap, gpus := tcoFleet(), scGPUs(t)
	m := BuildMatrix(scScenarios(t).Scenarios, snap, gpus, MatrixOptions{})
	set, err := TCOPresets(m, snap, gpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Scenarios) == 0 {
		t.Fatal("no comparisons")
	}
	// Some GPUs lack a figure a scenario compares speeds by (NVENC engines of a
	// V100, FP16 of an A10): those offers are listed, not compared.
	left := map[string]bool{}
	for _, l := range set.LeftOut {
		if !strings.Contains(l.Error(), "no speed for "+l.Instance) {
			t.Errorf("left out: %v", l)
		}
		left[l.Scenario+" "+l.Instance+" "+l.ReferenceGPU] = true
	}
	for _, s := range set.Scenarios {
		if len(s.Offers) == 0 || len(s.Offers) > TCOMaxOffers || !s.Offers[0].Preset || s.Offers[0].Instance != s.Base {
			t.Errorf("%s: offers %+v: want the base first, as a preset, at most %d", s.ID, s.Offers, TCOMaxOffers)
		}
		if s.WorkUnit != WorkUnitGPUHour+s.RefGPU {
			t.Errorf("%s: work unit %q, reference GPU %s", s.ID, s.WorkUnit, s.RefGPU)
		}
		if diff := cmp.Diff(s.Input(s.PresetChoice()), s.Preset, decEq); diff != "" {
			t.Errorf("%s: preset is not its choice's input (-choice +preset):\n%s", s.ID, diff)
		}
		res, err := TCO(s.Preset)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(res, s.Result, decEq); diff != "" {
			t.Errorf("%s: result is not TCO(preset) (-want +got):\n%s", s.ID, diff)
		}
		for _, o := range s.Offers {
			if left[s.ID+" "+o.Instance+" "+s.RefGPU] {
				t.Errorf("%s: %s is compared and left out", s.ID, o.Instance)
			}
		}
		if got, ok := set.Scenario(s.ID); !ok || got.ID != s.ID {
			t.Errorf("Scenario(%q) = %v, %v", s.ID, got, ok)
		}
	}
}

func TestTCOPresets_ReportsOffersLeftOut(t *testing.T) {
	snap, gpus := presetFleet(), scGPUs(t)
	m := BuildMatrix(scScenarios(t).Scenarios, snap, gpus, MatrixOptions{})
	set, err := TCOPresets(m, snap, gpus)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	yearly := 0
	for _, l := range set.LeftOut {
		k := l.Scenario + " " + l.Instance + " " + l.ReferenceGPU
		if seen[k] {
			t.Errorf("%s reported twice", k)
		}
		seen[k] = true
		if !errors.Is(l, l.Err) {
			t.Errorf("%v does not wrap its cause", l)
		}
		if strings.Contains(l.Error(), "a yearly price on a 36-month term is not supported") {
			yearly++
			if l.Instance != "aws/p4d.24xlarge" || l.Region != "us-east-1" {
				t.Errorf("left out: %v", l)
			}
		}
	}
	if yearly == 0 {
		t.Errorf("the p4d.24xlarge offer whose input cannot be built is not reported: %v", set.LeftOut)
	}
	for _, s := range set.Scenarios {
		for _, o := range s.Offers {
			if o.Instance == "aws/p4d.24xlarge" {
				t.Errorf("%s: p4d.24xlarge is compared although its input failed", s.ID)
			}
		}
	}
}

func TestNewScenarioReport_RanksOnDemandAndComputesPresets(t *testing.T) {
	snap, gpus := tcoFleet(), scGPUs(t)
	scs := scScenarios(t).Scenarios
	r, err := NewScenarioReport(scs, snap, gpus, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := BuildMatrix(scs, snap, gpus, MatrixOptions{Billing: catalog.OnDemand, PerCell: ReportPerCell})
	if diff := cmp.Diff(want, r.Matrix, decEq); diff != "" {
		t.Errorf("matrix (-want +got):\n%s", diff)
	}
	presets, err := TCOPresets(want, snap, gpus)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(presets, r.TCO, decEq, errText); diff != "" {
		t.Errorf("presets (-want +got):\n%s", diff)
	}
	// Without a GPU reference nothing has a spec figure: no comparison.
	if r, err := NewScenarioReport(scs, snap, nil, nil); err != nil || len(r.TCO.Scenarios) != 0 {
		t.Errorf("without a GPU reference: %d comparisons, %v", len(r.TCO.Scenarios), err)
	}
}
