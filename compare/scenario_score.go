package compare

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// ratio is min(1, x / target) rounded to ScorePlaces.
func ratio(x, target decimal.Decimal) decimal.Decimal {
	if !target.IsPositive() {
		return decimal.Zero
	}
	r := x.DivRound(target, ScorePlaces)
	if r.GreaterThan(decimal.NewFromInt(1)) {
		return decimal.NewFromInt(1)
	}
	return r
}

func specDimensions(s Scenario, sp specs) []DimensionScore {
	var out []DimensionScore
	add := func(d Dimension, status string, v decimal.Decimal, format string, args ...any) {
		w := s.Weights.Of(d)
		if !w.IsPositive() {
			return
		}
		out = append(out, DimensionScore{Dimension: d, Weight: w, Status: status, Value: v, Detail: fmt.Sprintf(format, args...)})
	}
	figure := func(fig, target string) {
		if len(out) > 0 {
			out[len(out)-1].Figure, out[len(out)-1].Target = fig, target
		}
	}
	if t := s.Targets.TotalGPUMemoryGiB; t != nil {
		if sp.memTotal == nil {
			add(DimMemory, NotScoredYet, decimal.Zero, "GPU memory unknown for %s: scored 0", sp.gpuName())
		} else {
			add(DimMemory, Scored, ratio(*sp.memTotal, *t), "%s GiB GPU memory of %s GiB target", sp.memTotal, t)
			figure(sp.memTotal.String()+" GiB", t.String()+" GiB")
		}
	}
	if t := s.Targets.Compute; t != nil {
		if v, terms, f, ok := sp.compute(s.Compute); ok {
			add(DimCompute, Scored, ratio(v, *t), "%s = %s %s of %s target", terms, v, f.Unit(), t)
			figure(v.String()+" "+f.Unit(), t.String()+" "+f.Unit())
		} else {
			add(DimCompute, NotScoredYet, decimal.Zero, "%s unknown for %s: scored 0", figureNames(s.Compute), sp.gpuName())
		}
	}
	if t := s.Targets.BandwidthGBs; t != nil {
		if sp.mapped && sp.model.BandwidthGBs != nil {
			add(DimBandwidth, Scored, ratio(*sp.model.BandwidthGBs, *t), "%s GB/s memory bandwidth per GPU of %s GB/s target", sp.model.BandwidthGBs, t)
			figure(sp.model.BandwidthGBs.String()+" GB/s", t.String()+" GB/s")
		} else {
			add(DimBandwidth, NotScoredYet, decimal.Zero, "memory bandwidth unknown for %s: scored 0", sp.gpuName())
		}
	}
	if s.Weights.Interconnect.IsPositive() {
		// The mean of the parts that apply: the GPU link (for more than one GPU),
		// network bandwidth (when the scenario sets a target), RDMA (when required
		// or preferred). An unknown part scores 0.
		var parts []string
		sum, n := decimal.Zero, 0
		unknown := false
		if sp.devices > 1 {
			n++
			switch sp.link {
			case "nvlink":
				sum = sum.Add(decimal.NewFromInt(1))
				parts = append(parts, "NVLink 1")
			case "pcie":
				parts = append(parts, "PCIe 0")
			default:
				unknown = true
				parts = append(parts, "NVLink unknown 0")
			}
		}
		if t := s.Targets.NetworkGbps; t != nil {
			n++
			if sp.t.NetworkGbps == nil {
				unknown = true
				parts = append(parts, "network unknown 0")
			} else {
				v := ratio(*sp.t.NetworkGbps, *t)
				sum = sum.Add(v)
				parts = append(parts, fmt.Sprintf("network %s/%s Gbps %s", sp.t.NetworkGbps, t, v))
			}
		}
		if s.Requires.RDMA || s.Prefer.RDMA {
			n++
			if sp.t.RDMA != "" {
				sum = sum.Add(decimal.NewFromInt(1))
				parts = append(parts, strings.ToUpper(sp.t.RDMA)+" 1")
			} else {
				parts = append(parts, "no RDMA 0")
			}
		}
		if n == 0 {
			add(DimInterconnect, NotApplicable, decimal.Zero, "not applicable: one GPU and no network target")
		} else {
			st := Scored
			if unknown {
				st = NotScoredYet
			}
			add(DimInterconnect, st, sum.DivRound(decimal.NewFromInt(int64(n)), ScorePlaces), "mean of %s", strings.Join(parts, ", "))
		}
	}
	if s.Weights.Balance.IsPositive() {
		var parts []string
		sum, n := decimal.Zero, 0
		if p := s.Prefer.VCPUsPerGPU; p != nil {
			v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs)))
			r := ratio(v, *p)
			sum, n = sum.Add(r), n+1
			parts = append(parts, fmt.Sprintf("%s/%s vCPU per GPU %s", v, p, r))
		}
		if p := s.Prefer.MemoryGiBPerGPU; p != nil {
			v := sp.perGPU(sp.t.MemoryGiB)
			r := ratio(v, *p)
			sum, n = sum.Add(r), n+1
			parts = append(parts, fmt.Sprintf("%s/%s GiB host memory per GPU %s", v, p, r))
		}
		if s.Prefer.LocalNVMe {
			n++
			if sp.t.LocalNVMe {
				sum = sum.Add(decimal.NewFromInt(1))
				parts = append(parts, "local NVMe 1")
			} else {
				parts = append(parts, "no local NVMe 0")
			}
		}
		add(DimBalance, Scored, sum.DivRound(decimal.NewFromInt(int64(n)), ScorePlaces), "mean of %s", strings.Join(parts, ", "))
	}
	return out
}

// bestWorkCost picks the offer's cost per unit of work for the scenario: the first
// of its workloads with a figure, measured before estimated, then the lowest cost,
// then the first run.
func bestWorkCost(s Scenario, offerKey string, costs []WorkCost) *WorkCost {
	for _, w := range s.Workloads {
		var best *WorkCost
		for i := range costs {
			c := &costs[i]
			if c.WorkKey() != w || c.OfferKey != offerKey {
				continue
			}
			if best == nil || (c.Basis == Measured && best.Basis != Measured) ||
				(c.Basis == best.Basis && (c.CostPerUnit.LessThan(best.CostPerUnit) ||
					(c.CostPerUnit.Equal(best.CostPerUnit) && c.RunRef < best.RunRef))) {
				best = c
			}
		}
		if best != nil {
			c := *best
			return &c
		}
	}
	return nil
}

// priceUnit is what the offer's price is divided by for the price dimension.
func priceUnit(s Scenario, sp specs) (decimal.Decimal, string, bool) {
	switch s.PriceBasis {
	case PricePerInstance:
		return decimal.NewFromInt(1), "hour", true
	case PricePerGPU:
		return sp.units, "GPU-hour", sp.units.IsPositive()
	case PricePerGPUMem:
		if sp.memTotal == nil || !sp.memTotal.IsPositive() {
			return decimal.Zero, "GPU-memory-GiB-hour", false
		}
		return *sp.memTotal, "GPU-memory-GiB-hour", true
	}
	v, _, fig, ok := sp.compute(s.Compute)
	if !ok || !v.IsPositive() {
		return decimal.Zero, "compute-hour", false
	}
	return v, fig.Unit() + "-hour", true
}

// scoreAll adds the relative dimensions (price and work cost: the best candidate
// scores 1, others best/theirs) and computes every score and the strengths.
func scoreAll(s Scenario, cands []*OfferFit, sps []specs) {
	type pp struct {
		v    decimal.Decimal
		unit string
		ok   bool
	}
	prices := make([]pp, len(cands))
	var bestPrice *decimal.Decimal
	for i, f := range cands {
		if f.USDPerHour == nil || !f.USDPerHour.IsPositive() {
			continue
		}
		u, unit, ok := priceUnit(s, sps[i])
		if !ok {
			prices[i] = pp{unit: unit}
			continue
		}
		v := f.USDPerHour.DivRound(u, 8)
		prices[i] = pp{v, unit, true}
		if bestPrice == nil || v.LessThan(*bestPrice) {
			bestPrice = &v
		}
	}
	bestCost := map[string]decimal.Decimal{}
	for _, f := range cands {
		if c := f.WorkCost; c != nil && c.CostPerUnit.IsPositive() {
			if b, ok := bestCost[c.WorkKey()]; !ok || c.CostPerUnit.LessThan(b) {
				bestCost[c.WorkKey()] = c.CostPerUnit
			}
		}
	}
	for i, f := range cands {
		if s.Weights.Price.IsPositive() {
			d := DimensionScore{Dimension: DimPrice, Weight: s.Weights.Price}
			switch {
			case f.USDPerHour == nil:
				d.Status, d.Detail = NotScoredYet, "price in USD unknown (no FX rate or no hourly price): scored 0"
			case !prices[i].ok:
				d.Status, d.Detail = NotScoredYet, fmt.Sprintf("USD per %s unknown (%s unknown): scored 0", orNone(prices[i].unit, "unit"), s.PriceBasis)
			default:
				d.Status = Scored
				d.Value = bestPrice.DivRound(prices[i].v, ScorePlaces)
				d.Detail = fmt.Sprintf("%s USD per %s; best %s", prices[i].v, prices[i].unit, bestPrice)
				d.Figure = fmt.Sprintf("%s USD per %s, %s× the best", prices[i].v.Round(4), prices[i].unit, prices[i].v.DivRound(*bestPrice, 1).StringFixed(1))
			}
			f.Dimensions = append(f.Dimensions, d)
		}
		if s.Weights.WorkCost.IsPositive() {
			d := DimensionScore{Dimension: DimWorkCost, Weight: s.Weights.WorkCost}
			if c := f.WorkCost; c != nil && c.CostPerUnit.IsPositive() {
				b := bestCost[c.WorkKey()]
				d.Status, d.Value = Scored, b.DivRound(c.CostPerUnit, ScorePlaces)
				d.Detail = fmt.Sprintf("%s %s %s (%s); best %s", c.Basis, c.CostPerUnit, c.UnitLabel, c.Workload, b)
				d.Figure = fmt.Sprintf("%s %s, %s", c.CostPerUnit, c.UnitLabel, c.Basis)
			} else {
				d.Status, d.Detail = NotApplicable, "no benchmark for "+strings.Join(s.Workloads, ", ")+": not scored"
			}
			f.Dimensions = append(f.Dimensions, d)
		}
		f.Score = weightedScore(f.Dimensions)
		for _, d := range f.Dimensions {
			switch {
			case d.Status == NotScoredYet:
				f.Unknowns = append(f.Unknowns, string(d.Dimension)+": "+d.Detail)
			case d.Status != Scored || d.Dimension == DimBalance:
				// Balance speaks through the preference weaknesses, which say which
				// figure falls short.
			case d.Value.GreaterThanOrEqual(strongAt):
				f.Strengths = append(f.Strengths, phrase(d, true))
			case d.Value.LessThan(weakBelow):
				f.Weaknesses = append(f.Weaknesses, phrase(d, false))
			}
		}
	}
}

// A dimension at or above strongAt is a strength, below weakBelow a weakness.
var (
	strongAt  = decimal.RequireFromString("0.8")
	weakBelow = decimal.RequireFromString("0.4")
)

// weightedScore is 100 × Σ weight×value / Σ weight over the dimensions that apply,
// rounded to 2 places.
func weightedScore(ds []DimensionScore) decimal.Decimal {
	num, den := decimal.Zero, decimal.Zero
	for _, d := range ds {
		if d.Status == NotApplicable {
			continue
		}
		num = num.Add(d.Weight.Mul(d.Value))
		den = den.Add(d.Weight)
	}
	if !den.IsPositive() {
		return decimal.Zero
	}
	return num.Mul(decimal.NewFromInt(100)).DivRound(den, 2)
}
