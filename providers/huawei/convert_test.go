package huawei

import (
	"testing"

	"github.com/shopspring/decimal"

	ecsmodel "github.com/huaweicloud/huaweicloud-sdk-go-v3/services/ecs/v2/model"

	"github.com/gpuatlas/gpuatlas/catalog"
)

func TestParseGPUName(t *testing.T) {
	for _, c := range []struct {
		in    string
		name  string
		count int
		mem   string
	}{
		{"1 * NVIDIA V100 / 32 GiB", "NVIDIA V100", 1, "32"},
		{"8 * H100 NVL / 94 GiB", "H100 NVL", 8, "94"},
		{"2*NVIDIA-A40", "NVIDIA-A40", 2, "0"},
		{"1 x NVIDIA-A40-8Q / 8192 MiB", "NVIDIA-A40-8Q", 1, "8"},
	} {
		a, ok := parseGPUName(c.in, catalog.KindGPU)
		if !ok || a.Name != c.name || a.Count != c.count || !a.MemoryGiB.Equal(decimal.RequireFromString(c.mem)) {
			t.Errorf("parseGPUName(%q) = %+v, %v; want %s × %d, %s GiB", c.in, a, ok, c.name, c.count, c.mem)
		}
	}
	if _, ok := parseGPUName("", catalog.KindGPU); ok {
		t.Error("empty name parsed")
	}
}

func TestParseInfoDevices(t *testing.T) {
	accs := parseInfoDevices(`[{"name":"Ascend 910B","memory_mb":65536,"count":"8","alias_prefix":"ascend"}]`, catalog.KindNPU)
	if len(accs) != 1 || accs[0].Name != "Ascend 910B" || accs[0].Count != 8 || !accs[0].MemoryGiB.Equal(decimal.NewFromInt(64)) || accs[0].Kind != catalog.KindNPU {
		t.Errorf("accs = %+v", accs)
	}
	if got := parseInfoDevices(`not json`, catalog.KindGPU); got != nil {
		t.Errorf("bad JSON gave %+v", got)
	}
}

func TestParseZoneStatus(t *testing.T) {
	got := parseZoneStatus("az0(normal), az1(sellout),az2(obt), az3(abandon), az4()")
	want := map[string]catalog.Availability{"az0": catalog.Available, "az1": catalog.SoldOut, "az2": catalog.Unknown, "az3": ""}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestConvertFlavor_AbandonedEverywhereIsLeftOut(t *testing.T) {
	perf, st := "gpu", "abandon"
	alias := "nvidia-t4:1"
	f := flavor{Id: "pi2.2xlarge.4", Vcpus: "8", Ram: 32768}
	f.OsExtraSpecs = newSpecs(&perf, &st, &alias)
	if _, ok := convertFlavor(f, "cn-north-4"); ok {
		t.Error("an abandoned flavor was kept")
	}
}

func newSpecs(perf, status, alias *string) *ecsmodel.FlavorExtraSpec {
	return &ecsmodel.FlavorExtraSpec{Ecsperformancetype: perf, Condoperationstatus: status, PciPassthroughalias: alias}
}
