package sitegen

import (
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// Published results (MLPerf rounds, NVIDIA's TensorRT-LLM tables, Lambda's
// benchmark: runs with a round, or on a system that is not an instance type)
// are shown apart from a team's uploads: compare prices them under stricter
// rules (compare/cost_published.go), and there are thousands of them. Instance
// and GPU pages show the on-demand cost per unit of work each one gives, with
// the round, scenario, system, submitter and GPU count it comes from, and say
// "no result for this count" where results exist only for other counts; each
// workload has a page of its results with their provenance
// (benchmarks/<workload>.html); the benchmarks page links them.

// published is the published part of a build's benchmarks, derived once.
type published struct {
	costs []compare.WorkCost // on-demand figures from published results
	gaps  []compare.CountGap
	runs  []benchRun // every published result, in upload order
	// models are the GPU models with a published result of their own.
	models map[string]bool
	pages  []*pubWorkload // one per workload with published results, by id
}

// suite is the family of sources a round belongs to, for grouping and labels
// (message "suite.<id>").
func suite(round string) string {
	switch {
	case strings.HasPrefix(round, "MLPerf Inference"):
		return "mlperf-inference"
	case strings.HasPrefix(round, "MLPerf Training"):
		return "mlperf-training"
	case strings.Contains(round, "TensorRT-LLM"):
		return "trtllm"
	case strings.HasPrefix(round, "Lambda"):
		return "lambda"
	}
	return "other"
}

// suites lists the suite ids in display order.
var suites = []string{"mlperf-inference", "mlperf-training", "trtllm", "lambda", "other"}

func suiteRank(id string) int {
	for i, s := range suites {
		if s == id {
			return i
		}
	}
	return len(suites)
}

func newPublished(x *extras, runs []catalog.BenchmarkRun) *published {
	p := &published{models: map[string]bool{}}
	for _, c := range x.costs {
		if c.Published != nil && c.Billing == catalog.OnDemand {
			p.costs = append(p.costs, c)
		}
	}
	p.gaps = compare.CountGaps(x.m.snap, runs, x.workloads)
	byWorkload := map[string]*pubWorkload{}
	for _, r := range runs {
		if !r.Published() {
			continue
		}
		v := x.runView(r)
		if v.GPUModel == "" {
			v.GPUModel, v.GPUName = r.AcceleratorModel, x.gpuName(r.AcceleratorModel)
		}
		v.GPUs = r.AcceleratorCount
		p.runs = append(p.runs, v)
		p.models[r.AcceleratorModel] = true
		w := byWorkload[r.Workload]
		if w == nil {
			w = &pubWorkload{ID: r.Workload, Path: "benchmarks/" + slugify(r.Workload) + ".html"}
			if wl, ok := x.workloads.Workload(r.Workload); ok {
				w.UnitLabel = wl.CostLabel()
			}
			byWorkload[r.Workload] = w
		}
		w.Runs = append(w.Runs, v)
	}
	for _, w := range byWorkload {
		w.finish(x, p.costs)
		p.pages = append(p.pages, w)
	}
	sort.Slice(p.pages, func(i, j int) bool {
		a, b := p.pages[i], p.pages[j]
		if suiteRank(a.Suite) != suiteRank(b.Suite) {
			return suiteRank(a.Suite) < suiteRank(b.Suite)
		}
		return a.ID < b.ID
	})
	return p
}

func (x *extras) gpuName(model string) string {
	if g, ok := x.m.refModel(model); ok && g.Name != "" {
		return g.Name
	}
	return model
}

// pubCost is one cost figure from a published result as the pages show it:
// the cheapest on-demand offer of an instance type for one workload and
// scenario.
type pubCost struct {
	C        compare.WorkCost
	P        *compare.PublishedBasis
	Type     *typeView
	Region   catalog.Region
	Measured bool
	Source   string // http(s) source of the result
	GPUName  string // the result's GPU model, by its reference name
	Suite    string
}

// Cost is the figure for the money template function.
func (c pubCost) Cost() *decimal.Decimal { return &c.C.CostPerUnit }

// Price is the offer's USD per hour for the money template function.
func (c pubCost) Price() *decimal.Decimal { return &c.C.PriceUSDPerHour }

// Shown is the result the figure comes from, as the pages print it.
func (c pubCost) Shown() string { return shownValue(c.P.Value) }

// Shown is the run's result as the pages print it.
func (a benchRun) Shown() string { return shownValue(a.R.Value) }

// shownValue is a result as the pages print it: as published, or to two
// decimals where the source's figure carries more than four (MLPerf
// Training's time to train of 5.490097916666667 minutes reads 5.49; the
// upload keeps every digit).
func shownValue(d decimal.Decimal) string {
	if d.Exponent() < -4 {
		return d.Round(2).String()
	}
	return d.String()
}

func (x *extras) pubCostView(c compare.WorkCost) pubCost {
	v := pubCost{C: c, P: c.Published, Type: x.m.typeByKey[string(c.Provider)+"/"+c.InstanceType],
		Region: x.m.region(c.Provider, c.Region), Measured: c.Basis == compare.Measured,
		GPUName: x.gpuName(c.Published.GPUModel), Suite: suite(c.Published.Round)}
	if isHTTPURL(c.SourceURL) {
		v.Source = c.SourceURL
	}
	return v
}

// pubGap is "no result for this count" as the pages show it: for one workload
// and scenario, the counts that have results and the instance types (of one
// count) that have none.
type pubGap struct {
	Workload, Scenario string
	GPUName            string
	Counts             []int
	GPUCount           int
	Types              []*typeView
	Suite              string
}

// CountsText is the counts with results, "1, 8".
func (g pubGap) CountsText() string { return joinInts(g.Counts) }

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// pubGroup is the rows of one suite.
type pubGroup struct {
	Suite string
	Rows  []pubRow
	Gaps  []pubGap
}

// pubRow is one workload's costs from one result source on one instance
// type: a cost per scenario where the scenarios share the round, system,
// submitter and count (NVIDIA's tables give ten input and output lengths from
// one system), else one cost.
type pubRow struct {
	First pubCost   // the shared facts: workload, type, round, system, basis
	Items []pubCost // one per scenario, in order
}

// Merged says the row holds several scenarios.
func (r pubRow) Merged() bool { return len(r.Items) > 1 }

// rows merges consecutive costs of one workload, type and result source.
func rows(costs []pubCost) []pubRow {
	var out []pubRow
	for _, c := range costs {
		if n := len(out); n > 0 {
			f := out[n-1].First
			if f.C.Workload == c.C.Workload && f.C.Provider == c.C.Provider && f.C.InstanceType == c.C.InstanceType &&
				f.P.Round == c.P.Round && f.P.System == c.P.System && f.P.Submitter == c.P.Submitter &&
				f.P.GPUCount == c.P.GPUCount && f.C.Basis == c.C.Basis && f.C.Scenario != "" {
				out[n-1].Items = append(out[n-1].Items, c)
				continue
			}
		}
		out = append(out, pubRow{First: c, Items: []pubCost{c}})
	}
	return out
}

// pubSection is the published results of an instance type or a GPU model.
type pubSection struct {
	Groups []pubGroup
	// OnGPU: the section is a GPU page's (its rows name their instance type).
	OnGPU bool
	// None says no published source has a result for the GPU model at all.
	None    bool
	GPUName string
}

// group sorts costs and gaps into suites, in display order.
func group(costs []pubCost, gaps []pubGap) []pubGroup {
	by := map[string]*pubGroup{}
	get := func(s string) *pubGroup {
		if by[s] == nil {
			by[s] = &pubGroup{Suite: s}
		}
		return by[s]
	}
	bySuite := map[string][]pubCost{}
	for _, c := range costs {
		get(c.Suite)
		bySuite[c.Suite] = append(bySuite[c.Suite], c)
	}
	for s, cs := range bySuite {
		by[s].Rows = rows(cs)
	}
	for _, gp := range gaps {
		g := get(gp.Suite)
		g.Gaps = append(g.Gaps, gp)
	}
	var out []pubGroup
	for _, s := range suites {
		if g := by[s]; g != nil {
			out = append(out, *g)
		}
	}
	return out
}

// workloadSuite is the suite of a workload's results (its first result's).
func (p *published) workloadSuite(workload string) string {
	for _, w := range p.pages {
		if w.ID == workload {
			return w.Suite
		}
	}
	return "other"
}

// instanceSection is an instance type's published costs (the cheapest
// on-demand offer per workload and scenario) and its count gaps.
func (x *extras) instanceSection(t *typeView) *pubSection {
	p := x.pub
	if p == nil {
		return nil
	}
	key := t.T.Key()
	var mine []compare.WorkCost
	for _, c := range p.costs {
		if string(c.Provider)+"/"+c.InstanceType == key {
			mine = append(mine, c)
		}
	}
	var costs []pubCost
	for _, c := range cheapestByKey(mine, func(c compare.WorkCost) string { return c.WorkKey() }) {
		costs = append(costs, x.pubCostView(c))
	}
	var gaps []pubGap
	for _, g := range p.gaps {
		if string(g.Provider)+"/"+g.InstanceType == key {
			gaps = append(gaps, pubGap{Workload: g.Workload, Scenario: g.Scenario, GPUName: x.gpuName(g.GPUModel),
				Counts: g.Counts, GPUCount: g.GPUCount, Types: []*typeView{t}, Suite: p.workloadSuite(g.Workload)})
		}
	}
	if len(costs) == 0 && len(gaps) == 0 {
		return nil
	}
	return &pubSection{Groups: group(costs, gaps)}
}

// gpuSection is a GPU model's published costs: per workload, scenario and GPU
// count, the cheapest on-demand instance type; the gaps per workload, scenario
// and count with the types that lack a result; or None.
func (x *extras) gpuSection(model string) *pubSection {
	p := x.pub
	if p == nil {
		return nil
	}
	s := &pubSection{GPUName: x.gpuName(model), None: !p.models[model], OnGPU: true}
	if s.None {
		return s
	}
	var mine []compare.WorkCost
	for _, c := range p.costs {
		if t := x.m.typeByKey[string(c.Provider)+"/"+c.InstanceType]; t != nil && t.GPUModel == model {
			mine = append(mine, c)
		}
	}
	var costs []pubCost
	for _, c := range cheapestByKey(mine, func(c compare.WorkCost) string {
		return c.WorkKey() + "\x00" + strconv.Itoa(c.Published.GPUCount)
	}) {
		costs = append(costs, x.pubCostView(c))
	}
	gaps := map[string]*pubGap{}
	var order []string
	for _, g := range p.gaps {
		t := x.m.typeByKey[string(g.Provider)+"/"+g.InstanceType]
		if t == nil || g.GPUModel != model {
			continue
		}
		k := g.WorkKey() + "\x00" + strconv.Itoa(g.GPUCount)
		if gaps[k] == nil {
			gaps[k] = &pubGap{Workload: g.Workload, Scenario: g.Scenario, GPUName: s.GPUName, Counts: g.Counts,
				GPUCount: g.GPUCount, Suite: p.workloadSuite(g.Workload)}
			order = append(order, k)
		}
		gaps[k].Types = append(gaps[k].Types, t)
	}
	sort.Strings(order)
	var gl []pubGap
	for _, k := range order {
		gl = append(gl, *gaps[k])
	}
	s.Groups = group(costs, gl)
	return s
}

// cheapestByKey keeps the cheapest cost per key (the first of equal ones).
func cheapestByKey(costs []compare.WorkCost, key func(compare.WorkCost) string) []compare.WorkCost {
	best := compare.CheapestWorkCosts(costs, key)
	out := make([]compare.WorkCost, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	// By workload, count and instance type, then scenario: the scenarios of one
	// source on one type are neighbours (rows merges them).
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Workload != b.Workload:
			return a.Workload < b.Workload
		case a.Published.GPUCount != b.Published.GPUCount:
			return a.Published.GPUCount < b.Published.GPUCount
		case a.Provider != b.Provider:
			return a.Provider < b.Provider
		case a.InstanceType != b.InstanceType:
			return a.InstanceType < b.InstanceType
		case a.Scenario != b.Scenario:
			return a.Scenario < b.Scenario
		}
		return compare.CostLess(a, b)
	})
	return out
}
