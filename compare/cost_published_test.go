package compare

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
)

// pubWorkloads are the workloads of the published-result tests.
func pubWorkloads(t *testing.T) *catalog.WorkloadRegistry {
	t.Helper()
	r, err := catalog.NewWorkloadRegistry([]catalog.Workload{
		{ID: "mlperf-llama2-70b", Metric: "throughput", Unit: "tokens/s", HigherIsBetter: true, CostPer: dec("1000000"), CostUnit: "1M tokens"},
		{ID: "mlperf-train-bert", Metric: "time_to_train", Unit: "min/run", CostPer: dec("1"), CostUnit: "training run"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sysRun is a published result on a system that is not an instance type.
func sysRun(line int, round, date, scenario, system, model string, count int, value string) catalog.BenchmarkRun {
	return catalog.BenchmarkRun{File: "data/benchmarks/published/p.csv", Line: line, Submitter: "Sub" + system, RunDate: date,
		Workload: "mlperf-llama2-70b", Unit: "tokens/s", Value: dec(value), HigherIsBetter: true, GPUCountUsed: count,
		Round: round, Scenario: scenario, System: system, AcceleratorModel: model, AcceleratorCount: count,
		SourceURL: "https://example.org/" + system}
}

const (
	h100 = "nvidia-h100-sxm-80gb"
	l4   = "nvidia-l4-24gb"
)

// The rules of published results, each a case: same model and count only, the
// latest round's lower median, never Offline for Server, measured only on the
// type itself, no figure from a suspect or synthetic price.
func TestCostPerWork_PublishedRules(t *testing.T) {
	types := []catalog.InstanceType{
		gpuType(catalog.AWS, "p5.48xlarge", h100, 8, "1"),
		gpuType(catalog.AWS, "p5.4xlarge", h100, 1, "1"),
		gpuType(catalog.AWS, "g6.xlarge", l4, 1, "1"),
		gpuType(catalog.AWS, "g6.48xlarge", l4, 8, "1"),
		gpuType(catalog.AWS, "p4d.24xlarge", "nvidia-a100-sxm-40gb", 8, "1"),
	}
	suspect := hourly(catalog.AWS, "p5.48xlarge", "us-west-2", catalog.OnDemand, "0.01", catalog.USD)
	suspect.Suspect = "0.02% of its peers per GPU"
	synthetic := hourly(catalog.AWS, "p5.48xlarge", "eu-west-1", catalog.OnDemand, "50", catalog.USD)
	synthetic.Synthetic = true
	snap := snapshot(types,
		hourly(catalog.AWS, "p5.48xlarge", "us-east-1", catalog.OnDemand, "55.04", catalog.USD), suspect, synthetic,
		hourly(catalog.AWS, "p5.4xlarge", "us-east-1", catalog.OnDemand, "6.88", catalog.USD),
		hourly(catalog.AWS, "g6.xlarge", "us-east-1", catalog.OnDemand, "0.8048", catalog.USD),
		hourly(catalog.AWS, "g6.48xlarge", "us-east-1", catalog.OnDemand, "13.3504", catalog.USD),
		hourly(catalog.AWS, "p4d.24xlarge", "us-east-1", catalog.OnDemand, "32.7726", catalog.USD))
	runs := []catalog.BenchmarkRun{
		// 8x H100 Offline: an older round (ignored) and three of the latest; the
		// lower median by throughput is 21000 (from S2).
		sysRun(2, "MLPerf Inference v4.1", "2024-08-28", "Offline", "S0", h100, 8, "30000"),
		sysRun(3, "MLPerf Inference v5.1", "2025-09-04", "Offline", "S1", h100, 8, "24000"),
		sysRun(4, "MLPerf Inference v5.1", "2025-09-04", "Offline", "S2", h100, 8, "21000"),
		sysRun(5, "MLPerf Inference v5.1", "2025-09-04", "Offline", "S3", h100, 8, "19000"),
		sysRun(6, "MLPerf Inference v5.1", "2025-09-04", "Offline", "S4", h100, 8, "26000"),
		// Server on 16 H100: no 8-GPU Server result, so p5.48xlarge gets none
		// (and never the Offline figure); nor does a 2-node system divide.
		sysRun(7, "MLPerf Inference v5.1", "2025-09-04", "Server", "S5", h100, 16, "40000"),
		// L4 results on 8 GPUs only: g6.xlarge (1x L4) gets no figure.
		sysRun(8, "MLPerf Inference v3.0", "2023-04-04", "Offline", "S6", l4, 8, "9000"),
		// A100 40GB: not the model of any result above, and none of its own.
	}
	vendor := sysRun(9, "MLPerf Inference v4.1", "2024-08-28", "Offline", "DGX", h100, 1, "3000")
	vendor.VendorTuned = true
	runs = append(runs, vendor)

	costs := CostPerWork(snap, runs, pubWorkloads(t))
	type row struct {
		Offer, Key, Cost, Basis, System string
		Results                         int
		Tuned                           bool
	}
	var got []row
	for _, c := range costs {
		if c.Published == nil {
			t.Fatalf("%s: a published result priced without its provenance", c.OfferKey)
		}
		if c.Reason.Code != ReasonCostPublished {
			t.Errorf("%s: reason %q, want the codes and figures of %s", c.OfferKey, c.Reason.Code, ReasonCostPublished)
		}
		got = append(got, row{c.OfferKey, c.WorkKey(), c.CostPerUnit.String(), string(c.Basis), c.Published.System, c.Published.Results, c.Published.VendorTuned})
	}
	// 55.04 USD/h / (21000 tokens/s × 3600 s) × 1e6 = 0.728042328… → 0.728042
	// 6.88 / (3000 × 3600) × 1e6 = 0.637037037… → 0.637037
	// 13.3504 / (9000 × 3600) × 1e6 = 0.412049382… → 0.412049
	want := []row{
		{"aws/g6.48xlarge/us-east-1//on_demand", "mlperf-llama2-70b@Offline", "0.412049", "estimated", "S6", 1, false},
		{"aws/p5.48xlarge/us-east-1//on_demand", "mlperf-llama2-70b@Offline", "0.728042", "estimated", "S2", 4, false},
		{"aws/p5.4xlarge/us-east-1//on_demand", "mlperf-llama2-70b@Offline", "0.637037", "estimated", "DGX", 1, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("costs (-want +got):\n%s", diff)
	}

	// "No result for this count": L4 results on 8 GPUs only (g6.xlarge has
	// one); Server results on 16 H100 only.
	gaps := CountGaps(snap, runs, pubWorkloads(t))
	type gap struct {
		Type, Key string
		Counts    []int
	}
	var gotGaps []gap
	for _, g := range gaps {
		gotGaps = append(gotGaps, gap{string(g.Provider) + "/" + g.InstanceType, g.WorkKey(), g.Counts})
	}
	wantGaps := []gap{
		{"aws/g6.xlarge", "mlperf-llama2-70b@Offline", []int{8}},
		{"aws/p5.48xlarge", "mlperf-llama2-70b@Server", []int{16}},
		{"aws/p5.4xlarge", "mlperf-llama2-70b@Server", []int{16}},
	}
	if diff := cmp.Diff(wantGaps, gotGaps); diff != "" {
		t.Errorf("gaps (-want +got):\n%s", diff)
	}
}

// A published result run on the instance type itself is a measurement, and
// wins over results on other systems.
func TestCostPerWork_PublishedMeasuredOnType(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{gpuType(catalog.AWS, "g4dn.xlarge", "nvidia-t4-16gb", 1, "1")},
		hourly(catalog.AWS, "g4dn.xlarge", "us-east-1", catalog.OnDemand, "0.526", catalog.USD))
	other := sysRun(2, "MLPerf Inference v3.0", "2023-04-04", "Offline", "Other", "nvidia-t4-16gb", 1, "999")
	onType := sysRun(3, "MLPerf Inference v3.0", "2023-04-04", "Offline", "AWS cloud instance g4dn.xlarge", "nvidia-t4-16gb", 1, "1000")
	onType.Provider, onType.InstanceType = catalog.AWS, "g4dn.xlarge"
	costs := CostPerWork(snap, []catalog.BenchmarkRun{other, onType}, pubWorkloads(t))
	if len(costs) != 1 {
		t.Fatalf("%d costs, want 1", len(costs))
	}
	c := costs[0]
	// 0.526 / (1000 × 3600) × 1e6 = 0.146111…
	if c.Basis != Measured || c.Published.Code != CodeMeasuredOnType || c.Published.System != onType.System || c.CostPerUnit.String() != "0.146111" {
		t.Errorf("got %s %s %s %s, want measured on the type, 0.146111", c.Basis, c.Published.Code, c.Published.System, c.CostPerUnit)
	}
}

// A time to train (lower is better) picks the slower middle result and costs
// the instance's hours for one run.
func TestCostPerWork_PublishedTimeToTrain(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{gpuType(catalog.AWS, "p5.48xlarge", h100, 8, "1")},
		hourly(catalog.AWS, "p5.48xlarge", "us-east-1", catalog.OnDemand, "55.04", catalog.USD))
	mk := func(line int, system, minutes string) catalog.BenchmarkRun {
		r := sysRun(line, "MLPerf Training v4.1", "2024-11-13", "", system, h100, 8, minutes)
		r.Workload, r.Unit, r.HigherIsBetter = "mlperf-train-bert", "min/run", false
		return r
	}
	costs := CostPerWork(snap, []catalog.BenchmarkRun{mk(2, "A", "5"), mk(3, "B", "6"), mk(4, "C", "4")}, pubWorkloads(t))
	if len(costs) != 1 {
		t.Fatalf("%d costs", len(costs))
	}
	// Sorted slowest first: 6, 5, 4; the lower median is 5 minutes (A):
	// 55.04 USD/h × 5/60 h = 4.586666… → 4.586667 USD per run.
	if c := costs[0]; c.Published.System != "A" || c.CostPerUnit.String() != "4.586667" || c.WorkKey() != "mlperf-train-bert" {
		t.Errorf("got %s %s %s, want A, 4.586667, mlperf-train-bert", c.Published.System, c.CostPerUnit, c.WorkKey())
	}
}

// One cost per 1M tokens from a real row and a real price, by hand:
//
//	the row: data/benchmarks/published/mlperf-inference-v4.1.csv, MLPerf
//	Inference v4.1, llama2-70b-99 Offline, Supermicro
//	"SYS-421GE-TNHR2-LCC (8x H100-SXM-80GB, TensorRT)", 24180.6 tokens/s;
//	the price: aws/p5.48xlarge in us-east-1 on demand, 55.04 USD per hour
//	(data/catalog.json).
//
//	24180.6 tokens/s × 3600 s/h = 87,050,160 tokens per hour
//	55.04 USD/h / 87,050,160 tokens/h × 1,000,000 = 0.63227920… USD per 1M tokens
//	rounded to 6 places: 0.632279
func TestCostPerWork_PublishedRealRowByHand(t *testing.T) {
	snap := embedded(t)
	var offer catalog.Offer
	for _, o := range snap.Offers {
		if o.InstanceKey() == "aws/p5.48xlarge" && o.Region == "us-east-1" && o.Zone == "" && o.Billing == catalog.OnDemand {
			offer = o
		}
	}
	if offer.Price.Amount.String() != "55.04" || offer.Price.Currency != catalog.USD || offer.Price.Unit != catalog.PerHour {
		t.Fatalf("p5.48xlarge us-east-1 on demand is %s %s per %s, not the 55.04 USD per hour the arithmetic uses", offer.Price.Amount, offer.Price.Currency, offer.Price.Unit)
	}
	workloads, err := catalog.LoadWorkloads(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	runs, probs := catalog.LoadBenchmarksFS(data.FS, "benchmarks/published/mlperf-inference-v4.1.csv", "data/", snap, workloads, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var row catalog.BenchmarkRun
	for _, r := range runs {
		if r.Benchmark == "llama2-70b-99" && r.Scenario == "Offline" && r.System == "SYS-421GE-TNHR2-LCC (8x H100-SXM-80GB, TensorRT)" {
			row = r
		}
	}
	if row.Value.String() != "24180.6" || row.Unit != "tokens/s" || row.AcceleratorCount != 8 || row.AcceleratorModel != h100 {
		t.Fatalf("the row is %s %s on %dx %s, not the 24180.6 tokens/s on 8x H100 the arithmetic uses", row.Value, row.Unit, row.AcceleratorCount, row.AcceleratorModel)
	}
	one := &catalog.Snapshot{Schema: snap.Schema, FX: snap.FX, Instances: []catalog.InstanceType{embeddedType(t, snap, "aws/p5.48xlarge")}, Offers: []catalog.Offer{offer}}
	costs := CostPerWork(one, []catalog.BenchmarkRun{row}, workloads)
	if len(costs) != 1 {
		t.Fatalf("%d costs, want 1", len(costs))
	}
	c := costs[0]
	if c.CostPerUnit.String() != "0.632279" || c.UnitLabel != "USD per 1M tokens" || c.Basis != Estimated || c.WorkKey() != "mlperf-llama2-70b@Offline" {
		t.Errorf("got %s %s, %s, %s; want 0.632279 USD per 1M tokens, estimated, mlperf-llama2-70b@Offline", c.CostPerUnit, c.UnitLabel, c.Basis, c.WorkKey())
	}
	if p := c.Published; p.Round != "MLPerf Inference v4.1" || p.Submitter != "Supermicro" || p.GPUCount != 8 || p.Code != CodeSameModelAndCount {
		t.Errorf("provenance %+v", *p)
	}
}

// Offline and Server figures are never chosen against each other: every
// selection keys them apart, and a scenario names the one it scores.
func TestWorkKey_ScenariosNeverMixed(t *testing.T) {
	mk := func(scenario, cost, perHour string) WorkCost {
		return WorkCost{OfferKey: "aws/p5.48xlarge/us-east-1//on_demand", Provider: catalog.AWS, InstanceType: "p5.48xlarge",
			Billing: catalog.OnDemand, Workload: "mlperf-llama2-70b", Scenario: scenario, CostPerUnit: dec(cost),
			WorkPerHour: dec(perHour), Basis: Estimated}
	}
	costs := []WorkCost{mk("Offline", "0.63", "87050160"), mk("Server", "0.71", "77780880")}
	if got := len(BestWorkCostPerOffer(costs)); got != 2 {
		t.Errorf("BestWorkCostPerOffer kept %d figures of 2 scenarios", got)
	}
	if got := len(CheapestPerWorkloadAndBilling(costs)); got != 2 {
		t.Errorf("CheapestPerWorkloadAndBilling kept %d figures of 2 scenarios", got)
	}
	s := Scenario{Workloads: []string{"mlperf-llama2-70b@Server"}}
	if c := bestWorkCost(s, costs[0].OfferKey, costs); c == nil || c.Scenario != "Server" {
		t.Errorf("a scenario scoring Server got %+v", c)
	}
	if c := bestWorkCost(Scenario{Workloads: []string{"mlperf-llama2-70b"}}, costs[0].OfferKey, costs); c != nil {
		t.Errorf("a bare workload id took the %s figure; it names only runs without a scenario", c.Scenario)
	}
	if sp, ok := MeasuredSpeed(costs, "mlperf-llama2-70b@Server", "aws/p5.48xlarge"); !ok || sp.WorkPerHour.String() != "77780880" {
		t.Errorf("the Server speed is %v (%v), want the Server figure, though Offline's is higher", sp.WorkPerHour, ok)
	}
}

// A system with two entries of one workload in a round (MLPerf's bert-99 and
// bert-99.9: two accuracy targets, one system) counts once in the median, by
// its slower entry: three systems, not four results.
func TestPickPublished_EachSystemOnce(t *testing.T) {
	r99 := sysRun(1, "v3.0", "2023-04-04", "Offline", "A", h100, 8, "400")
	r999 := sysRun(2, "v3.0", "2023-04-04", "Offline", "A", h100, 8, "100")
	b := sysRun(3, "v3.0", "2023-04-04", "Offline", "B", h100, 8, "300")
	c := sysRun(4, "v3.0", "2023-04-04", "Offline", "C", h100, 8, "200")
	got, n := pickPublished([]catalog.BenchmarkRun{r99, r999, b, c})
	if n != 3 {
		t.Errorf("%d systems, want 3 (A once)", n)
	}
	// Systems by speed: A (its slower entry, 100), C 200, B 300: the lower
	// median is C. Counting A twice (100, 200, 300, 400) gave C too, but with
	// A's 400 dropped, a fourth system D at 150 tells them apart.
	if got.System != "C" {
		t.Errorf("median system %s, want C", got.System)
	}
	d := sysRun(5, "v3.0", "2023-04-04", "Offline", "D", h100, 8, "150")
	got, n = pickPublished([]catalog.BenchmarkRun{r99, r999, b, c, d})
	// A 100, D 150, C 200, B 300: lower median D; counting A twice (100, 150,
	// 200, 300, 400) gives C.
	if n != 4 || got.System != "D" {
		t.Errorf("median %s of %d, want D of 4", got.System, n)
	}
}
