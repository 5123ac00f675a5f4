package compare

import (
	"github.com/shopspring/decimal"
)

// Reason is why compare decided something, as data: a code and its figures, never
// a sentence. Words are made where the language is known: the site's message
// catalogs (templates/i18n/*.reasons.json, rendered by words.ReasonWords) and
// the command line's --lang. A script reads the code and the figures:
//
//	{"code": "gpu_memory_total_ok",
//	 "figures": [{"name": "have", "value": "1432.4921875", "unit": "GiB"},
//	             {"name": "need", "value": "640", "unit": "GiB"}]}
//
// Figures keep the order they were added in, so the JSON is deterministic. Values
// are exact decimals (strings in JSON); rounding for people is the renderer's
// job. Parts are reasons that qualify this one (where a memory figure comes from,
// the terms of a sum, the parts of a mean), in order.
type Reason struct {
	Code    ReasonCode     `json:"code"`
	Figures []ReasonFigure `json:"figures,omitempty"`
	Parts   []Reason       `json:"parts,omitempty"`
}

// ReasonFigure is one named figure of a reason. Exactly one kind is set:
//   - a quantity: Value with its Unit (Unit may be empty for a plain count);
//   - codes of a vocabulary: Codes with their Group (accelerator kinds "kind",
//     billing kinds "billing", spec figures "figure", dimensions "dim", price
//     bases "pricebasis", bases "basis", workloads' cost units "costunit", TCO work
//     units "work_unit", or "" for ids shown as they are);
//   - a name as published: Text (a GPU model, an instance type, a provider's own
//     words), never translated; TextZH is its Chinese form where the data has one
//     (a scenario's "for data loading"); Unmapped marks an accelerator name that
//     has no GPU model in the reference.
type ReasonFigure struct {
	Name     string           `json:"name"`
	Value    *decimal.Decimal `json:"value,omitempty"`
	Unit     Unit             `json:"unit,omitempty"`
	Group    string           `json:"group,omitempty"`
	Codes    []string         `json:"codes,omitempty"`
	Text     string           `json:"text,omitempty"`
	TextZH   string           `json:"text_zh,omitempty"`
	Unmapped bool             `json:"unmapped,omitempty"`
}

// Figure returns the figure with the given name.
func (r Reason) Figure(name string) (ReasonFigure, bool) {
	for _, f := range r.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return ReasonFigure{}, false
}

// Unit is what a reason's quantity counts. The values are a public contract (the
// JSON of reasons); each has a wording in both languages in the message catalogs.
type Unit string

// Units.
const (
	UnitCount     Unit = ""       // a plain number
	UnitGiB       Unit = "GiB"    // an instance's memory (RAM); a provider's own GPU memory figure
	UnitGB        Unit = "GB"     // local disk; GPU memory by its datasheet class (words/units.go)
	UnitGBs       Unit = "GB/s"   // memory bandwidth
	UnitGbps      Unit = "Gbps"   // network bandwidth
	UnitTFLOPS    Unit = "TFLOPS" // floating-point throughput
	UnitTOPS      Unit = "TOPS"   // integer throughput
	UnitNVENC     Unit = "NVENC"  // hardware video encoders
	UnitVCPU      Unit = "vCPU"
	UnitGPU       Unit = "GPU"     // whole-GPU equivalents (0.25 for a quarter slice)
	UnitUSD       Unit = "USD"     // an amount of money
	UnitUSDHour   Unit = "USD/h"   // a price per instance-hour
	UnitHours     Unit = "h"       // hours
	UnitMonths    Unit = "month"   // months
	UnitPercent   Unit = "percent" // a percentage (56.48 is 56.48 %)
	UnitScore     Unit = "score"   // a dimension's value in [0, 1]
	UnitTimes     Unit = "times"   // a ratio (1.1 is 1.1×)
	UnitShare     Unit = "share"   // a share in [0, 1] (0.9 is 90 %)
	UnitUSDGPUH   Unit = "USD/GPU-h"
	UnitUSDGBH    Unit = "USD/GB-h" // per GPU-memory GB-hour
	UnitUSDTFLOPH Unit = "USD/TFLOPS-h"
	UnitUSDTOPSH  Unit = "USD/TOPS-h"
	UnitUSDNVENCH Unit = "USD/NVENC-h"
)

// Units lists every unit, for the message catalogs' completeness test.
var Units = []Unit{UnitCount, UnitGiB, UnitGB, UnitGBs, UnitGbps, UnitTFLOPS, UnitTOPS, UnitNVENC, UnitVCPU, UnitGPU,
	UnitUSD, UnitUSDHour, UnitHours, UnitMonths, UnitPercent, UnitScore, UnitTimes, UnitShare,
	UnitUSDGPUH, UnitUSDGBH, UnitUSDTFLOPH, UnitUSDTOPSH, UnitUSDNVENCH}

// FigureUnit is the unit of a spec figure as a reason quantity.
func FigureUnit(f Figure) Unit {
	switch f {
	case FigureINT8:
		return UnitTOPS
	case FigureNVENC:
		return UnitNVENC
	}
	return UnitTFLOPS
}

// priceUnitOf is the unit of a price per hour divided by a quantity in unit u.
func priceUnitOf(u Unit) Unit {
	switch u {
	case UnitGPU:
		return UnitUSDGPUH
	case UnitGB:
		return UnitUSDGBH
	case UnitTFLOPS:
		return UnitUSDTFLOPH
	case UnitTOPS:
		return UnitUSDTOPSH
	case UnitNVENC:
		return UnitUSDNVENCH
	}
	return UnitUSDHour
}

// Code vocabularies of ReasonFigure.Group.
const (
	GroupKind       = "kind"       // catalog.AcceleratorKind
	GroupBilling    = "billing"    // catalog.BillingKind
	GroupFigure     = "figure"     // Figure
	GroupDimension  = "dim"        // Dimension
	GroupPriceBasis = "pricebasis" // PriceBasis
	GroupBasis      = "basis"      // Basis
	GroupCostUnit   = "costunit"   // a workload id: its cost unit ("1M tokens")
	GroupWork       = "work"       // a benchmark's unit of work ("tokens", "frame")
	GroupWorkUnit   = "work_unit"  // TCOWorkload.WorkUnit (WorkUnitGPUHour, WorkUnitHour or a word)
	// GroupInterruption is why a spot offer has no interruption band
	// (catalog.InterruptionNoData, catalog.InterruptionNotPublished).
	GroupInterruption = "interruption"
)

func quantity(name string, v decimal.Decimal, u Unit) ReasonFigure {
	return ReasonFigure{Name: name, Value: &v, Unit: u}
}

func count(name string, n int) ReasonFigure {
	return quantity(name, decimal.NewFromInt(int64(n)), UnitCount)
}

func codeList(name, group string, cs ...string) ReasonFigure {
	return ReasonFigure{Name: name, Group: group, Codes: cs}
}

func text(name, s string) ReasonFigure { return ReasonFigure{Name: name, Text: s} }

func reason(c ReasonCode, figs ...ReasonFigure) Reason { return Reason{Code: c, Figures: figs} }

// withParts returns r with parts added.
func (r Reason) withParts(parts ...Reason) Reason {
	r.Parts = append(r.Parts, parts...)
	return r
}
