package compare

import (
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
	add := func(d Dimension, status string, v decimal.Decimal, why Reason) {
		w := s.Weights.Of(d)
		if !w.IsPositive() {
			return
		}
		out = append(out, DimensionScore{Dimension: d, Weight: w, Status: status, Value: v, Reason: why})
	}
	gpu := sp.gpuFigure()
	if t := s.Targets.TotalGPUMemoryGiB; t != nil {
		if sp.memTotal == nil {
			add(DimMemory, NotScoredYet, decimal.Zero, reason(ReasonDimMemoryUnknown, gpu))
		} else {
			add(DimMemory, Scored, ratio(*sp.memTotal, *t), reason(ReasonDimMemory, quantity("have", *sp.memTotal, UnitGB), quantity("target", *t, UnitGB)))
		}
	}
	if t := s.Targets.Compute; t != nil {
		if v, terms, f, ok := sp.compute(s.Compute); ok {
			u := FigureUnit(f)
			add(DimCompute, Scored, ratio(v, *t), reason(ReasonDimCompute, quantity("have", v, u), quantity("target", *t, u)).withParts(terms...))
		} else {
			figs := make([]string, len(s.Compute))
			for i, f := range s.Compute {
				figs[i] = string(f)
			}
			add(DimCompute, NotScoredYet, decimal.Zero, reason(ReasonDimComputeUnknown, codeList("figures", GroupFigure, figs...), gpu))
		}
	}
	if t := s.Targets.BandwidthGBs; t != nil {
		if sp.mapped && sp.model.BandwidthGBs != nil {
			add(DimBandwidth, Scored, ratio(*sp.model.BandwidthGBs, *t),
				reason(ReasonDimBandwidth, quantity("have", *sp.model.BandwidthGBs, UnitGBs), quantity("target", *t, UnitGBs)))
		} else {
			add(DimBandwidth, NotScoredYet, decimal.Zero, reason(ReasonDimBandwidthUnknown, gpu))
		}
	}
	one := decimal.NewFromInt(1)
	score := func(v decimal.Decimal) ReasonFigure { return quantity("score", v, UnitScore) }
	if s.Weights.Interconnect.IsPositive() {
		// The mean of the parts that apply and are known: the GPU link (for
		// more than one GPU), network bandwidth (when the scenario sets a
		// target), RDMA (when required or preferred). An unknown part is said
		// and left out of the mean, never counted as 0; with no known part the
		// dimension is unknown.
		var parts []Reason
		sum, n := decimal.Zero, 0
		unknown := false
		if sp.devices > 1 {
			switch sp.link {
			case "nvlink":
				n++
				sum = sum.Add(one)
				parts = append(parts, reason(ReasonPartNVLink, score(one)))
			case "pcie":
				n++
				parts = append(parts, reason(ReasonPartPCIe, score(decimal.Zero)))
			default:
				unknown = true
				parts = append(parts, reason(ReasonPartNVLinkUnknown))
			}
		}
		if t := s.Targets.NetworkGbps; t != nil {
			if sp.t.NetworkGbps == nil {
				unknown = true
				parts = append(parts, reason(ReasonPartNetworkUnknown))
			} else {
				n++
				v := ratio(*sp.t.NetworkGbps, *t)
				sum = sum.Add(v)
				parts = append(parts, reason(ReasonPartNetwork, quantity("have", *sp.t.NetworkGbps, UnitGbps), quantity("target", *t, UnitGbps), score(v)))
			}
		}
		if s.Requires.RDMA || s.Prefer.RDMA {
			n++
			if sp.t.RDMA != "" {
				sum = sum.Add(one)
				parts = append(parts, reason(ReasonPartRDMA, text("rdma", strings.ToUpper(sp.t.RDMA)), score(one)))
			} else {
				parts = append(parts, reason(ReasonPartNoRDMA, score(decimal.Zero)))
			}
		}
		switch {
		case n == 0 && unknown:
			add(DimInterconnect, NotScoredYet, decimal.Zero, reason(ReasonDimMean).withParts(parts...))
		case n == 0:
			add(DimInterconnect, NotApplicable, decimal.Zero, reason(ReasonDimNoInterconnect))
		default:
			add(DimInterconnect, Scored, sum.DivRound(decimal.NewFromInt(int64(n)), ScorePlaces), reason(ReasonDimMean).withParts(parts...))
		}
	}
	if s.Weights.Balance.IsPositive() {
		var parts []Reason
		sum, n := decimal.Zero, 0
		if p := s.Prefer.VCPUsPerGPU; p != nil {
			v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs)))
			r := ratio(v, *p)
			sum, n = sum.Add(r), n+1
			parts = append(parts, reason(ReasonPartVCPUs, quantity("have", v, UnitVCPU), quantity("target", *p, UnitVCPU), score(r)))
		}
		if p := s.Prefer.MemoryGiBPerGPU; p != nil {
			v := sp.perGPU(sp.t.MemoryGiB)
			r := ratio(v, *p)
			sum, n = sum.Add(r), n+1
			parts = append(parts, reason(ReasonPartHostMemory, quantity("have", v, UnitGiB), quantity("target", *p, UnitGiB), score(r)))
		}
		if s.Prefer.LocalNVMe {
			n++
			if sp.t.LocalNVMe {
				sum = sum.Add(one)
				parts = append(parts, reason(ReasonPartLocalNVMe, score(one)))
			} else {
				parts = append(parts, reason(ReasonPartNoLocalNVMe, score(decimal.Zero)))
			}
		}
		add(DimBalance, Scored, sum.DivRound(decimal.NewFromInt(int64(n)), ScorePlaces), reason(ReasonDimMean).withParts(parts...))
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

// priceUnit is what the offer's price is divided by for the price dimension,
// and that divisor's unit.
func priceUnit(s Scenario, sp specs) (decimal.Decimal, Unit, bool) {
	switch s.PriceBasis {
	case PricePerInstance:
		return decimal.NewFromInt(1), UnitCount, true
	case PricePerGPU:
		return sp.units, UnitGPU, sp.units.IsPositive()
	case PricePerGPUMem:
		if sp.memTotal == nil || !sp.memTotal.IsPositive() {
			return decimal.Zero, UnitGB, false
		}
		return *sp.memTotal, UnitGB, true
	}
	v, _, fig, ok := sp.compute(s.Compute)
	if !ok || !v.IsPositive() {
		return decimal.Zero, UnitTFLOPS, false
	}
	return v, FigureUnit(fig), true
}

// scoreAll adds the relative dimensions (price and work cost: the best candidate
// scores 1, others best/theirs) and computes every score and the strengths.
func scoreAll(s Scenario, cands []*OfferFit, sps []specs) {
	type pp struct {
		v    decimal.Decimal
		unit Unit // of the price: USD per the basis
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
			continue
		}
		v, ok := PerUnitHourly(*f.USDPerHour, u)
		if !ok {
			continue
		}
		prices[i] = pp{v, priceUnitOf(unit), true}
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
				d.Status, d.Reason = NotScoredYet, reason(ReasonDimPriceNoUSD)
			case !prices[i].ok:
				d.Status, d.Reason = NotScoredYet, reason(ReasonDimPriceNoUnit, codeList("basis", GroupPriceBasis, string(s.PriceBasis)))
			default:
				d.Status = Scored
				d.Value = bestPrice.DivRound(prices[i].v, ScorePlaces)
				d.Reason = reason(ReasonDimPrice, quantity("price", prices[i].v, prices[i].unit), quantity("best", *bestPrice, prices[i].unit))
			}
			f.Dimensions = append(f.Dimensions, d)
		}
		if s.Weights.WorkCost.IsPositive() {
			d := DimensionScore{Dimension: DimWorkCost, Weight: s.Weights.WorkCost}
			if c := f.WorkCost; c != nil && c.CostPerUnit.IsPositive() {
				b := bestCost[c.WorkKey()]
				d.Status, d.Value = Scored, b.DivRound(c.CostPerUnit, ScorePlaces)
				d.Reason = reason(ReasonDimWorkCost, quantity("cost", c.CostPerUnit, UnitUSD), quantity("best", b, UnitUSD),
					codeList("workload", GroupCostUnit, c.Workload), codeList("basis", GroupBasis, string(c.Basis)))
			} else {
				d.Status, d.Reason = NotApplicable, reason(ReasonDimNoBenchmark, codeList("workloads", "", s.Workloads...))
			}
			f.Dimensions = append(f.Dimensions, d)
		}
		f.Score = weightedScore(f.Dimensions)
		for _, d := range f.Dimensions {
			switch {
			case d.Status == NotScoredYet:
				f.Unknowns = append(f.Unknowns, reason(ReasonDimensionUnknown, codeList("dimension", GroupDimension, string(d.Dimension))).withParts(d.Reason))
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
