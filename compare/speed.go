package compare

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Figure names a per-device figure of the GPU reference that a scenario's speed
// and compute score are read from. The values are a public contract: they appear
// in data/scenarios.yaml and in the JSON of speeds.
type Figure string

// Figures. Throughputs are dense (no sparsity), as in data/gpus.csv. NVENC is the
// number of hardware video encoders, the figure transcoding scales with.
const (
	FigureFP64  Figure = "fp64"
	FigureFP32  Figure = "fp32"
	FigureTF32  Figure = "tf32"
	FigureBF16  Figure = "bf16"
	FigureFP16  Figure = "fp16"
	FigureFP8   Figure = "fp8"
	FigureINT8  Figure = "int8"
	FigureNVENC Figure = "nvenc"
)

// Figures lists every figure.
var Figures = []Figure{FigureFP64, FigureFP32, FigureTF32, FigureBF16, FigureFP16, FigureFP8, FigureINT8, FigureNVENC}

// ParseFigure checks that s names a known figure.
func ParseFigure(s string) (Figure, error) {
	for _, f := range Figures {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown figure %q (known: fp64, fp32, tf32, bf16, fp16, fp8, int8, nvenc)", s)
}

// Unit is what the figure counts: "TFLOPS", "TOPS" or "NVENC".
func (f Figure) Unit() string {
	switch f {
	case FigureINT8:
		return "TOPS"
	case FigureNVENC:
		return "NVENC"
	}
	return "TFLOPS"
}

// Label is the figure as shown: "BF16 TFLOPS", "NVENC engines".
func (f Figure) Label() string {
	if f == FigureNVENC {
		return "NVENC engines"
	}
	return strings.ToUpper(string(f)) + " " + f.Unit()
}

// Of returns the per-device figure of m, nil when the reference does not give it
// (unknown, which is never the same as zero).
func (f Figure) Of(m catalog.GPUModel) *decimal.Decimal {
	switch f {
	case FigureFP64:
		return m.FP64TFLOPS
	case FigureFP32:
		return m.FP32TFLOPS
	case FigureTF32:
		return m.TF32TFLOPS
	case FigureBF16:
		return m.BF16TFLOPS
	case FigureFP16:
		return m.FP16TFLOPS
	case FigureFP8:
		return m.FP8TFLOPS
	case FigureINT8:
		return m.INT8TOPS
	case FigureNVENC:
		if m.NVENC == nil {
			return nil
		}
		d := decimal.NewFromInt(int64(*m.NVENC))
		return &d
	}
	return nil
}

// SpeedPlaces is the number of decimal places a relative speed is rounded to
// (half away from zero). It is the only rounding in a speed.
const SpeedPlaces = 6

// Reference is the basis of the speed of the reference itself (the base instance
// type a workload is measured in hours on): 1 by definition.
const Reference Basis = "reference"

// Speed source: where a speed's figure comes from.
const (
	SpeedFromSpecs     = "specs"
	SpeedFromBenchmark = "benchmark"
)

// Speed is how much work an instance does per hour, in the unit of work of the
// comparison it belongs to: units of a benchmark workload (tokens, frames) or
// hours of a reference (one reference GPU, or a base instance type), in which case
// it is a relative speed ("19.968 reference GPU-hours per hour").
type Speed struct {
	WorkPerHour decimal.Decimal `json:"work_per_hour"`
	// Basis is measured only for a benchmark run on this very instance type; a
	// figure from specs or scaled from another type's run is estimated; the base
	// itself is reference (1 by definition).
	Basis Basis `json:"basis"`
	// From is "specs", "benchmark" or "reference".
	From string `json:"from"`
	// Figure is the spec figure compared (from specs only).
	Figure Figure `json:"figure,omitempty"`
	// Reason shows the arithmetic as codes and figures: speed_from_specs with the
	// figure's totals, their terms (8 × 312 BF16 TFLOPS of nvidia-a100-sxm-80gb)
	// and the ratio; speed_from_benchmarks with the runs; speed_reference.
	Reason Reason `json:"reason"`
}

// ReferenceInstance is one whole GPU of the given model, as an instance type, for
// relative speeds measured in reference GPU-hours.
func ReferenceInstance(gpus *catalog.GPUReference, model string) (catalog.InstanceType, error) {
	m, ok := gpus.Model(model)
	if !ok {
		return catalog.InstanceType{}, fmt.Errorf("reference gpu %q is not in the GPU reference (data/gpus.csv)", model)
	}
	return catalog.InstanceType{ID: "1x " + m.ID, Accelerators: []catalog.Accelerator{
		{Kind: m.Kind, Model: m.ID, Name: m.Name, Count: 1, Share: decimal.NewFromInt(1)},
	}}, nil
}

// acceleratorUnits is Count × Share, reading a zero Share as a whole device (a
// hand-made record that left it out).
func acceleratorUnits(a catalog.Accelerator) decimal.Decimal {
	if a.Share.IsZero() {
		return decimal.NewFromInt(int64(a.Count))
	}
	return a.Units()
}

// instanceFigure is the total of figure f over t's accelerators (units × per-device
// figure) and the terms it is made of (figure_term: 8 × 312 of a model). ok is
// false when an accelerator has no model or the reference lacks f for it
// (unknown).
func instanceFigure(gpus *catalog.GPUReference, t catalog.InstanceType, f Figure) (total decimal.Decimal, terms []Reason, ok bool) {
	if len(t.Accelerators) == 0 {
		return decimal.Zero, nil, false
	}
	for _, a := range t.Accelerators {
		m, found := gpus.Model(a.Model)
		if !found {
			return decimal.Zero, nil, false
		}
		v := f.Of(m)
		if v == nil {
			return decimal.Zero, nil, false
		}
		u := acceleratorUnits(a)
		total = total.Add(u.Mul(*v))
		terms = append(terms, reason(ReasonFigureTerm, quantity("units", u, UnitGPU), quantity("each", *v, FigureUnit(f)),
			codeList("figure", GroupFigure, string(f)), text("model", m.ID)))
	}
	return total, terms, true
}

// SpecSpeed is target's speed relative to base (base does 1 unit of work per
// hour), estimated from specs: the ratio of the first figure in figures that the
// reference gives for both, each total being GPU units × the per-device figure.
// Figures later in the list are fallbacks (FP16 for a V100, which has no BF16),
// and the explanation says which were unknown. An error says that no figure is
// known for both.
func SpecSpeed(gpus *catalog.GPUReference, target, base catalog.InstanceType, figures []Figure) (Speed, error) {
	var skipped []string // for the error
	var skips []Reason
	for _, f := range figures {
		tv, tterms, tok := instanceFigure(gpus, target, f)
		bv, bterms, bok := instanceFigure(gpus, base, f)
		if !tok || !bok {
			who := strings.TrimPrefix(target.Key(), "/")
			if tok {
				who = strings.TrimPrefix(base.Key(), "/")
			}
			skipped = append(skipped, fmt.Sprintf("%s unknown for %s", f.Label(), who))
			skips = append(skips, reason(ReasonFigureUnknownFor, codeList("figure", GroupFigure, string(f)), text("instance", who)))
			continue
		}
		if !bv.IsPositive() {
			who := strings.TrimPrefix(base.Key(), "/")
			skipped = append(skipped, fmt.Sprintf("%s is zero for %s", f.Label(), who))
			skips = append(skips, reason(ReasonFigureZeroFor, codeList("figure", GroupFigure, string(f)), text("instance", who)))
			continue
		}
		r := tv.DivRound(bv, SpeedPlaces)
		u := FigureUnit(f)
		why := reason(ReasonSpeedFromSpecs, codeList("figure", GroupFigure, string(f)), quantity("target", tv, u), quantity("base", bv, u),
			quantity("ratio", r, UnitCount)).
			withParts(Reason{Code: ReasonSpecTerms, Parts: tterms}, Reason{Code: ReasonSpecTerms, Parts: bterms}).
			withParts(skips...)
		return Speed{WorkPerHour: r, Basis: Estimated, From: SpeedFromSpecs, Figure: f, Reason: why}, nil
	}
	names := make([]string, len(figures))
	for i, f := range figures {
		names[i] = f.Label()
	}
	return Speed{}, fmt.Errorf("no speed for %s relative to %s: %s", strings.TrimPrefix(target.Key(), "/"),
		strings.TrimPrefix(base.Key(), "/"), orNone(strings.Join(skipped, "; "), "no figures to compare ("+strings.Join(names, ", ")+")"))
}

// MeasuredSpeed is the hook from benchmark results (CostPerWork) to speeds: the
// work per hour of workload on instance type target (provider/type), from costs.
// A run on target itself (Basis measured) wins over an estimate scaled from
// another type; among several, the highest work per hour, then the first run by
// reference. ok is false when costs hold no figure for the pair.
func MeasuredSpeed(costs []WorkCost, workload, target string) (Speed, bool) {
	var best *WorkCost
	for i := range costs {
		c := &costs[i]
		if c.WorkKey() != workload || string(c.Provider)+"/"+c.InstanceType != target || !c.WorkPerHour.IsPositive() {
			continue
		}
		if best == nil || betterRun(c, best) {
			best = c
		}
	}
	if best == nil {
		return Speed{}, false
	}
	return Speed{WorkPerHour: best.WorkPerHour, Basis: best.Basis, From: SpeedFromBenchmark,
		Reason: reason(ReasonSpeedMeasuredRun, codeList("basis", GroupBasis, string(best.Basis)), text("run", best.RunRef),
			quantity("work_per_hour", best.WorkPerHour, UnitCount), text("workload", workload))}, true
}

// RelativeMeasuredSpeed is target's speed relative to base from benchmark results
// of one workload: the ratio of their work per hour. Basis is measured only when
// both figures are.
func RelativeMeasuredSpeed(costs []WorkCost, workload, target, base string) (Speed, bool) {
	t, ok1 := MeasuredSpeed(costs, workload, target)
	b, ok2 := MeasuredSpeed(costs, workload, base)
	if !ok1 || !ok2 {
		return Speed{}, false
	}
	basis := Measured
	if t.Basis != Measured || b.Basis != Measured {
		basis = Estimated
	}
	r := t.WorkPerHour.DivRound(b.WorkPerHour, SpeedPlaces)
	return Speed{WorkPerHour: r, Basis: basis, From: SpeedFromBenchmark,
		Reason: reason(ReasonSpeedFromBenchmarks, codeList("basis", GroupBasis, string(basis)), text("workload", workload),
			quantity("target", t.WorkPerHour, UnitCount), quantity("base", b.WorkPerHour, UnitCount), quantity("ratio", r, UnitCount)).
			withParts(t.Reason, b.Reason)}, true
}

func betterRun(a, b *WorkCost) bool {
	if (a.Basis == Measured) != (b.Basis == Measured) {
		return a.Basis == Measured
	}
	if !a.WorkPerHour.Equal(b.WorkPerHour) {
		return a.WorkPerHour.GreaterThan(b.WorkPerHour)
	}
	return a.RunRef < b.RunRef
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}
