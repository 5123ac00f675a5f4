package compare

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Label is the tier as shown.
func (t Tier) Label() string {
	switch t {
	case Tier80Plus:
		return "80 GiB or more per GPU"
	case Tier40To79:
		return "40-79 GiB per GPU"
	case Tier20To39:
		return "20-39 GiB per GPU"
	case TierUnder20:
		return "under 20 GiB per GPU"
	case TierPartial:
		return "partial GPU (vGPU slice)"
	}
	return "GPU memory unknown"
}

func figureNames(fs []Figure) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Label()
	}
	return strings.Join(names, ", ")
}

func preferenceWeaknesses(s Scenario, sp specs) []string {
	var out []string
	if p := s.Prefer.VCPUsPerGPU; p != nil {
		if v := sp.perGPU(decimal.NewFromInt(int64(sp.t.VCPUs))); v.LessThan(*p) {
			out = append(out, fmt.Sprintf("%s vCPU per GPU is low for %s (prefer %s)", v, orNone(s.Prefer.VCPUsFor, "data loading"), p))
		}
	}
	if p := s.Prefer.MemoryGiBPerGPU; p != nil {
		if v := sp.perGPU(sp.t.MemoryGiB); v.LessThan(*p) {
			out = append(out, fmt.Sprintf("%s GiB host memory per GPU is low for %s (prefer %s)", v, orNone(s.Prefer.MemoryFor, "staging data"), p))
		}
	}
	if s.Prefer.LocalNVMe && !sp.t.LocalNVMe {
		out = append(out, "no local NVMe for datasets and checkpoints")
	}
	if s.Prefer.RDMA && sp.t.RDMA == "" {
		out = append(out, "no RDMA/EFA: single node only")
	}
	return out
}

func summary(f OfferFit) string {
	var b strings.Builder
	switch f.Verdict {
	case Fits:
		b.WriteString("fits: " + f.Hardware)
		if len(f.Strengths) > 0 {
			b.WriteString("; strengths: " + strings.Join(f.Strengths, ", "))
		}
	case MayFit:
		var unknown []string
		for _, c := range f.Checks {
			if c.Status == UnknownSpec {
				unknown = append(unknown, c.Detail)
			}
		}
		b.WriteString("may fit: " + f.Hardware + "; unknown: " + strings.Join(unknown, "; "))
		return b.String() + weaknessText(f.Weaknesses)
	default:
		var fails []string
		for _, c := range f.Checks {
			if c.Status == Fail {
				fails = append(fails, c.Detail)
			}
		}
		return "does not fit: " + strings.Join(fails, "; ")
	}
	return b.String() + weaknessText(f.Weaknesses)
}

func weaknessText(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return "; weakness: " + ws[0]
	}
	return "; weaknesses: " + strings.Join(ws, "; ")
}

// Describe lists the requirements in words, for the scenario's page and the CLI:
// "at least 8 GPUs", "NVLink between GPUs".
func (r Requirements) Describe() []string {
	var out []string
	add := func(v *decimal.Decimal, format string) {
		if v != nil {
			out = append(out, fmt.Sprintf(format, v))
		}
	}
	if len(r.AcceleratorKinds) > 0 {
		ks := make([]string, len(r.AcceleratorKinds))
		for i, k := range r.AcceleratorKinds {
			ks[i] = string(k)
		}
		out = append(out, "accelerator: "+strings.Join(ks, " or "))
	}
	add(r.MinGPUs, "at least %s GPUs")
	if r.MaxGPUs != nil && r.MaxGPUs.Equal(decimal.NewFromInt(1)) {
		out = append(out, "at most 1 GPU")
	} else {
		add(r.MaxGPUs, "at most %s GPUs")
	}
	add(r.MinGPUMemoryGiB, "at least %s GiB per GPU")
	add(r.MinTotalGPUMemoryGiB, "at least %s GiB GPU memory in all")
	add(r.MinGPUMemoryBandwidth, "at least %s GB/s memory bandwidth per GPU")
	add(r.MinFP64TFLOPS, "at least %s FP64 TFLOPS in all")
	if r.NVLink {
		out = append(out, "NVLink between GPUs (when more than one)")
	}
	add(r.MinNVENC, "at least %s hardware video encoders (NVENC)")
	if r.RDMA {
		out = append(out, "RDMA/EFA for multi-node traffic")
	}
	add(r.MinNetworkGbps, "at least %s Gbps network")
	add(r.MinVCPUsPerGPU, "at least %s vCPU per GPU")
	add(r.MinMemoryGiBPerGPU, "at least %s GiB host memory per GPU")
	if r.LocalNVMe {
		out = append(out, "local NVMe")
	}
	return out
}

// phrase is a dimension as a short strength or weakness: "low compute (31.24 of
// 100 TFLOPS)", "price: 3.2x the best per TFLOPS-hour".
func phrase(d DimensionScore, strong bool) string {
	words := map[Dimension][2]string{
		DimMemory:       {"little GPU memory", "ample GPU memory"},
		DimCompute:      {"low compute", "high compute"},
		DimBandwidth:    {"low memory bandwidth", "high memory bandwidth"},
		DimInterconnect: {"weak interconnect", "strong interconnect"},
		DimBalance:      {"unbalanced CPU/memory per GPU", "balanced CPU/memory per GPU"},
		DimPrice:        {"expensive", "good price"},
		DimWorkCost:     {"costly per unit of work", "low cost per unit of work"},
	}[d.Dimension]
	w := words[0]
	if strong {
		w = words[1]
	}
	switch {
	case d.Figure != "" && d.Target != "":
		return fmt.Sprintf("%s (%s of %s)", w, d.Figure, d.Target)
	case d.Figure != "":
		return fmt.Sprintf("%s (%s)", w, d.Figure)
	}
	return w
}
