package compare

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// specs are the facts of an instance type a scenario looks at, with the GPU
// reference resolved. Pointers are nil when unknown.
type specs struct {
	gpus     *catalog.GPUReference
	t        catalog.InstanceType
	model    catalog.GPUModel // the primary accelerator's model; zero when unmapped
	mapped   bool
	units    decimal.Decimal // whole-GPU equivalents
	devices  int
	partial  bool             // any accelerator is a slice of a device
	memEach  *decimal.Decimal // GiB per device as the instance sees it, by the nominal class
	memFrom  *Reason          // where memEach comes from (nil when the provider and the class agree)
	memTotal *decimal.Decimal
	link     string // nvlink, pcie, single, unknown
	linkWhy  Reason
}

func specsOf(gpus *catalog.GPUReference, t catalog.InstanceType) specs {
	sp := specs{gpus: gpus, t: t, devices: t.DeviceCount()}
	for _, a := range t.Accelerators {
		sp.units = sp.units.Add(acceleratorUnits(a))
		if !a.Share.IsZero() && a.Share.LessThan(decimal.NewFromInt(1)) {
			sp.partial = true
		}
	}
	a, ok := t.PrimaryAccelerator()
	if ok && gpus != nil {
		sp.model, sp.mapped = gpus.Model(a.Model)
	}
	// Memory per device: the reference's nominal class where the reference
	// knows the model (an A10G is a 24 GB part that reports 22.35 GiB usable; a
	// Trainium2 has 96 whatever the provider says), else what the instance
	// reports; catalog.Reconcile sets both. A snapshot that was never reconciled
	// falls back to the reference's figure for a whole device.
	if ok {
		sp.memEach, sp.memFrom = memoryOf(a)
	}
	if sp.memEach == nil && sp.mapped && sp.model.NominalGB() != nil && !sp.partial {
		m := *sp.model.NominalGB()
		r := reason(ReasonMemoryFromReference)
		sp.memEach, sp.memFrom = &m, &r
	}
	if sp.memEach != nil {
		total := decimal.Zero
		for _, acc := range t.Accelerators {
			mem := acc.RuleMemoryGiB()
			if !mem.IsPositive() {
				mem = *sp.memEach
			}
			total = total.Add(mem.Mul(decimal.NewFromInt(int64(acc.Count))))
		}
		sp.memTotal = &total
	}
	sp.link, sp.linkWhy = linkOf(sp)
	return sp
}

// memoryOf is a device's memory for the rules (Accelerator.RuleMemoryGiB) and
// where it comes from (nil when the provider and the class agree); nil when
// unknown.
func memoryOf(a catalog.Accelerator) (*decimal.Decimal, *Reason) {
	m := a.RuleMemoryGiB()
	if !m.IsPositive() {
		return nil, nil
	}
	var r Reason
	switch {
	case a.MemoryFromReference:
		r = reason(ReasonMemoryFromReference)
	case a.NominalMemoryGB != nil && a.MemoryGiB.Sub(m).Abs().GreaterThan(m.Mul(catalog.MemoryTolerance)):
		r = reason(ReasonMemorySpecConflict, quantity("reported", a.MemoryGiB, UnitGiB))
	case a.UsableDiffers():
		r = reason(ReasonMemoryUsable, quantity("usable", a.MemoryGiB, UnitGiB))
	default:
		return &m, nil
	}
	return &m, &r
}

// linkOf says how the GPUs of a type talk to each other: nvlink (a dedicated
// accelerator fabric: NVLink, NVSwitch or NeuronLink), pcie, single or unknown.
// The provider's word (its API, or its documentation in data/interconnect.csv)
// wins; otherwise an SXM part is on an NVLink baseboard (HGX), a model with no
// NVLink (nvlink_gbs 0) is PCIe only, and a PCIe card whose model supports an
// NVLink bridge is unknown (the bridge is optional).
func linkOf(sp specs) (string, Reason) {
	if sp.devices <= 1 {
		return "single", reason(ReasonLinkSingle)
	}
	switch strings.ToLower(sp.t.Interconnect) {
	case catalog.LinkNVSwitch:
		return "nvlink", reason(ReasonLinkNVSwitchStated)
	case catalog.LinkNVLink:
		return "nvlink", reason(ReasonLinkNVLinkStated)
	case catalog.LinkNeuronLink:
		return "nvlink", reason(ReasonLinkNeuronLinkStated)
	case catalog.LinkPCIe:
		return "pcie", reason(ReasonLinkPCIeStated)
	case catalog.LinkOther:
		return "unknown", reason(ReasonLinkOtherStated)
	}
	if !sp.mapped {
		return "unknown", reason(ReasonLinkUnknownUnmapped)
	}
	gpu := sp.gpuFigure()
	switch {
	case sp.model.NVLinkGBs != nil && sp.model.NVLinkGBs.IsZero():
		return "pcie", reason(ReasonLinkPCIeNoNVLink, gpu)
	case strings.HasPrefix(strings.ToUpper(sp.model.FormFactor), "SXM"):
		return "nvlink", reason(ReasonLinkNVLinkSXM, gpu, text("form_factor", sp.model.FormFactor))
	case sp.model.NVLinkGBs == nil:
		return "unknown", reason(ReasonLinkNVLinkNotInRef, gpu)
	}
	return "unknown", reason(ReasonLinkNVLinkBridgeOption, gpu)
}

// gpuFigure is the primary accelerator's name as a reason figure: the GPU
// model's name, or the provider's name marked unmapped.
func (sp specs) gpuFigure() ReasonFigure {
	if sp.mapped {
		return text("gpu", sp.model.Name)
	}
	if a, ok := sp.t.PrimaryAccelerator(); ok {
		return ReasonFigure{Name: "gpu", Text: a.Name, Unmapped: true}
	}
	return ReasonFigure{Name: "gpu", Unmapped: true}
}

func (sp specs) hardware() Hardware {
	a, ok := sp.t.PrimaryAccelerator()
	if !ok {
		return Hardware{None: true, Link: sp.link, LinkReason: sp.linkWhy}
	}
	g := sp.gpuFigure()
	h := Hardware{Count: a.Count, GPU: g.Text, Unmapped: g.Unmapped, MemoryEachGiB: sp.memEach, MemorySource: sp.memFrom,
		Link: sp.link, LinkReason: sp.linkWhy, MoreKinds: len(sp.t.Accelerators) - 1}
	if sp.partial {
		share := a.Share
		h.Share = &share
	}
	return h
}

func (sp specs) tier() Tier {
	switch {
	case sp.partial:
		return TierPartial
	case sp.memEach == nil:
		return TierUnknown
	case sp.memEach.GreaterThanOrEqual(decimal.NewFromInt(80)):
		return Tier80Plus
	case sp.memEach.GreaterThanOrEqual(decimal.NewFromInt(40)):
		return Tier40To79
	case sp.memEach.GreaterThanOrEqual(decimal.NewFromInt(20)):
		return Tier20To39
	}
	return TierUnder20
}

// perGPU is x divided by GPU units, rounded to 2 places.
func (sp specs) perGPU(x decimal.Decimal) decimal.Decimal {
	if !sp.units.IsPositive() {
		return decimal.Zero
	}
	return x.DivRound(sp.units, 2)
}

// compute is the first of the scenario's figures the reference gives for every
// accelerator: total, its terms, and the figure used.
func (sp specs) compute(figs []Figure) (decimal.Decimal, []Reason, Figure, bool) {
	if sp.gpus == nil {
		return decimal.Zero, nil, "", false
	}
	for _, f := range figs {
		if v, terms, ok := instanceFigure(sp.gpus, sp.t, f); ok {
			return v, terms, f, true
		}
	}
	return decimal.Zero, nil, "", false
}
