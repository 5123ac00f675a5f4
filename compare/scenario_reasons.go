package compare

import (
	"github.com/shopspring/decimal"
)

// The reasons a scenario gives about itself and about an offer that are not a
// check or a dimension's detail: its requirements and preferences as a list,
// the preference weaknesses of an offer, and a dimension as a strength or a
// weakness. Codes and figures only; words.ReasonWords makes the words.

// preferenceWeaknesses are the soft preferences an offer falls short of.
func preferenceWeaknesses(s Scenario, sp specs) []Reason {
	var out []Reason
	if p := s.Prefer.VCPUsPerGPU; p != nil {
		if v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs))); v.LessThan(*p) {
			out = append(out, reason(ReasonVCPUsPerGPULow, quantity("have", v, UnitVCPU), quantity("prefer", *p, UnitVCPU), s.Prefer.vcpusFor()))
		}
	}
	if p := s.Prefer.MemoryGiBPerGPU; p != nil {
		if v := sp.perGPU(sp.t.MemoryGiB); v.LessThan(*p) {
			out = append(out, reason(ReasonHostMemoryPerGPULow, quantity("have", v, UnitGiB), quantity("prefer", *p, UnitGiB), s.Prefer.memoryFor()))
		}
	}
	if s.Prefer.LocalNVMe && !sp.t.LocalNVMe {
		out = append(out, reason(ReasonNoLocalNVMe))
	}
	if s.Prefer.RDMA && sp.t.RDMA == "" {
		out = append(out, reason(ReasonNoRDMA))
	}
	return out
}

func (p Preferences) vcpusFor() ReasonFigure {
	return ReasonFigure{Name: "for", Text: p.VCPUsFor, TextZH: p.VCPUsForZH}
}

func (p Preferences) memoryFor() ReasonFigure {
	return ReasonFigure{Name: "for", Text: p.MemoryFor, TextZH: p.MemoryForZH}
}

// Reasons lists the requirements, for the scenario's page and the CLI:
// req_min_gpus (n 8 GPU), req_nvlink …, in a fixed order.
func (r Requirements) Reasons() []Reason {
	var out []Reason
	add := func(v *decimal.Decimal, c ReasonCode, u Unit) {
		if v != nil {
			out = append(out, reason(c, quantity("n", *v, u)))
		}
	}
	if len(r.AcceleratorKinds) > 0 {
		ks := make([]string, len(r.AcceleratorKinds))
		for i, k := range r.AcceleratorKinds {
			ks[i] = string(k)
		}
		out = append(out, reason(ReasonReqAcceleratorKinds, codeList("kinds", GroupKind, ks...)))
	}
	add(r.MinGPUs, ReasonReqMinGPUs, UnitGPU)
	add(r.MaxGPUs, ReasonReqMaxGPUs, UnitGPU)
	add(r.MinGPUMemoryGiB, ReasonReqGPUMemoryEach, UnitGB)
	add(r.MinTotalGPUMemoryGiB, ReasonReqGPUMemoryTotal, UnitGB)
	add(r.MinGPUMemoryBandwidth, ReasonReqBandwidth, UnitGBs)
	add(r.MinFP64TFLOPS, ReasonReqFP64, UnitTFLOPS)
	if r.NVLink {
		out = append(out, reason(ReasonReqNVLink))
	}
	add(r.MinNVENC, ReasonReqNVENC, UnitNVENC)
	if r.RDMA {
		out = append(out, reason(ReasonReqRDMA))
	}
	add(r.MinNetworkGbps, ReasonReqNetwork, UnitGbps)
	add(r.MinVCPUsPerGPU, ReasonReqVCPUsPerGPU, UnitVCPU)
	add(r.MinMemoryGiBPerGPU, ReasonReqHostMemoryPerGPU, UnitGiB)
	if r.LocalNVMe {
		out = append(out, reason(ReasonReqLocalNVMe))
	}
	if r.Training {
		out = append(out, reason(ReasonReqTraining))
	}
	if r.NativePrecision != "" {
		out = append(out, reason(ReasonReqNativePrecision, text("precision", string(r.NativePrecision))))
	}
	return out
}

// Reasons lists the soft preferences, with what they are for.
func (p Preferences) Reasons() []Reason {
	var out []Reason
	if p.VCPUsPerGPU != nil {
		out = append(out, reason(ReasonPrefVCPUsPerGPU, quantity("n", *p.VCPUsPerGPU, UnitVCPU), p.vcpusFor()))
	}
	if p.MemoryGiBPerGPU != nil {
		out = append(out, reason(ReasonPrefHostMemory, quantity("n", *p.MemoryGiBPerGPU, UnitGiB), p.memoryFor()))
	}
	if p.LocalNVMe {
		out = append(out, reason(ReasonPrefLocalNVMe))
	}
	if p.RDMA {
		out = append(out, reason(ReasonPrefRDMA))
	}
	return out
}

// phrase is a dimension as a short strength or weakness, with the figures that
// make it one: gpu_memory_ample (have 1432.49 GiB, target 640 GiB), price_good
// (price per the basis, times the best).
func phrase(d DimensionScore, strong bool) Reason {
	pick := func(good, bad ReasonCode) ReasonCode {
		if strong {
			return good
		}
		return bad
	}
	keep := func(names ...string) []ReasonFigure {
		var out []ReasonFigure
		for _, n := range names {
			if f, ok := d.Reason.Figure(n); ok {
				out = append(out, f)
			}
		}
		return out
	}
	switch d.Dimension {
	case DimMemory:
		return reason(pick(ReasonGPUMemoryAmple, ReasonGPUMemoryLittle), keep("have", "target")...)
	case DimCompute:
		return reason(pick(ReasonComputeHigh, ReasonComputeLow), keep("have", "target")...)
	case DimBandwidth:
		return reason(pick(ReasonBandwidthHigh, ReasonBandwidthLow), keep("have", "target")...)
	case DimInterconnect:
		return reason(pick(ReasonInterconnectStrong, ReasonInterconnectWeak))
	case DimPrice:
		figs := keep("price")
		p, _ := d.Reason.Figure("price")
		b, _ := d.Reason.Figure("best")
		if p.Value != nil && b.Value != nil && b.Value.IsPositive() {
			figs = append(figs, quantity("times", p.Value.DivRound(*b.Value, ScorePlaces), UnitTimes))
		}
		return reason(pick(ReasonPriceGood, ReasonPriceExpensive), figs...)
	}
	return reason(pick(ReasonWorkCostLow, ReasonWorkCostHigh), keep("cost", "workload", "basis")...)
}
