package compare

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

var dec = catalog.Dec

func workloads(t *testing.T) *catalog.WorkloadRegistry {
	t.Helper()
	r, err := catalog.NewWorkloadRegistry([]catalog.Workload{
		{ID: "llm-inference-8b", Metric: "throughput", Unit: "tokens/s", HigherIsBetter: true, CostPer: dec("1000000"), CostUnit: "1M tokens"},
		{ID: "sdxl-inference", Metric: "throughput", Unit: "images/s", HigherIsBetter: true, CostPer: dec("1000"), CostUnit: "1,000 images"},
		{ID: "blender-render", Metric: "render_time", Unit: "s/frame", CostPer: dec("1"), CostUnit: "frame"},
		{ID: "resnet50-train", Metric: "throughput", Unit: "images/s", HigherIsBetter: true, CostPer: dec("1281167"), CostUnit: "ImageNet epoch (1,281,167 images)"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func gpuType(p catalog.Provider, id, model string, count int, share string) catalog.InstanceType {
	return catalog.InstanceType{Provider: p, ID: id, Generation: "current", Source: "test",
		Accelerators: []catalog.Accelerator{{Kind: catalog.KindGPU, Model: model, Count: count, Share: dec(share)}}}
}

func hourly(p catalog.Provider, typ, region string, b catalog.BillingKind, amount string, cur catalog.Currency) catalog.Offer {
	return catalog.Offer{Provider: p, InstanceType: typ, Region: region, Billing: b,
		Price: catalog.Price{Amount: dec(amount), Currency: cur, Unit: catalog.PerHour}, Availability: catalog.Available,
		Source: "test", FetchedAt: time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)}
}

func run(file string, line int, typ, workload, unit, value string, gpus int) catalog.BenchmarkRun {
	return catalog.BenchmarkRun{File: file, Line: line, Submitter: "Alice", RunDate: "2025-06-01", Provider: catalog.AWS,
		InstanceType: typ, GPUCountUsed: gpus, Workload: workload, Unit: unit, Value: dec(value),
		HigherIsBetter: !strings.HasPrefix(unit, "s/"), SourceURL: "https://example.org/" + typ}
}

func snapshot(types []catalog.InstanceType, offers ...catalog.Offer) *catalog.Snapshot {
	return &catalog.Snapshot{Schema: catalog.SchemaVersion,
		FX:        catalog.FXTable{Base: catalog.USD, Date: "2025-11-28", Source: "test", Rates: map[catalog.Currency]decimal.Decimal{catalog.CNY: dec("7.2")}},
		Instances: types, Offers: offers}
}

// The worked example: 55.04 USD/h at 1000 tokens/s is 55.04 USD per
// 3,600,000 tokens, 15.288888… USD per 1M tokens, rounded to 6 places.
func TestCostPerWork_MeasuredExactDecimals(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{gpuType(catalog.AWS, "p4d.24xlarge", "nvidia-a100-sxm-40gb", 8, "1")},
		hourly(catalog.AWS, "p4d.24xlarge", "us-east-1", catalog.OnDemand, "55.04", catalog.USD))
	r := run("data/benchmarks/a.csv", 2, "p4d.24xlarge", "llm-inference-8b", "tokens/s", "1000", 8)
	got := CostPerWork(snap, []catalog.BenchmarkRun{r}, workloads(t))
	want := []WorkCost{{
		OfferKey: "aws/p4d.24xlarge/us-east-1//on_demand", Provider: catalog.AWS, InstanceType: "p4d.24xlarge",
		Region: "us-east-1", Billing: catalog.OnDemand, Workload: "llm-inference-8b",
		PriceUSDPerHour: dec("55.04"), WorkPerHour: dec("3600000"), CostPerUnit: dec("15.288889"),
		UnitLabel: "USD per 1M tokens", Basis: Measured, RunRef: "data/benchmarks/a.csv:2",
		SourceURL: "https://example.org/p4d.24xlarge",
	}}
	wantWhy := "cost_measured(run=data/benchmarks/a.csv:2, value=1000, unit=tokens/s, who=Alice, 2025-06-01, gpus=8 GPU)" +
		"[cost_rate(price=55.04 USD/h, billing=on_demand, work_per_hour=3600000, work=tokens)]"
	if len(got) == 1 && rs(got[0].Reason) != wantWhy {
		t.Errorf("reason\n got %s\nwant %s", rs(got[0].Reason), wantWhy)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(WorkCost{}, "Reason")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got[0].CostPerUnit.String() != "15.288889" {
		t.Errorf("cost = %s, want 15.288889", got[0].CostPerUnit)
	}
}

func TestCostPerWork_Arithmetic(t *testing.T) {
	tests := []struct {
		name     string
		offer    catalog.Offer
		workload string
		unit     string
		value    string
		cost     string
		perHour  string
		price    string
	}{
		// 3.06 USD/h, 40 s per frame: 90 frames per hour, 0.034 USD per frame.
		{"SecondsPerFrame", hourly(catalog.AWS, "t", "r", catalog.OnDemand, "3.06", catalog.USD), "blender-render", "s/frame", "40", "0.034", "90", "3.06"},
		// 1.006 USD/h, 0.5 images/s: 1800 images per hour, 0.558889 USD per 1,000 images.
		{"ImagesPerThousand", hourly(catalog.AWS, "t", "r", catalog.Spot, "1.006", catalog.USD), "sdxl-inference", "images/s", "0.5", "0.558889", "1800", "1.006"},
		// 32.7726 USD/h, 2500 images/s: one ImageNet epoch (1,281,167 images) takes
		// 512.4668 s: 4.6652415138 USD, 4.665242 rounded.
		{"PerEpoch", hourly(catalog.AWS, "t", "r", catalog.OnDemand, "32.7726", catalog.USD), "resnet50-train", "images/s", "2500", "4.665242", "9000000", "32.7726"},
		// 10 CNY/h at 7.2 CNY per USD = 1.38888889 USD/h (FX rounds to 8 places);
		// 100 tokens/s = 360,000 tokens/h; 3.858025 USD per 1M tokens.
		{"CNYThroughFX", hourly(catalog.Alibaba, "t", "r", catalog.OnDemand, "10", catalog.CNY), "llm-inference-8b", "tokens/s", "100", "3.858025", "360000", "1.38888889"},
		// 730 USD a month is 1 USD/h.
		{"Monthly", func() catalog.Offer {
			o := hourly(catalog.Tencent, "t", "r", catalog.SubscriptionMonth, "730", catalog.USD)
			o.Price.Unit = catalog.PerMonth
			return o
		}(), "llm-inference-8b", "tokens/s", "1000", "0.277778", "3600000", "1"},
		// 8760 USD upfront for a year, nothing hourly: 1 USD/h over the term.
		{"AllUpfront", func() catalog.Offer {
			o := hourly(catalog.AWS, "t", "r", catalog.Reserved1yAllUpfront, "0", catalog.USD)
			o.Price.Upfront = catalog.DecPtr("8760")
			return o
		}(), "llm-inference-8b", "tokens/s", "250", "1.111111", "900000", "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := gpuType(tt.offer.Provider, "t", "m", 1, "1")
			snap := snapshot([]catalog.InstanceType{typ}, tt.offer)
			r := run("a.csv", 2, "t", tt.workload, tt.unit, tt.value, 1)
			r.Provider = tt.offer.Provider
			got := CostPerWork(snap, []catalog.BenchmarkRun{r}, workloads(t))
			if len(got) != 1 {
				t.Fatalf("got %d costs, want 1: %+v", len(got), got)
			}
			c := got[0]
			if c.CostPerUnit.String() != tt.cost || c.WorkPerHour.String() != tt.perHour || !c.PriceUSDPerHour.Equal(dec(tt.price)) {
				t.Errorf("cost %s per hour %s price %s; want %s, %s, %s", c.CostPerUnit, c.WorkPerHour, c.PriceUSDPerHour, tt.cost, tt.perHour, tt.price)
			}
		})
	}
}

// A type without its own run gets an estimate from a run on the same GPU model,
// scaled linearly by GPU count and labelled as such; a type with a run gets only
// measured figures; smaller types, slices of a GPU and other models get nothing.
func TestCostPerWork_Estimates(t *testing.T) {
	types := []catalog.InstanceType{
		gpuType(catalog.AWS, "g5.xlarge", "nvidia-a10g-24gb", 1, "1"),
		gpuType(catalog.AWS, "g5.12xlarge", "nvidia-a10g-24gb", 4, "1"),
		gpuType(catalog.AWS, "g5.48xlarge", "nvidia-a10g-24gb", 8, "1"),
		gpuType(catalog.AWS, "g6.xlarge", "nvidia-l4-24gb", 1, "1"),
		gpuType(catalog.AWS, "g6f.large", "nvidia-a10g-24gb", 1, "0.125"), // same model only to prove slices are skipped
	}
	snap := snapshot(types,
		hourly(catalog.AWS, "g5.xlarge", "us-east-1", catalog.OnDemand, "1.006", catalog.USD),
		hourly(catalog.AWS, "g5.12xlarge", "us-east-1", catalog.OnDemand, "5.672", catalog.USD),
		hourly(catalog.AWS, "g5.48xlarge", "us-east-1", catalog.OnDemand, "16.288", catalog.USD),
		hourly(catalog.AWS, "g5.48xlarge", "us-east-1", catalog.Spot, "6.5", catalog.USD),
		hourly(catalog.AWS, "g6.xlarge", "us-east-1", catalog.OnDemand, "0.8048", catalog.USD),
		hourly(catalog.AWS, "g6f.large", "us-east-1", catalog.OnDemand, "0.2", catalog.USD),
	)
	runs := []catalog.BenchmarkRun{run("data/benchmarks/g5.csv", 3, "g5.12xlarge", "llm-inference-8b", "tokens/s", "480", 4)}
	got := CostPerWork(snap, runs, workloads(t))
	type row struct {
		Offer, Basis, Cost, PerHour string
	}
	var rows []row
	for _, c := range got {
		rows = append(rows, row{c.OfferKey, string(c.Basis), c.CostPerUnit.String(), c.WorkPerHour.String()})
	}
	want := []row{
		// 5.672 / (480 × 3600) × 1e6
		{"aws/g5.12xlarge/us-east-1//on_demand", "measured", "3.282407", "1728000"},
		// 960 tokens/s estimated: 16.288 / 3,456,000 × 1e6
		{"aws/g5.48xlarge/us-east-1//on_demand", "estimated", "4.712963", "3456000"},
		{"aws/g5.48xlarge/us-east-1//spot", "estimated", "1.880787", "3456000"},
		// no g5.xlarge: estimates never scale down (the job may not fit one GPU)
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, c := range got {
		if c.InstanceType == "g5.48xlarge" && c.Billing == catalog.OnDemand {
			wantWhy := "cost_estimated_scaled(run=data/benchmarks/g5.csv:3, value=480, unit=tokens/s, who=Alice, 2025-06-01, on=g5.12xlarge, target=8 GPU, used=4 GPU)" +
				"[cost_rate(price=16.288 USD/h, billing=on_demand, work_per_hour=3456000, work=tokens)]"
			if rs(c.Reason) != wantWhy || c.RunRef != "data/benchmarks/g5.csv:3" {
				t.Errorf("reason = %s\nwant     %s", rs(c.Reason), wantWhy)
			}
		}
	}
}

// Time per unit of work scales the other way: 8 GPUs take half the time of 4.
func TestCostPerWork_EstimateTimePerWork(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{
		gpuType(catalog.AWS, "a", "m", 4, "1"), gpuType(catalog.AWS, "b", "m", 8, "1"),
	}, hourly(catalog.AWS, "a", "r", catalog.OnDemand, "3.6", catalog.USD), hourly(catalog.AWS, "b", "r", catalog.OnDemand, "7.2", catalog.USD))
	got := CostPerWork(snap, []catalog.BenchmarkRun{run("x.csv", 2, "a", "blender-render", "s/frame", "20", 4)}, workloads(t))
	if len(got) != 2 {
		t.Fatalf("got %d costs: %+v", len(got), got)
	}
	// a: 3.6 USD/h × 20 s / 3600 s = 0.02 USD per frame; b: 10 s per frame at
	// 7.2 USD/h = 0.02 USD per frame (linear scaling keeps cost per frame).
	for _, c := range got {
		if c.CostPerUnit.String() != "0.02" {
			t.Errorf("%s: cost %s, want 0.02", c.OfferKey, c.CostPerUnit)
		}
	}
	if got[1].WorkPerHour.String() != "360" || got[1].Basis != Estimated {
		t.Errorf("b = %+v", got[1])
	}
}

// A run that used part of the instance is charged the whole instance, and says so;
// two runs on one type give two measured figures.
func TestCostPerWork_PartialAndSeveralRuns(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{gpuType(catalog.AWS, "p5.48xlarge", "nvidia-h100-sxm-80gb", 8, "1")},
		hourly(catalog.AWS, "p5.48xlarge", "us-east-1", catalog.OnDemand, "55.04", catalog.USD))
	runs := []catalog.BenchmarkRun{
		run("b.csv", 4, "p5.48xlarge", "llm-inference-8b", "tokens/s", "2000", 8),
		run("b.csv", 2, "p5.48xlarge", "llm-inference-8b", "tokens/s", "1000", 1),
	}
	got := CostPerWork(snap, runs, workloads(t))
	if len(got) != 2 || got[0].RunRef != "b.csv:2" || got[1].RunRef != "b.csv:4" {
		t.Fatalf("got %+v", got)
	}
	if !strings.Contains(rs(got[0].Reason), "[cost_partial_instance(used=1 GPU, all=8 GPU); cost_rate(") {
		t.Errorf("reason = %s", rs(got[0].Reason))
	}
	if got[0].CostPerUnit.String() != "15.288889" || got[1].CostPerUnit.String() != "7.644444" {
		t.Errorf("costs %s, %s", got[0].CostPerUnit, got[1].CostPerUnit)
	}
}

// Offers that cannot be priced in USD, runs on unknown types or workloads, and a
// nil snapshot give nothing rather than failing.
func TestCostPerWork_Skips(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{gpuType(catalog.Huawei, "x", "m", 1, "1")},
		hourly(catalog.Huawei, "x", "r", catalog.OnDemand, "1", catalog.EUR), // no EUR rate
		hourly(catalog.Huawei, "x", "r2", catalog.OnDemand, "0", catalog.USD))
	runs := []catalog.BenchmarkRun{
		func() catalog.BenchmarkRun {
			r := run("a.csv", 2, "x", "llm-inference-8b", "tokens/s", "1", 1)
			r.Provider = catalog.Huawei
			return r
		}(),
		run("a.csv", 3, "nope", "llm-inference-8b", "tokens/s", "1", 1),
		run("a.csv", 4, "x", "nope", "tokens/s", "1", 1),
	}
	if got := CostPerWork(snap, runs, workloads(t)); len(got) != 0 {
		t.Errorf("got %+v, want none", got)
	}
	if got := CostPerWork(nil, runs, workloads(t)); got != nil {
		t.Errorf("nil snapshot gave %+v", got)
	}
}

// Among runs on the same GPU model, the estimate scales the one with the closest
// GPU count, and says so when no scaling is needed.
func TestCostPerWork_EstimateBasisChoice(t *testing.T) {
	snap := snapshot([]catalog.InstanceType{
		gpuType(catalog.AWS, "g5.xlarge", "nvidia-a10g-24gb", 1, "1"),
		gpuType(catalog.AWS, "g5.2xlarge", "nvidia-a10g-24gb", 1, "1"),
		gpuType(catalog.AWS, "g5.12xlarge", "nvidia-a10g-24gb", 4, "1"),
		gpuType(catalog.AWS, "g5.48xlarge", "nvidia-a10g-24gb", 8, "1"),
	}, hourly(catalog.AWS, "g5.2xlarge", "us-east-1", catalog.OnDemand, "1.212", catalog.USD),
		hourly(catalog.AWS, "g5.48xlarge", "us-east-1", catalog.OnDemand, "16.288", catalog.USD))
	runs := []catalog.BenchmarkRun{
		run("a.csv", 2, "g5.xlarge", "llm-inference-8b", "tokens/s", "120", 1),
		run("a.csv", 3, "g5.12xlarge", "llm-inference-8b", "tokens/s", "400", 4),
	}
	got := CostPerWork(snap, runs, workloads(t))
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	if got[0].InstanceType != "g5.2xlarge" || got[0].RunRef != "a.csv:2" ||
		!strings.HasPrefix(rs(got[0].Reason), "cost_estimated_same(") || !strings.Contains(rs(got[0].Reason), "gpus=1 GPU)") {
		t.Errorf("g5.2xlarge = %+v", got[0])
	}
	if got[1].InstanceType != "g5.48xlarge" || got[1].RunRef != "a.csv:3" || !strings.Contains(rs(got[1].Reason), "target=8 GPU, used=4 GPU") {
		t.Errorf("g5.48xlarge = %+v", got[1])
	}
}
