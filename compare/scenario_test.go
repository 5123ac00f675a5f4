package compare

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

// scGPUs is the committed GPU reference (data/gpus.csv), which the scenarios are
// written against.
func scGPUs(t *testing.T) *catalog.GPUReference {
	t.Helper()
	ref, err := catalog.LoadGPUReference(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// scScenarios reads data/scenarios.yaml from disk, so the tests do not depend on
// the embed pattern of package data.
func scScenarios(t *testing.T) *ScenarioSet {
	t.Helper()
	set, err := LoadScenarios(os.DirFS("../data"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func scScenario(t *testing.T, id string) Scenario {
	t.Helper()
	s, ok := scScenarios(t).Scenario(id)
	if !ok {
		t.Fatalf("scenario %q not in data/scenarios.yaml", id)
	}
	return s
}

type scSpec struct {
	p          catalog.Provider
	id, model  string
	count      int
	share, mem string
	vcpus      int
	memGiB     string
	rdma       string
	nvmeGB     int
	netGbps    string
}

func (s scSpec) instance() catalog.InstanceType {
	share := s.share
	if share == "" {
		share = "1"
	}
	t := catalog.InstanceType{Provider: s.p, ID: s.id, VCPUs: s.vcpus, MemoryGiB: catalog.Dec(s.memGiB),
		Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Model: s.model, Name: s.model, Count: s.count,
			Share: catalog.Dec(share), MemoryGiB: catalog.Dec(s.mem)}},
		RDMA: s.rdma, Generation: "current", Source: "test"}
	if s.nvmeGB > 0 {
		t.LocalNVMe, t.LocalStorageGB = true, s.nvmeGB
	}
	if s.netGbps != "" {
		t.NetworkGbps = catalog.DecPtr(s.netGbps)
	}
	return t
}

func scOffer(p catalog.Provider, typ, region string, b catalog.BillingKind, amount string, cur catalog.Currency, unit catalog.PriceUnit) catalog.Offer {
	return catalog.Offer{Provider: p, InstanceType: typ, Region: region, Billing: b,
		Price: catalog.Price{Amount: catalog.Dec(amount), Currency: cur, Unit: unit}, Availability: catalog.Available,
		Source: "test", FetchedAt: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
}

// rankAlone ranks one type, on demand at 1 USD an hour, for the scenario id,
// and fails t unless it is ranked; it returns its fit.
func rankAlone(t *testing.T, id string, s scSpec) OfferFit {
	t.Helper()
	snap := &catalog.Snapshot{FX: catalog.FXTable{Base: catalog.USD}, Instances: []catalog.InstanceType{s.instance()},
		Offers: []catalog.Offer{scOffer(s.p, s.id, "r", catalog.OnDemand, "1", catalog.USD, catalog.PerHour)}}
	r := RankScenario(scScenario(t, id), snap, scGPUs(t), MatrixOptions{})
	if len(r.Ranked) != 1 {
		t.Fatalf("ranked %d, want 1", len(r.Ranked))
	}
	return r.Ranked[0]
}

// scFleet is a small catalog with the shapes the scenarios tell apart. Specs are
// AWS's and Alibaba's published ones; prices are round test figures.
func scFleet() *catalog.Snapshot {
	specs := []scSpec{
		{p: catalog.AWS, id: "p5.48xlarge", model: "nvidia-h100-sxm-80gb", count: 8, mem: "80", vcpus: 192, memGiB: "2048", rdma: "efa", nvmeGB: 30400, netGbps: "3200"},
		{p: catalog.AWS, id: "p4d.24xlarge", model: "nvidia-a100-sxm-40gb", count: 8, mem: "40", vcpus: 96, memGiB: "1152", rdma: "efa", nvmeGB: 8000, netGbps: "400"},
		{p: catalog.AWS, id: "p3.8xlarge", model: "nvidia-v100-sxm2-16gb", count: 4, mem: "16", vcpus: 32, memGiB: "244", netGbps: "10"},
		{p: catalog.AWS, id: "g4dn.xlarge", model: "nvidia-t4-16gb", count: 1, mem: "16", vcpus: 4, memGiB: "16", nvmeGB: 125},
		{p: catalog.AWS, id: "g6.xlarge", model: "nvidia-l4-24gb", count: 1, mem: "24", vcpus: 4, memGiB: "16", nvmeGB: 250},
		{p: catalog.Alibaba, id: "ecs.gn7i-c8g1.2xlarge", model: "nvidia-a10-24gb", count: 1, mem: "24", vcpus: 8, memGiB: "30"},
		{p: catalog.Alibaba, id: "ecs.sgn7i-vws-m4.xlarge", model: "nvidia-a10-24gb", count: 1, share: "0.25", mem: "6", vcpus: 4, memGiB: "15"},
		{p: catalog.Tencent, id: "GN10Xp.20XLARGE320", model: "nvidia-v100-sxm2-32gb", count: 8, mem: "32", vcpus: 80, memGiB: "320"},
	}
	var types []catalog.InstanceType
	for _, s := range specs {
		types = append(types, s.instance())
	}
	h := catalog.PerHour
	return &catalog.Snapshot{Schema: catalog.SchemaVersion,
		FX:        catalog.FXTable{Base: catalog.USD, Date: "2026-11-28", Source: "test", Rates: map[catalog.Currency]decimal.Decimal{catalog.USD: catalog.Dec("1"), catalog.CNY: catalog.Dec("7.1")}},
		Instances: types,
		Offers: []catalog.Offer{
			scOffer(catalog.AWS, "p5.48xlarge", "us-east-1", catalog.OnDemand, "98.32", catalog.USD, h),
			scOffer(catalog.AWS, "p4d.24xlarge", "us-east-1", catalog.OnDemand, "32.7726", catalog.USD, h),
			scOffer(catalog.AWS, "p4d.24xlarge", "us-west-2", catalog.OnDemand, "32.7726", catalog.USD, h),
			scOffer(catalog.AWS, "p3.8xlarge", "us-east-1", catalog.OnDemand, "12.24", catalog.USD, h),
			scOffer(catalog.AWS, "g4dn.xlarge", "us-east-1", catalog.OnDemand, "0.526", catalog.USD, h),
			scOffer(catalog.AWS, "g6.xlarge", "us-east-1", catalog.OnDemand, "0.8048", catalog.USD, h),
			scOffer(catalog.Alibaba, "ecs.gn7i-c8g1.2xlarge", "cn-hangzhou", catalog.OnDemand, "8.5", catalog.CNY, h),
			scOffer(catalog.Alibaba, "ecs.sgn7i-vws-m4.xlarge", "cn-hangzhou", catalog.OnDemand, "2.13", catalog.CNY, h),
			scOffer(catalog.Tencent, "GN10Xp.20XLARGE320", "ap-shanghai", catalog.OnDemand, "150", catalog.CNY, h),
		},
	}
}

func fitsByKey(r ScenarioRanking) map[string]OfferFit {
	m := map[string]OfferFit{}
	for _, f := range append(append([]OfferFit(nil), r.Ranked...), r.Rejected...) {
		m[f.InstanceKey] = f
	}
	return m
}

func keys(fs []OfferFit) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.InstanceKey)
	}
	return out
}

func TestLoadScenarios_DataFile(t *testing.T) {
	set := scScenarios(t)
	want := []string{"llm-training", "llm-finetune", "cv-training", "online-inference", "batch-inference",
		"llm-inference-large", "rendering-3d", "video-transcoding", "hpc-fp64", "dev-test"}
	if diff := cmp.Diff(want, set.IDs()); diff != "" {
		t.Errorf("scenario ids (-want +got):\n%s", diff)
	}
	reg, err := catalog.LoadWorkloads(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	if err := set.CheckWorkloads(reg); err != nil {
		t.Error(err)
	}
	// Interruptible: the work checkpoints or its items can be redone.
	var interruptible []string
	for _, s := range set.Scenarios {
		if s.Interruptible {
			interruptible = append(interruptible, s.ID)
		}
	}
	if diff := cmp.Diff([]string{"llm-training", "llm-finetune", "cv-training", "batch-inference", "rendering-3d"}, interruptible); diff != "" {
		t.Errorf("interruptible scenarios (-want +got):\n%s", diff)
	}
	s, _ := set.Scenario("llm-training")
	if s.Line == 0 || !s.Requires.NVLink || !s.Requires.RDMA || !s.Requires.MinGPUs.Equal(catalog.Dec("8")) {
		t.Errorf("llm-training read wrongly: %+v", s.Requires)
	}
}

func TestParseScenarios_Errors(t *testing.T) {
	const good = `scenarios:
  - id: a
    name: A
    name_zh: 甲
    category: dev
    description: d
    description_zh: 测试场景
    compute: [fp16]
    price_basis: instance
    weights: {price: 1}
`
	if _, err := ParseScenarios("s.yaml", []byte(good)); err != nil {
		t.Fatalf("good file: %v", err)
	}
	if set, err := ParseScenarios("s.yaml", []byte(strings.Replace(good, "    price_basis", "    interruptible: true\n    price_basis", 1))); err != nil || !set.Scenarios[0].Interruptible {
		t.Errorf("interruptible: true read as %v, %v", set, err)
	}
	tests := []struct {
		name, text, want string
	}{
		{"unknown key", strings.Replace(good, "    price_basis", "    requires: {min_gpu: 1}\n    price_basis", 1), "s.yaml:9: field min_gpu not found"},
		{"unknown figure", strings.Replace(good, "[fp16]", "[fp17]", 1), `s.yaml:2: scenario "a": compute: unknown figure "fp17"`},
		{"weight without target", strings.Replace(good, "{price: 1}", "{price: 1, memory: 2}", 1), "weights.memory is positive but targets.total_gpu_memory_gib is not set"},
		{"no weights", strings.Replace(good, "{price: 1}", "{price: 0}", 1), "at least one weight must be positive"},
		{"bad basis", strings.Replace(good, "instance", "cheap", 1), `price_basis "cheap"`},
		{"negative", strings.Replace(good, "    price_basis", "    requires: {min_gpus: -1}\n    price_basis", 1), "requires.min_gpus must be positive, got -1"},
		{"duplicate", good + strings.TrimPrefix(good, "scenarios:\n"), `s.yaml:11: duplicate scenario "a" (first on line 2)`},
		{"empty", "", "s.yaml: empty file"},
		{"not a number", strings.Replace(good, "    price_basis", "    requires: {min_gpus: many}\n    price_basis", 1), "s.yaml:2: scenario 1: error decoding string 'many'"},
		{"no Chinese name", strings.Replace(good, "    name_zh: 甲\n", "", 1), `s.yaml:2: scenario "a": name_zh and description_zh must be set`},
		{"no Chinese description", strings.Replace(good, "    description_zh: 测试场景\n", "", 1), "name_zh and description_zh must be set"},
		{"English in the Chinese", strings.Replace(good, "测试场景", "a test", 1), `description_zh "a test" has no Chinese in it`},
		{"Chinese in the English", strings.Replace(good, "description: d", "description: 测试", 1), "description is written in Chinese"},
		{"preference without its purpose", strings.Replace(good, "    price_basis", "    prefer: {vcpus_per_gpu: 8, vcpus_for: data loading}\n    price_basis", 1),
			"prefer.vcpus_per_gpu needs vcpus_for and vcpus_for_zh"},
		{"interruptible not a boolean", strings.Replace(good, "    price_basis", "    interruptible: sometimes\n    price_basis", 1),
			"s.yaml:9: cannot unmarshal !!str `sometimes` into bool"},
		{"memory without its purpose", strings.Replace(good, "    price_basis", "    prefer: {memory_gib_per_gpu: 8}\n    price_basis", 1),
			"prefer.memory_gib_per_gpu needs memory_for and memory_for_zh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseScenarios("s.yaml", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestScenario_LLMTrainingRequirements(t *testing.T) {
	r := RankScenario(scScenario(t, "llm-training"), scFleet(), scGPUs(t), MatrixOptions{})
	if diff := cmp.Diff([]string{"aws/p5.48xlarge", "aws/p4d.24xlarge"}, keys(r.Ranked)); diff != "" {
		t.Errorf("ranked (-want +got):\n%s", diff)
	}
	by := fitsByKey(r)
	p4d := by["aws/p4d.24xlarge"]
	// 96 vCPU / 8 GPUs = 12 < 16 preferred; 8 × 312 BF16 = 2496 of 7900 is below 0.4.
	// Price per BF16 TFLOPS-hour: p5 98.32 / 7915.2 = 0.01242167 is the best; p4d
	// 32.7726 / 2496 = 0.01313005, 1.057… → 1.1× the best, scoring 0.946 (a strength).
	if h := p4d.Hardware; h.Count != 8 || h.GPU != "NVIDIA A100 SXM4 40GB" || h.MemoryEachGiB == nil || h.MemoryEachGiB.String() != "40" ||
		h.Link != "nvlink" || rs(h.LinkReason) != "link_nvlink_sxm(gpu=NVIDIA A100 SXM4 40GB, form_factor=SXM4)" {
		t.Errorf("p4d hardware %+v", h)
	}
	// 0.01313005 / 0.01242167 = 1.05702…: 1.057 times the best.
	wantStrengths := []string{"price_good(price=0.01313005 USD/TFLOPS-h, times=1.057 times)"}
	wantWeak := []string{"vcpus_per_gpu_low(have=12 vCPU, prefer=16 vCPU, for=data loading/数据加载)",
		"compute_low(have=2496 TFLOPS, target=7900 TFLOPS)"}
	if diff := cmp.Diff(wantStrengths, rsAll(p4d.Strengths)); diff != "" {
		t.Errorf("p4d strengths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantWeak, rsAll(p4d.Weaknesses)); diff != "" {
		t.Errorf("p4d weaknesses (-want +got):\n%s", diff)
	}
	if p4d.OtherOffers != 1 || p4d.Offer.Region != "us-east-1" {
		t.Errorf("p4d represented by %s with %d others, want us-east-1 (key order breaks the price tie) and 1", p4d.Offer.Region, p4d.OtherOffers)
	}
	p3 := by["aws/p3.8xlarge"]
	wantP3 := []string{"gpus_too_few(have=4 GPU, need=8 GPU)", "gpu_memory_each_short(have=16 GB, need=40 GB)",
		"gpu_memory_total_short(have=64 GB, need=320 GB)", "rdma_missing", "host_memory_per_gpu_short(have=61 GiB, need=64 GiB)",
		"no_native_bf16(gpu=NVIDIA Tesla V100 SXM2 16GB)"} // Volta has no bf16 (requires.native_precision)
	if diff := cmp.Diff(wantP3, rsAll(checkReasons(p3))); p3.Verdict != DoesNotFit || diff != "" {
		t.Errorf("p3.8xlarge: %s, failing checks (-want +got):\n%s", p3.Verdict, diff)
	}
	if tc := by["tencent/GN10Xp.20XLARGE320"]; tc.Verdict != DoesNotFit ||
		!strings.Contains(strings.Join(rsAll(checkReasons(tc)), "|"), "gpu_memory_each_short(have=32 GB, need=40 GB)") {
		t.Errorf("tencent 8x V100 32GB: %s %q", tc.Verdict, rsAll(checkReasons(tc)))
	}
}

func TestScenario_VideoNeedsEncoders(t *testing.T) {
	r := RankScenario(scScenario(t, "video-transcoding"), scFleet(), scGPUs(t), MatrixOptions{})
	by := fitsByKey(r)
	tests := []struct {
		key     string
		verdict Verdict
		detail  string
	}{
		{"aws/g4dn.xlarge", Fits, "nvenc_ok(have=1 NVENC, need=1 NVENC)"},
		{"aws/g6.xlarge", Fits, "nvenc_ok(have=2 NVENC, need=1 NVENC)"},
		// The reference has no NVENC figure for the A10: unknown, not zero.
		{"alibaba/ecs.gn7i-c8g1.2xlarge", MayFit, "nvenc_unknown(gpu=NVIDIA A10)"},
		{"aws/p4d.24xlarge", DoesNotFit, "nvenc_none(gpu=NVIDIA A100 SXM4 40GB)"},
		{"aws/p5.48xlarge", DoesNotFit, "nvenc_none(gpu=NVIDIA H100 SXM5 80GB)"},
	}
	for _, tt := range tests {
		f := by[tt.key]
		details := rsAll(checkReasons(f))
		if f.Verdict != tt.verdict || !strings.Contains(strings.Join(details, "|"), tt.detail) {
			t.Errorf("%s: %s %q, want %s with %q", tt.key, f.Verdict, details, tt.verdict, tt.detail)
		}
	}
	// Those known to fit rank before the one that may.
	rank := map[string]int{}
	for i, f := range r.Ranked {
		rank[f.InstanceKey] = i
	}
	if a10 := rank["alibaba/ecs.gn7i-c8g1.2xlarge"]; a10 < rank["aws/g4dn.xlarge"] || a10 < rank["aws/g6.xlarge"] {
		t.Errorf("ranks %v: the A10 (may fit) ranks before a type known to fit", rank)
	}
	if u := rsAll(by["alibaba/ecs.gn7i-c8g1.2xlarge"].Unknowns); len(u) == 0 || u[0] != "nvenc_unknown(gpu=NVIDIA A10)" {
		t.Errorf("A10 unknowns = %q", u)
	}
}

func TestScenario_HPCNeedsFP64(t *testing.T) {
	by := fitsByKey(RankScenario(scScenario(t, "hpc-fp64"), scFleet(), scGPUs(t), MatrixOptions{}))
	want := "fp64_ok(have=31.336 TFLOPS, need=5 TFLOPS)[figure_term(units=4 GPU, each=7.834 TFLOPS, figure=fp64, model=nvidia-v100-sxm2-16gb)]"
	if f := by["aws/p3.8xlarge"]; f.Verdict != Fits || rs(f.Checks[1].Reason) != want {
		t.Errorf("p3.8xlarge: %s %q, want %q", f.Verdict, rsAll(checkReasons(f)), want)
	}
	if f := by["aws/g4dn.xlarge"]; f.Verdict != DoesNotFit || !strings.Contains(strings.Join(rsAll(checkReasons(f)), "|"), "fp64_short(have=0.2544 TFLOPS, need=5 TFLOPS)") {
		t.Errorf("g4dn: %s %q", f.Verdict, rsAll(checkReasons(f)))
	}
}

// A hand-made scenario small enough to score by hand.
func TestScenario_ScoringOrderExact(t *testing.T) {
	s := Scenario{ID: "t", Name: "t", NameZH: "测", Category: "dev", Description: "d", DescriptionZH: "测试", Compute: []Figure{FigureFP16}, PriceBasis: PricePerInstance,
		Targets: Targets{TotalGPUMemoryGiB: catalog.DecPtr("100")},
		Weights: Weights{Memory: catalog.Dec("1"), Price: catalog.Dec("1")}}
	if err := s.validate(); err != nil {
		t.Fatal(err)
	}
	snap := &catalog.Snapshot{FX: catalog.FXTable{Base: catalog.USD}, Instances: []catalog.InstanceType{
		scSpec{p: catalog.AWS, id: "big", model: "nvidia-a100-sxm-80gb", count: 1, mem: "80", vcpus: 8, memGiB: "64"}.instance(),
		scSpec{p: catalog.AWS, id: "small", model: "nvidia-a100-sxm-40gb", count: 1, mem: "40", vcpus: 8, memGiB: "64"}.instance(),
		scSpec{p: catalog.AWS, id: "small2", model: "nvidia-a100-sxm-40gb", count: 1, mem: "40", vcpus: 8, memGiB: "64"}.instance(),
	}, Offers: []catalog.Offer{
		scOffer(catalog.AWS, "big", "r", catalog.OnDemand, "4", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "small2", "r", catalog.OnDemand, "1", catalog.USD, catalog.PerHour),
		scOffer(catalog.AWS, "small", "r", catalog.OnDemand, "1", catalog.USD, catalog.PerHour),
	}}
	r := RankScenario(s, snap, scGPUs(t), MatrixOptions{})
	// big:   memory 80/100 = 0.8, price 1/4 = 0.25: 100 × (0.8 + 0.25) / 2 = 52.50
	// small: memory 40/100 = 0.4, price 1/1 = 1:    100 × (0.4 + 1) / 2    = 70.00
	// small and small2 tie on score and price: instance key decides.
	got := map[string]string{}
	for _, f := range r.Ranked {
		got[f.InstanceKey] = f.Score.StringFixed(2)
	}
	if diff := cmp.Diff(map[string]string{"aws/big": "52.50", "aws/small": "70.00", "aws/small2": "70.00"}, got); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"aws/small", "aws/small2", "aws/big"}, keys(r.Ranked)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	big := r.Ranked[2]
	var gotDims []string
	for _, d := range big.Dimensions {
		gotDims = append(gotDims, string(d.Dimension)+" "+d.Weight.String()+" "+d.Status+" "+d.Value.String()+" "+rs(d.Reason))
	}
	wantDims := []string{"memory 1 scored 0.8 dim_memory(have=80 GB, target=100 GB)",
		"price 1 scored 0.25 dim_price(price=4 USD/h, best=1 USD/h)"}
	if diff := cmp.Diff(wantDims, gotDims); diff != "" {
		t.Errorf("big dimensions (-want +got):\n%s", diff)
	}
	// big's memory (0.8) is a strength, its price (0.25) a weakness: 4 times the best.
	if got := rsAll(big.Strengths); len(got) != 1 || got[0] != "gpu_memory_ample(have=80 GB, target=100 GB)" {
		t.Errorf("big strengths %q", got)
	}
	if got := rsAll(big.Weaknesses); len(got) != 1 || got[0] != "price_expensive(price=4 USD/h, times=4 times)" {
		t.Errorf("big weaknesses %q", got)
	}
}

// An unknown spec is scored 0 and said so, never silently.
func TestScenario_UnknownSpecIsSaid(t *testing.T) {
	f := rankAlone(t, "dev-test", scSpec{p: catalog.AWS, id: "a30", model: "nvidia-a30-24gb", count: 1, mem: "24", vcpus: 8, memGiB: "64"})
	want := "dimension_unknown(dimension=compute)[dim_compute_unknown(figures=fp16|bf16|fp32, gpu=NVIDIA A30)]"
	if !strings.Contains(strings.Join(rsAll(f.Unknowns), "|"), want) {
		t.Errorf("unknowns = %q, want %q", rsAll(f.Unknowns), want)
	}
	for _, d := range f.Dimensions {
		if d.Dimension == DimCompute && (d.Status != NotScoredYet || !d.Value.IsZero()) {
			t.Errorf("compute dimension = %+v, want status unknown, value 0", d)
		}
	}
}

func TestBuildMatrix_Cells(t *testing.T) {
	set := scScenarios(t)
	m := BuildMatrix(set.Scenarios, scFleet(), scGPUs(t), MatrixOptions{PerCell: 1})
	if diff := cmp.Diff([]catalog.Provider{catalog.AWS, catalog.Alibaba, catalog.Tencent}, m.Providers); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
	if len(m.Scenarios) != len(set.Scenarios) {
		t.Fatalf("%d scenario rankings, want %d", len(m.Scenarios), len(set.Scenarios))
	}
	train := m.Scenarios[0]
	type cellSum struct {
		Key, Reason      string
		Best             []string
		Fits, May, Types int
	}
	var got []cellSum
	for _, c := range train.ByProvider {
		why := ""
		if c.Reason != nil {
			why = rs(*c.Reason)
		}
		got = append(got, cellSum{c.Key, why, keys(c.Best), c.Fits, c.MayFit, c.Types})
	}
	want := []cellSum{
		{Key: "aws", Best: []string{"aws/p5.48xlarge"}, Fits: 2, Types: 5},
		{Key: "alibaba", Reason: "cell_none_fits(n=2)", Types: 2},
		{Key: "tencent", Reason: "cell_none_fits(n=1)", Types: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("llm-training by provider (-want +got):\n%s", diff)
	}
	devTest := fitsByKey(m.Scenarios[len(m.Scenarios)-1])
	if f := devTest["alibaba/ecs.sgn7i-vws-m4.xlarge"]; f.Tier != TierPartial || f.Verdict != Fits {
		t.Errorf("vGPU slice: tier %s verdict %s, want partial-gpu fits", f.Tier, f.Verdict)
	}
	// Same input, same output: the matrix is deterministic.
	again := BuildMatrix(set.Scenarios, scFleet(), scGPUs(t), MatrixOptions{PerCell: 1})
	if diff := cmp.Diff(m, again, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("second build differs:\n%s", diff)
	}
}

func TestScenario_NativeAndUSDPrice(t *testing.T) {
	by := fitsByKey(RankScenario(scScenario(t, "dev-test"), scFleet(), scGPUs(t), MatrixOptions{Region: "cn-hangzhou"}))
	f := by["alibaba/ecs.gn7i-c8g1.2xlarge"]
	// 8.5 CNY / 7.1 CNY per USD = 1.19718309859… → 1.19718310 (FX rounds to 8 places).
	if f.NativePerHour == nil || f.NativePerHour.String() != "8.5" || f.NativeCurrency != catalog.CNY ||
		f.USDPerHour == nil || f.USDPerHour.String() != "1.1971831" {
		t.Errorf("prices: native %v %s, usd %v", f.NativePerHour, f.NativeCurrency, f.USDPerHour)
	}
	if _, ok := by["aws/g4dn.xlarge"]; ok {
		t.Error("region filter kept an AWS offer")
	}
}

func TestScenario_WorkCostDimension(t *testing.T) {
	snap := scFleet()
	costs := []WorkCost{
		{OfferKey: "aws/g4dn.xlarge/us-east-1//on_demand", Provider: catalog.AWS, InstanceType: "g4dn.xlarge", Workload: "nvenc-transcode-4k",
			CostPerUnit: catalog.Dec("2"), UnitLabel: "USD per 1M frames", Basis: Measured, RunRef: "b.csv:2", WorkPerHour: catalog.Dec("1")},
		{OfferKey: "aws/g6.xlarge/us-east-1//on_demand", Provider: catalog.AWS, InstanceType: "g6.xlarge", Workload: "nvenc-transcode-4k",
			CostPerUnit: catalog.Dec("1"), UnitLabel: "USD per 1M frames", Basis: Measured, RunRef: "b.csv:3", WorkPerHour: catalog.Dec("1")},
	}
	by := fitsByKey(RankScenario(scScenario(t, "video-transcoding"), snap, scGPUs(t), MatrixOptions{Costs: costs}))
	var got []string
	for _, k := range []string{"aws/g4dn.xlarge", "aws/g6.xlarge", "alibaba/ecs.gn7i-c8g1.2xlarge"} {
		for _, d := range by[k].Dimensions {
			if d.Dimension == DimWorkCost {
				got = append(got, k+" "+d.Status+" "+d.Value.String())
			}
		}
	}
	// best 1 USD per 1M frames: g4dn 1/2 = 0.5, g6 1/1 = 1; no benchmark: not applicable.
	want := []string{"aws/g4dn.xlarge scored 0.5", "aws/g6.xlarge scored 1", "alibaba/ecs.gn7i-c8g1.2xlarge not_applicable 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("work cost (-want +got):\n%s", diff)
	}
}

// The scenario file is hand-edited: any input gives a set or an error, never a
// panic.
func FuzzParseScenarios(f *testing.F) {
	seed, err := os.ReadFile("../data/scenarios.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("scenarios:\n  - id: a\n    weights: {price: x}\n"))
	f.Add([]byte("scenarios: [1, 2]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		set, err := ParseScenarios("f.yaml", b)
		if err == nil && len(set.Scenarios) == 0 {
			t.Error("no error and no scenarios")
		}
	})
}

// TestScenario_UnknownLinkLeftOutOfMean: a GPU link nobody documents is said
// and left out of the interconnect mean, never counted as 0 (it was "mean of
// NVLink unknown 0, network …"); a documented NVSwitch counts as the fast link.
func TestScenario_UnknownLinkLeftOutOfMean(t *testing.T) {
	unknown := scSpec{p: catalog.AWS, id: "u.48xlarge", model: "nvidia-a100-pcie-80gb", count: 8, mem: "80", vcpus: 96, memGiB: "1152", rdma: "efa", nvmeGB: 8000, netGbps: "3200"}.instance()
	switched := unknown
	switched.ID, switched.Interconnect = "s.48xlarge", catalog.LinkNVSwitch
	snap := &catalog.Snapshot{FX: catalog.FXTable{Base: catalog.USD}, Instances: []catalog.InstanceType{unknown, switched},
		Offers: []catalog.Offer{
			scOffer(catalog.AWS, "u.48xlarge", "r", catalog.OnDemand, "30", catalog.USD, catalog.PerHour),
			scOffer(catalog.AWS, "s.48xlarge", "r", catalog.OnDemand, "30", catalog.USD, catalog.PerHour),
		}}
	r := RankScenario(scScenario(t, "llm-training"), snap, scGPUs(t), MatrixOptions{})
	dim := func(key string) DimensionScore {
		for _, d := range fitsByKey(r)[key].Dimensions {
			if d.Dimension == DimInterconnect {
				return d
			}
		}
		t.Fatalf("%s has no interconnect dimension", key)
		return DimensionScore{}
	}
	u := dim("aws/u.48xlarge")
	if u.Status != Scored || !u.Value.Equal(decimal.NewFromInt(1)) {
		t.Errorf("unknown link: %s %s, want scored 1 (the network part alone: 3200 of 3200 Gbps)", u.Status, u.Value)
	}
	if got := rs(u.Reason); !strings.Contains(got, "[part_nvlink_unknown;") {
		t.Errorf("unknown link reason = %s, want part_nvlink_unknown without a score", got)
	}
	s := dim("aws/s.48xlarge")
	if s.Status != Scored || !s.Value.Equal(decimal.NewFromInt(1)) || !strings.Contains(rs(s.Reason), "part_nvlink(score=1") {
		t.Errorf("NVSwitch: %s %s %s, want scored 1 with part_nvlink", s.Status, s.Value, rs(s.Reason))
	}
	if h := fitsByKey(r)["aws/s.48xlarge"].Hardware; h.Link != "nvlink" || h.LinkReason.Code != ReasonLinkNVSwitchStated {
		t.Errorf("NVSwitch hardware link = %s %s, want nvlink link_nvswitch_stated", h.Link, h.LinkReason.Code)
	}
}

// Each GPU's memory and the total both need the GPU's memory: an accelerator
// whose memory is unknown is one unknown, not the same one twice.
func TestScenario_SameUnknownOnce(t *testing.T) {
	f := rankAlone(t, "llm-finetune", scSpec{p: catalog.AWS, id: "sg1", model: "intel-server-gpu-sg1", count: 4, mem: "0", vcpus: 96, memGiB: "384"})
	seen := map[string]int{}
	for _, u := range rsAll(f.Unknowns) {
		if seen[u]++; seen[u] == 2 {
			t.Errorf("unknown %q said twice in %q", u, rsAll(f.Unknowns))
		}
	}
	if seen["gpu_memory_unknown(gpu=Intel Server GPU SG1)"] != 1 {
		t.Errorf("unknowns %q lack the GPU's memory", rsAll(f.Unknowns))
	}
}
