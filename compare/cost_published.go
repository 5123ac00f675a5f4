package compare

import (
	"maps"
	"slices"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Published results (MLPerf rounds, vendors' performance tables: runs with a
// round, or run on a system that is not an instance type of the catalog) give
// cost per unit of work under stricter rules than a team's uploads:
//
//   - measured only where the result was run on the instance type itself;
//   - otherwise estimated only from a result on the same GPU model and the same
//     number of GPUs as the instance type has: never scaled by count, never
//     across GPU models. Where results exist for the model but not for the
//     instance's count, CountGaps says so instead of dividing;
//   - only within one workload and scenario: Offline and Server figures are
//     never mixed (WorkCost.WorkKey);
//   - never from a suspect or synthetic price: a headline cost comes only from
//     a price GPU Atlas believes.
//
// Among several results for the same model and count, the latest round is used
// and in it the lower median: the slower of the middle results, so that one
// vendor-tuned record does not set the figure. The figure names its round,
// system, submitter and count (PublishedBasis).

// Codes of PublishedBasis: why a published result applies to an instance type.
const (
	// CodeMeasuredOnType: the result was run on this instance type.
	CodeMeasuredOnType = "published_measured_on_type"
	// CodeSameModelAndCount: the result was run on another system with as many
	// GPUs of the same model.
	CodeSameModelAndCount = "published_same_model_and_count"
)

// PublishedBasis is where a cost figure from a published result comes from, as
// codes and figures: the site and the CLI word it.
type PublishedBasis struct {
	Code      string `json:"code"`
	Round     string `json:"round"`
	Benchmark string `json:"benchmark,omitempty"`
	System    string `json:"system"`
	Submitter string `json:"submitter"`
	RunDate   string `json:"run_date"`
	// GPUModel and GPUCount are the accelerators of the system the result was
	// run on.
	GPUModel string          `json:"gpu_model"`
	GPUCount int             `json:"gpu_count"`
	Value    decimal.Decimal `json:"value"`
	Unit     string          `json:"unit"`
	// VendorTuned: the accelerator's vendor ran the result (NVIDIA's
	// submissions and tables).
	VendorTuned bool `json:"vendor_tuned,omitempty"`
	// Results is how many systems of the round have a result for the model,
	// count and scenario (a system with several entries, such as MLPerf's 99%
	// and 99.9% accuracy targets, counts once); Value is their lower median.
	Results int `json:"results"`
}

// WorkKey is what cost figures are compared within: the workload, and the
// scenario where there is one ("mlperf-llama2-70b@Offline"). Figures of
// different keys are never ranked against each other. Scenario workloads
// (data/scenarios.yaml) name the same key.
func (c WorkCost) WorkKey() string { return WorkKey(c.Workload, c.Scenario) }

// WorkKey joins a workload and a scenario into a work key.
func WorkKey(workload, scenario string) string {
	if scenario == "" {
		return workload
	}
	return workload + "@" + scenario
}

// CountGap says that published results exist for an instance type's GPU model,
// workload and scenario, but none for its number of GPUs: "no result for this
// count", rather than a figure divided or multiplied from another count.
type CountGap struct {
	Provider     catalog.Provider `json:"provider"`
	InstanceType string           `json:"instance_type"`
	Workload     string           `json:"workload"`
	Scenario     string           `json:"scenario,omitempty"`
	GPUModel     string           `json:"gpu_model"`
	GPUCount     int              `json:"gpu_count"` // the instance type's
	// Counts are the GPU counts that have results, ascending.
	Counts []int `json:"counts"`
}

// WorkKey is the gap's workload and scenario (WorkCost.WorkKey).
func (g CountGap) WorkKey() string { return WorkKey(g.Workload, g.Scenario) }

// publishedIndex holds the published results by what they can be compared with.
type publishedIndex struct {
	// bySystem: workload, scenario, GPU model, count -> results.
	bySystem map[pubKey][]catalog.BenchmarkRun
	// onType: instance key, workload, scenario -> results run on that type.
	onType map[[3]string][]catalog.BenchmarkRun
	// keys: GPU model -> the work keys with results for it, and their counts.
	keys map[string]map[[2]string]map[int]bool
}

type pubKey struct {
	workload, scenario, model string
	count                     int
}

func newPublishedIndex(runs []catalog.BenchmarkRun, workloads *catalog.WorkloadRegistry) publishedIndex {
	ix := publishedIndex{bySystem: map[pubKey][]catalog.BenchmarkRun{}, onType: map[[3]string][]catalog.BenchmarkRun{},
		keys: map[string]map[[2]string]map[int]bool{}}
	for _, r := range runs {
		if !r.Published() {
			continue
		}
		if _, ok := workloads.Workload(r.Workload); !ok {
			continue
		}
		if r.OnInstance() {
			k := [3]string{r.InstanceKey(), r.Workload, r.Scenario}
			ix.onType[k] = append(ix.onType[k], r)
		}
		if r.AcceleratorModel == "" || r.AcceleratorCount < 1 {
			continue
		}
		k := pubKey{r.Workload, r.Scenario, r.AcceleratorModel, r.AcceleratorCount}
		ix.bySystem[k] = append(ix.bySystem[k], r)
		wk := [2]string{r.Workload, r.Scenario}
		if ix.keys[r.AcceleratorModel] == nil {
			ix.keys[r.AcceleratorModel] = map[[2]string]map[int]bool{}
		}
		if ix.keys[r.AcceleratorModel][wk] == nil {
			ix.keys[r.AcceleratorModel][wk] = map[int]bool{}
		}
		ix.keys[r.AcceleratorModel][wk][r.AcceleratorCount] = true
	}
	return ix
}

// workKeys lists the workload and scenario pairs of an instance type: those
// with results for its GPU model and those measured on it, sorted.
func (ix publishedIndex) workKeys(t catalog.InstanceType, model string) [][2]string {
	set := map[[2]string]bool{}
	for wk := range ix.keys[model] {
		set[wk] = true
	}
	for k := range ix.onType {
		if k[0] == t.Key() {
			set[[2]string{k[1], k[2]}] = true
		}
	}
	out := slices.Collect(maps.Keys(set))
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// basisFor picks the published result an instance type's cost of one workload
// and scenario comes from: one run on the type itself, else one on as many
// GPUs of its model. ok is false when there is none.
func (ix publishedIndex) basisFor(t catalog.InstanceType, wk [2]string) (catalog.BenchmarkRun, Basis, int, bool) {
	if rs := ix.onType[[3]string{t.Key(), wk[0], wk[1]}]; len(rs) > 0 {
		r, n := pickPublished(rs)
		return r, Measured, n, true
	}
	model, whole := wholeGPUs(t)
	if !whole {
		return catalog.BenchmarkRun{}, "", 0, false
	}
	rs := ix.bySystem[pubKey{wk[0], wk[1], model, t.DeviceCount()}]
	if len(rs) == 0 {
		return catalog.BenchmarkRun{}, "", 0, false
	}
	r, n := pickPublished(rs)
	return r, Estimated, n, true
}

// pickPublished is the result of the latest round (by its latest run date,
// then its name) that is the lower median of that round's systems by speed
// (each system once, by its slowest entry), and how many systems the round
// has. Speed: the value for a rate, its
// inverse for a time per unit of work.
func pickPublished(rs []catalog.BenchmarkRun) (catalog.BenchmarkRun, int) {
	latest := map[string]string{}
	for _, r := range rs {
		if r.RunDate > latest[r.Round] {
			latest[r.Round] = r.RunDate
		}
	}
	round := ""
	for name, d := range latest {
		if round == "" || d > latest[round] || (d == latest[round] && name > round) {
			round = name
		}
	}
	var in []catalog.BenchmarkRun
	for _, r := range rs {
		if r.Round == round {
			in = append(in, r)
		}
	}
	slower := func(a, b catalog.BenchmarkRun) bool {
		if !a.Value.Equal(b.Value) {
			if !a.HigherIsBetter {
				return a.Value.GreaterThan(b.Value)
			}
			return a.Value.LessThan(b.Value)
		}
		return refLess(a, b)
	}
	sort.Slice(in, func(i, j int) bool { return slower(in[i], in[j]) })
	// One result per system: a system with several entries of one workload in
	// a round (MLPerf's bert-99 and bert-99.9 accuracy targets, say) counts
	// once, by its slowest entry, so the median is of systems, not entries.
	seen := map[[2]string]bool{}
	systems := in[:0]
	for _, r := range in {
		k := [2]string{r.Submitter, r.System}
		if r.System == "" {
			k = [2]string{r.Submitter, r.Ref()}
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		systems = append(systems, r)
	}
	return systems[(len(systems)-1)/2], len(systems)
}

// publishedCosts gives every believable offer of an instance type a cost per
// unit of work for each workload and scenario with a published result for it
// (basisFor). offers holds the priced offers per instance type.
func publishedCosts(ix publishedIndex, types map[string]catalog.InstanceType, offers map[string][]catalog.Offer,
	prices map[string]decimal.Decimal, workloads *catalog.WorkloadRegistry) []WorkCost {
	var out []WorkCost
	for _, key := range slices.Sorted(maps.Keys(offers)) {
		t := types[key]
		model, _ := wholeGPUs(t)
		for _, wk := range ix.workKeys(t, model) {
			r, basis, results, ok := ix.basisFor(t, wk)
			if !ok {
				continue
			}
			w, _ := workloads.Workload(wk[0])
			code := CodeSameModelAndCount
			if basis == Measured {
				code = CodeMeasuredOnType
			}
			pb := &PublishedBasis{Code: code, Round: r.Round, Benchmark: r.Benchmark, System: r.System, Submitter: r.Submitter,
				RunDate: r.RunDate, GPUModel: r.AcceleratorModel, GPUCount: r.AcceleratorCount, Value: r.Value, Unit: r.Unit,
				VendorTuned: r.VendorTuned, Results: results}
			used := t.DeviceCount()
			if basis == Measured {
				used = gpusUsed(r, t)
			}
			for _, o := range offers[key] {
				if !o.Leads() || o.Synthetic {
					continue
				}
				// The figures say where the cost comes from; no sentence here.
				c := workCostFigures(o, prices[o.Key()], w, r, used, used, basis)
				c.Scenario, c.Published = wk[1], pb
				c.Reason = reason(ReasonCostPublished, codeList("basis", GroupBasis, string(basis)), quantity("value", r.Value, UnitCount),
					text("unit", r.Unit), text("round", r.Round), text("system", r.System), text("submitter", r.Submitter),
					quantity("gpus", decimal.NewFromInt(int64(r.AcceleratorCount)), UnitGPU)).
					withParts(reason(ReasonCostRate, quantity("price", c.PriceUSDPerHour, UnitUSDHour), codeList("billing", GroupBilling, string(o.Billing)),
						quantity("work_per_hour", c.WorkPerHour, UnitCount), codeList("work", GroupWork, w.Rate.Work)))
				out = append(out, c)
			}
		}
	}
	return out
}

// CountGaps lists, for every instance type of whole GPUs of one model, each
// workload and scenario that has published results for the model but none for
// the type's number of GPUs (and none run on the type itself), sorted by
// instance type, workload and scenario.
func CountGaps(snap *catalog.Snapshot, runs []catalog.BenchmarkRun, workloads *catalog.WorkloadRegistry) []CountGap {
	if snap == nil || workloads == nil {
		return nil
	}
	ix := newPublishedIndex(runs, workloads)
	var out []CountGap
	for _, t := range snap.Instances {
		model, whole := wholeGPUs(t)
		if !whole {
			continue
		}
		for _, wk := range ix.workKeys(t, model) {
			if _, _, _, ok := ix.basisFor(t, wk); ok {
				continue
			}
			counts := slices.Sorted(maps.Keys(ix.keys[model][wk]))
			if len(counts) == 0 {
				continue
			}
			out = append(out, CountGap{Provider: t.Provider, InstanceType: t.ID, Workload: wk[0], Scenario: wk[1],
				GPUModel: model, GPUCount: t.DeviceCount(), Counts: counts})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Provider != b.Provider:
			return a.Provider < b.Provider
		case a.InstanceType != b.InstanceType:
			return a.InstanceType < b.InstanceType
		}
		return a.WorkKey() < b.WorkKey()
	})
	return out
}
