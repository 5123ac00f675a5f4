package data_test

import (
	"fmt"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/shopspring/decimal"
)

// The committed tables must load: a broken row fails here with file:line.
func TestCommittedTablesLoad(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	if len(ref.Models) < 40 || len(ref.Aliases) < 100 {
		t.Errorf("reference looks truncated: %d models, %d aliases", len(ref.Models), len(ref.Aliases))
	}
	for _, m := range ref.Models {
		if m.Source == "" || m.SourceDate == "" {
			t.Errorf("%s: no source or source date", m.ID)
		}
	}
	workloads := datatest.Load(t, catalog.LoadWorkloads)
	set := datatest.Load(t, compare.LoadScenarios)
	if err := set.CheckWorkloads(workloads); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.LoadRegionTable(data.FS); err != nil {
		t.Fatal(err)
	}
	b, err := data.FS.ReadFile("catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.DecodeSnapshot("data/catalog.json", b); err != nil {
		t.Fatal(err)
	}
}

// Every AWS accelerator name the real data uses maps to a model.
func TestAliases_AWSNames(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	for _, name := range []string{"A10G", "L4", "L40S", "H100", "H200", "B200", "B300", "T4", "T4g", "V100", "A100",
		"RTX PRO Server 6000", "RTX PRO 4500", "Radeon Pro V520", "Inferentia", "Inferentia2", "Trainium", "Trainium2", "Qualcomm AI100"} {
		if _, ok := ref.Resolve(catalog.AWS, name); !ok {
			t.Errorf("aws accelerator %q has no model", name)
		}
	}
}

// Every region of every provider in the embedded catalog (its regions, and the
// regions its offers and placements name) has a row in regions.csv with a human
// name in English and Chinese and a country: no page shows "cn-beijing
// cn-beijing". The replays are checked the same way in
// providers/providertest (TestConformance_EveryProvider).
func TestRegions_EveryCatalogRegionNamed(t *testing.T) {
	table, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	s := datatest.Snapshot(t)
	seen := map[string]bool{}
	check := func(p catalog.Provider, id string) {
		if seen[string(p)+"/"+id] {
			return
		}
		seen[string(p)+"/"+id] = true
		r, ok := table.Lookup(p, id)
		switch {
		case !ok:
			t.Errorf("%s/%s: no row in data/regions.csv", p, id)
		case r.NameEN == "" || r.NameZH == "" || r.Country == "":
			t.Errorf("%s/%s: name_en %q, name_zh %q, country %q: all three are needed", p, id, r.NameEN, r.NameZH, r.Country)
		case r.NameEN == id || r.NameZH == id:
			t.Errorf("%s/%s: the name is the id", p, id)
		}
	}
	s.EachNamedRegion(check)
	for _, c := range s.Coverage {
		for _, f := range c.FailedRegions {
			check(c.Provider, f.Region)
		}
	}
	if len(seen) < 60 {
		t.Errorf("only %d regions checked: the catalog looks truncated", len(seen))
	}
}

// Mainland China is country CN: Hong Kong regions are not in it, whatever their id.
func TestRegions_MainlandChina(t *testing.T) {
	table, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    catalog.Provider
		id   string
		want bool
	}{
		{catalog.Alibaba, "cn-beijing", true}, {catalog.Alibaba, "cn-hongkong", false},
		{catalog.Tencent, "ap-shanghai", true}, {catalog.Tencent, "ap-hongkong", false},
		{catalog.Volcengine, "cn-beijing", true}, {catalog.Volcengine, "cn-hongkong", false},
		{catalog.Huawei, "cn-north-4", true}, {catalog.Huawei, "ap-southeast-1", false},
		{catalog.AWS, "cn-northwest-1", true}, {catalog.AWS, "ap-east-1", false},
	} {
		r, ok := table.Lookup(tc.p, tc.id)
		if !ok || r.Mainland() != tc.want {
			t.Errorf("%s/%s (row %v, country %q): mainland %v, want %v", tc.p, tc.id, ok, r.Country, r.Mainland(), tc.want)
		}
	}
}

// AWS counts one GPU per die: a p2.16xlarge has 16 K80 GPUs on 8 two-GPU
// boards. The embedded catalog counts them so, each a whole GPU with the
// memory of one GPU (K80 12 GB, M60 8 GB), and the reference records the
// board relation. Half-board shares made p2.xlarge 0.5 GPU and dropped it out
// of find as a partial GPU.
func TestCatalog_AWSBoardGPUsCountedAsAWSCounts(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	for id, mem := range map[string]string{"nvidia-k80-24gb": "12", "nvidia-m60-16gb": "8", "nvidia-grid-k520": ""} {
		m, ok := ref.Model(id)
		if !ok {
			t.Fatalf("%s not in the reference", id)
		}
		if m.GPUsPerBoard == nil || *m.GPUsPerBoard != 2 {
			t.Errorf("%s: gpus_per_board = %v, want 2", id, m.GPUsPerBoard)
		}
		if mem != "" && (m.MemoryGB == nil || m.MemoryGB.String() != mem) {
			t.Errorf("%s: memory_gb = %v, want %s (one GPU of the board)", id, m.MemoryGB, mem)
		}
	}
	for _, a := range ref.Aliases {
		if (a.Model == "nvidia-k80-24gb" || a.Model == "nvidia-m60-16gb") && !a.Share.IsZero() {
			t.Errorf("alias %s %q has share %s: a whole GPU as the provider counts it has none", a.Provider, a.Name, a.Share)
		}
	}
	snap := datatest.Snapshot(t)
	want := map[string]struct {
		units int64
		memGB string
	}{
		"p2.xlarge": {1, "12"}, "p2.8xlarge": {8, "12"}, "p2.16xlarge": {16, "12"},
		"g3s.xlarge": {1, "8"}, "g3.4xlarge": {1, "8"}, "g3.16xlarge": {4, "8"},
	}
	seen := 0
	for _, it := range snap.Instances {
		w, ok := want[it.ID]
		if it.Provider != catalog.AWS || !ok {
			continue
		}
		seen++
		if got := it.GPUUnits(); !got.Equal(catalog.Dec(fmt.Sprint(w.units))) {
			t.Errorf("%s: %s GPUs, want %d as AWS counts them", it.ID, got, w.units)
		}
		a, _ := it.PrimaryAccelerator()
		if a.NominalMemoryGB == nil || a.NominalMemoryGB.String() != w.memGB {
			t.Errorf("%s: nominal memory per GPU %v, want %s GB", it.ID, a.NominalMemoryGB, w.memGB)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d AWS p2/g3 types in the embedded catalog", seen, len(want))
	}
}

// The figure-level sources load with the reference (every row names a model
// and cites its source or says why it is empty), and the conflicts they record
// are listed for `gpuatlas check`.
func TestGPUSources_Load(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	if len(ref.Sources) == 0 {
		t.Fatal("data/gpu_sources.csv was not read")
	}
	if len(ref.FigureConflicts()) == 0 {
		t.Error("no conflict listed: the file records second values")
	}
}

// Every row of data/interconnect.csv names a family (and types) of the
// embedded catalog, so a typo cannot silently leave a link unknown; and the
// catalog carries each documented link on the types it names.
func TestInterconnects_NameCatalogTypes(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	if ref.Links == nil || len(ref.Links.Facts) < 20 {
		t.Fatalf("interconnect table missing or truncated: %+v", ref.Links)
	}
	snap := datatest.Snapshot(t)
	families, types := map[string]bool{}, map[string]catalog.InstanceType{}
	for _, it := range snap.Instances {
		families[string(it.Provider)+"/"+it.Family] = true
		types[string(it.Provider)+"/"+it.ID] = it
	}
	for _, f := range ref.Links.Facts {
		if !families[string(f.Provider)+"/"+f.Family] {
			t.Errorf("data/interconnect.csv:%d: family %s/%s is not in the catalog", f.Line, f.Provider, f.Family)
		}
		for _, id := range f.Types {
			it, ok := types[string(f.Provider)+"/"+id]
			if !ok {
				t.Errorf("data/interconnect.csv:%d: type %s/%s is not in the catalog", f.Line, f.Provider, id)
				continue
			}
			if it.Interconnect != f.Kind {
				t.Errorf("%s/%s: catalog says interconnect %q, the table %q: run make data", f.Provider, id, it.Interconnect, f.Kind)
			}
		}
	}
	if got := types["aws/p5.48xlarge"].Interconnect; got != catalog.LinkNVSwitch {
		t.Errorf("aws/p5.48xlarge interconnect = %q, want nvswitch", got)
	}
	if got := types["aws/p5.4xlarge"].Interconnect; got != "" {
		t.Errorf("aws/p5.4xlarge (one GPU) interconnect = %q, want none", got)
	}
}

// Every figure of data/gpus.csv that data/gpu_sources.csv gives from a primary
// source agrees with it within 5% (the unit rule aside: a GiB or GiB/s figure
// is compared as stated), and the figures known to be wrong with no primary
// source to replace them stay empty (issue 27: H800 FP64 was the H100's,
// B200 FP64/FP32 the B100's, P40 bandwidth assumed memory it does not have).
func TestGPUSources_AgreeWithTheReference(t *testing.T) {
	ref := datatest.Load(t, catalog.LoadGPUReference)
	if len(ref.Sources) < 250 {
		t.Fatalf("only %d figure sources", len(ref.Sources))
	}
	field := map[string]func(m catalog.GPUModel) *decimal.Decimal{
		"fp64_tflops": func(m catalog.GPUModel) *decimal.Decimal { return m.FP64TFLOPS },
		"fp32_tflops": func(m catalog.GPUModel) *decimal.Decimal { return m.FP32TFLOPS },
		"tf32_tflops": func(m catalog.GPUModel) *decimal.Decimal { return m.TF32TFLOPS },
		"bf16_tflops": func(m catalog.GPUModel) *decimal.Decimal { return m.BF16TFLOPS },
		"fp16_tflops": func(m catalog.GPUModel) *decimal.Decimal { return m.FP16TFLOPS },
		"fp8_tflops":  func(m catalog.GPUModel) *decimal.Decimal { return m.FP8TFLOPS },
		"int8_tops":   func(m catalog.GPUModel) *decimal.Decimal { return m.INT8TOPS },
		"tdp_w":       func(m catalog.GPUModel) *decimal.Decimal { return m.TDPW },
	}
	checked := 0
	for _, f := range ref.Sources {
		get, ok := field[f.Field]
		if !ok || f.Value == "" || f.Basis == "per_board" || f.Basis == "sparse" {
			continue
		}
		m, _ := ref.Model(f.GPU)
		have := get(m)
		if have == nil {
			continue // the reference leaves it empty: nothing to disagree with
		}
		want, err := decimal.NewFromString(f.Value)
		if err != nil {
			t.Errorf("data/gpu_sources.csv:%d: %s %s value %q is not a number", f.Line, f.GPU, f.Field, f.Value)
			continue
		}
		checked++
		if want.IsZero() {
			continue
		}
		if have.Sub(want).Abs().Div(want).GreaterThan(decimal.RequireFromString("0.05")) {
			t.Errorf("%s %s: data/gpus.csv has %s, its primary source (data/gpu_sources.csv:%d) %s", f.GPU, f.Field, have, f.Line, want)
		}
	}
	if checked < 10 {
		t.Errorf("only %d figures compared", checked)
	}
	for _, c := range []struct{ gpu, field string }{
		{"nvidia-h800-sxm5-80gb", "fp64"}, {"nvidia-b200-180gb", "fp64"}, {"nvidia-b200-180gb", "fp32"}, {"nvidia-p40-24gb", "bandwidth"},
	} {
		m, _ := ref.Model(c.gpu)
		v := map[string]*decimal.Decimal{"fp64": m.FP64TFLOPS, "fp32": m.FP32TFLOPS, "bandwidth": m.BandwidthGBs}[c.field]
		if v != nil {
			t.Errorf("%s %s = %s: a figure known to be wrong, with no primary source, must stay empty", c.gpu, c.field, v)
		}
	}
}
