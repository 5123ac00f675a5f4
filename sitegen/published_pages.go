package sitegen

import (
	"sort"

	"github.com/gpuatlas/gpuatlas/compare"
)

// pubWorkload is a workload's page of published results
// (benchmarks/<workload>.html): per scenario each instance type's cheapest
// on-demand cost per unit of work, and links to the results of each scenario,
// which have a page each (benchmarks/<workload>/<scenario>.html): a round of
// MLPerf has hundreds of results, and a page stays small.
type pubWorkload struct {
	ID, Path, UnitLabel string
	Suite               string
	Runs                []benchRun
	Scenarios           []pubScenario
	Results             []*pubResults
	Types               int // instance types with a figure
}

// pubResults is the results of one workload and scenario, with their page.
type pubResults struct {
	Scenario string
	Path     string
	Runs     []benchRun
}

// pubResultsPage is the model of benchmark_results.html.
type pubResultsPage struct {
	W *pubWorkload
	R *pubResults
}

// RunsTable is the scenario's results, for the "pub-runs" template.
func (p pubResultsPage) RunsTable() runsTable {
	return runsTable{ID: "pub-runs", Runs: p.R.Runs}
}

// pubScenario is one scenario's costs on a workload page, cheapest first.
type pubScenario struct {
	Scenario string
	Costs    []pubCost
}

// finish orders the workload's results (scenario, GPU, count, newest round,
// fastest first), takes its suite from them and gathers its costs.
func (w *pubWorkload) finish(x *extras, costs []compare.WorkCost) {
	sort.SliceStable(w.Runs, func(i, j int) bool {
		a, b := w.Runs[i].R, w.Runs[j].R
		switch {
		case a.Scenario != b.Scenario:
			return a.Scenario < b.Scenario
		case w.Runs[i].GPUName != w.Runs[j].GPUName:
			return w.Runs[i].GPUName < w.Runs[j].GPUName
		case a.AcceleratorCount != b.AcceleratorCount:
			return a.AcceleratorCount < b.AcceleratorCount
		case a.RunDate != b.RunDate:
			return a.RunDate > b.RunDate
		case !a.Value.Equal(b.Value):
			return a.Value.GreaterThan(b.Value) == a.HigherIsBetter
		}
		return a.File < b.File || a.File == b.File && a.Line < b.Line
	})
	if len(w.Runs) > 0 {
		w.Suite = suite(w.Runs[0].R.Round)
	}
	for _, r := range w.Runs {
		n := len(w.Results)
		if n == 0 || w.Results[n-1].Scenario != r.R.Scenario {
			name := "results"
			if r.R.Scenario != "" {
				name = slugify(r.R.Scenario)
			}
			w.Results = append(w.Results, &pubResults{Scenario: r.R.Scenario, Path: "benchmarks/" + slugify(w.ID) + "/" + name + ".html"})
			n++
		}
		w.Results[n-1].Runs = append(w.Results[n-1].Runs, r)
	}
	order, by := costsBy(costs, func(c compare.WorkCost) (string, bool) { return c.Scenario, c.Workload == w.ID })
	types := map[string]bool{}
	for _, s := range order {
		ps := pubScenario{Scenario: s}
		for _, c := range compare.CheapestPerInstanceType(by[s]) {
			ps.Costs = append(ps.Costs, x.pubCostView(c))
			types[string(c.Provider)+"/"+c.InstanceType] = true
		}
		w.Scenarios = append(w.Scenarios, ps)
	}
	w.Types = len(types)
}

// workloadPages are the pages of the workloads with published results.
func (x *extras) workloadPages() []page {
	if x.pub == nil {
		return nil
	}
	var out []page
	for _, w := range x.pub.pages {
		out = append(out, page{Path: w.Path, Template: "benchmark_workload.html", Nav: "benchmarks", Data: w})
		for _, r := range w.Results {
			out = append(out, page{Path: r.Path, Template: "benchmark_results.html", Nav: "benchmarks", Data: pubResultsPage{W: w, R: r}})
		}
	}
	return out
}
