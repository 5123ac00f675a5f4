package compare

import (
	"fmt"
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
	memFrom  string           // where memEach comes from, in words ("" when the provider and the class agree)
	memTotal *decimal.Decimal
	link     string // nvlink, pcie, single, unknown
	linkWhy  string
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
	if sp.memEach == nil && sp.mapped && sp.model.MemoryGB != nil && !sp.partial {
		m := *sp.model.MemoryGB
		sp.memEach, sp.memFrom = &m, " (from the GPU reference)"
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
// where it comes from in words; nil when unknown.
func memoryOf(a catalog.Accelerator) (*decimal.Decimal, string) {
	m := a.RuleMemoryGiB()
	if !m.IsPositive() {
		return nil, ""
	}
	switch {
	case a.MemoryFromReference:
		return &m, " (from the GPU reference)"
	case a.NominalMemoryGB != nil && a.MemoryGiB.Sub(m).Abs().GreaterThan(m.Mul(catalog.MemoryTolerance)):
		return &m, fmt.Sprintf(" (GPU reference; the provider reports %s GiB: spec conflict)", a.MemoryGiB.Round(2))
	case a.UsableDiffers():
		return &m, fmt.Sprintf(" (nominal; %s GiB usable as reported)", a.MemoryGiB.Round(2))
	}
	return &m, ""
}

// linkOf says how the GPUs of a type talk to each other. The provider's
// Interconnect field wins; otherwise an SXM part is on an NVLink baseboard (HGX),
// a model with no NVLink (nvlink_gbs 0) is PCIe only, and a PCIe card whose model
// supports an NVLink bridge is unknown (the bridge is optional).
func linkOf(sp specs) (string, string) {
	if sp.devices <= 1 {
		return "single", "one GPU"
	}
	switch strings.ToLower(sp.t.Interconnect) {
	case "nvlink":
		return "nvlink", "NVLink (as the provider states)"
	case "pcie":
		return "pcie", "PCIe only (as the provider states)"
	}
	if !sp.mapped {
		return "unknown", "GPU interconnect unknown (GPU model not mapped)"
	}
	name := sp.model.Name
	switch {
	case sp.model.NVLinkGBs != nil && sp.model.NVLinkGBs.IsZero():
		return "pcie", fmt.Sprintf("PCIe only (%s has no NVLink)", name)
	case strings.HasPrefix(strings.ToUpper(sp.model.FormFactor), "SXM"):
		return "nvlink", fmt.Sprintf("NVLink (%s is an %s part)", name, sp.model.FormFactor)
	case sp.model.NVLinkGBs == nil:
		return "unknown", fmt.Sprintf("NVLink unknown (not in the GPU reference for %s)", name)
	}
	return "unknown", fmt.Sprintf("NVLink unknown (%s supports an NVLink bridge; the provider does not say whether it is fitted)", name)
}

func (sp specs) gpuName() string {
	if sp.mapped {
		return sp.model.Name
	}
	if a, ok := sp.t.PrimaryAccelerator(); ok {
		return a.Name + " (unmapped)"
	}
	return "no accelerator"
}

func (sp specs) hardware() string {
	a, ok := sp.t.PrimaryAccelerator()
	if !ok {
		return "no accelerator"
	}
	var b strings.Builder
	if sp.partial {
		fmt.Fprintf(&b, "%dx %s slice (%s of a GPU each)", a.Count, sp.gpuName(), a.Share)
	} else {
		fmt.Fprintf(&b, "%dx %s", a.Count, sp.gpuName())
	}
	if sp.memEach != nil {
		fmt.Fprintf(&b, ", %s GiB each%s", sp.memEach.Round(2), sp.memFrom)
	}
	switch sp.link {
	case "nvlink":
		b.WriteString(", NVLink")
	case "pcie":
		b.WriteString(", PCIe")
	}
	if len(sp.t.Accelerators) > 1 {
		fmt.Fprintf(&b, " (+%d more accelerator kinds)", len(sp.t.Accelerators)-1)
	}
	return b.String()
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
// accelerator: total, the terms in words, and the figure used.
func (sp specs) compute(figs []Figure) (decimal.Decimal, string, Figure, bool) {
	if sp.gpus == nil {
		return decimal.Zero, "", "", false
	}
	for _, f := range figs {
		if v, terms, ok := instanceFigure(sp.gpus, sp.t, f); ok {
			return v, terms, f, true
		}
	}
	return decimal.Zero, "", "", false
}
