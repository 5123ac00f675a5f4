package catalog

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"
)

// checkedRun is a run that passed validation, with the GPU model of its instance
// type (empty when the catalog does not know the type), for the outlier check.
type checkedRun struct {
	run   BenchmarkRun
	model string
}

// outlierWarnings warns of each run far from the others of the same workload on
// the same GPU model, compared per GPU so that 1-GPU and 8-GPU runs line up. Each
// group is sorted once, so that the median of "all but this run" is an index
// lookup and a large upload stays O(n log n).
func outlierWarnings(valid []checkedRun) []Problem {
	var probs []Problem
	groups := map[string][]int{}
	var groupKeys []string
	for i, c := range valid {
		if c.model == "" {
			continue
		}
		if c.run.Published() {
			// A published suite's results are as published: the spread between
			// systems is real, and its scenarios differ by design.
			continue
		}
		k := c.model + "\x00" + c.run.Workload + "\x00" + c.run.Unit + "\x00" + c.run.Scenario
		if _, ok := groups[k]; !ok {
			groupKeys = append(groupKeys, k)
		}
		groups[k] = append(groups[k], i)
	}
	three := decimal.NewFromInt(3)
	for _, k := range groupKeys {
		members := groups[k]
		if len(members) < 4 {
			continue // fewer than 3 others for every member
		}
		vals := make([]decimal.Decimal, len(members))
		for j, i := range members {
			vals[j] = perGPUValue(valid[i].run)
		}
		sorted := append([]decimal.Decimal(nil), vals...)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].LessThan(sorted[b]) })
		for j, i := range members {
			c, v := valid[i], vals[j]
			pos := sort.Search(len(sorted), func(x int) bool { return !sorted[x].LessThan(v) })
			med := medianWithout(sorted, pos)
			if !med.IsPositive() {
				continue
			}
			if v.GreaterThan(med.Mul(three)) || v.Mul(three).LessThan(med) {
				probs = append(probs, Problem{File: c.run.File, Line: c.run.Line, Severity: SeverityWarning,
					Message: fmt.Sprintf("outlier: %s %s per GPU is %sx the median (%s per GPU) of %d other %s runs on %s; check the value, unit and gpu_count_used",
						v.Round(2), c.run.Unit, v.DivRound(med, 2), med.Round(2), len(members)-1, c.run.Workload, c.model)})
			}
		}
	}
	return probs
}

// perGPUValue is the run's value for one GPU under linear scaling: a rate divided
// by the GPUs used, a time per unit of work multiplied by them.
func perGPUValue(r BenchmarkRun) decimal.Decimal {
	n := r.GPUCountUsed
	if n < 1 {
		n = 1
	}
	g := decimal.NewFromInt(int64(n))
	if !r.HigherIsBetter {
		return r.Value.Mul(g)
	}
	return r.Value.DivRound(g, 6)
}

// medianWithout is the median of sorted with the element at index skip left out.
func medianWithout(sorted []decimal.Decimal, skip int) decimal.Decimal {
	at := func(i int) decimal.Decimal {
		if i >= skip {
			i++
		}
		return sorted[i]
	}
	n := len(sorted) - 1
	if n%2 == 1 {
		return at(n / 2)
	}
	return at(n/2 - 1).Add(at(n / 2)).Div(decimal.NewFromInt(2))
}
