package compare

import (
	"reflect"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Verdict says whether an instance type fits a scenario. The values are a public
// contract.
type Verdict string

// Verdicts.
const (
	Fits       Verdict = "fits"
	MayFit     Verdict = "unknown" // no requirement fails, but at least one is unknown
	DoesNotFit Verdict = "does_not_fit"
)

// CheckStatus is the outcome of one requirement.
type CheckStatus string

// Check outcomes.
const (
	Pass        CheckStatus = "pass"
	Fail        CheckStatus = "fail"
	UnknownSpec CheckStatus = "unknown"
)

// Check is one hard requirement applied to an instance type: the requirement's
// key in data/scenarios.yaml, the outcome, and why as a code with its figures
// (gpu_memory_total_ok, have 640 GiB, need 320 GiB).
type Check struct {
	Requirement string      `json:"requirement"`
	Status      CheckStatus `json:"status"`
	Reason      Reason      `json:"reason"`
}

// Dimension statuses.
const (
	Scored        = "scored"
	NotScoredYet  = "unknown"        // the figure is unknown: counted as 0 and said so
	NotApplicable = "not_applicable" // left out of the weights (no benchmark, single GPU…)
)

// DimensionScore is one dimension's share of a score. Value is in [0, 1], rounded
// to ScorePlaces; an unknown figure scores 0 and says so in Reason; a dimension
// that does not apply to the offer is left out of the weighted mean.
type DimensionScore struct {
	Dimension Dimension       `json:"dimension"`
	Weight    decimal.Decimal `json:"weight"`
	Status    string          `json:"status"`
	Value     decimal.Decimal `json:"value"`
	Reason    Reason          `json:"reason"`
}

// ScorePlaces is the rounding of a dimension's value; a score (0-100) is rounded to
// 2 places. Both half away from zero.
const ScorePlaces = 4

// Tier is a class of GPU by memory per device, the rows of the scenario × tier
// matrix. The values are a public contract.
type Tier string

// Tiers, largest first.
const (
	Tier80Plus  Tier = "80gb-plus"
	Tier40To79  Tier = "40-79gb"
	Tier20To39  Tier = "20-39gb"
	TierUnder20 Tier = "under-20gb"
	TierPartial Tier = "partial-gpu" // vGPU slices and partitioned GPUs
	TierUnknown Tier = "unknown"     // no memory figure
)

// Tiers lists the tiers in display order.
var Tiers = []Tier{Tier80Plus, Tier40To79, Tier20To39, TierUnder20, TierPartial, TierUnknown}

// OfferFit is how one offer suits one scenario: the verdict with a check per
// requirement, the score with its dimensions, strengths, weaknesses and unknowns,
// each a Reason. Everything a scenario page row shows.
type OfferFit struct {
	Scenario string `json:"scenario"`
	// Instance is the instance type (in Go only: the JSON has its key and the
	// figures below; the full record is in the catalog export).
	Instance    catalog.InstanceType `json:"-"`
	InstanceKey string               `json:"instance"`
	Offer       catalog.Offer        `json:"offer"`
	OfferKey    string               `json:"offer_key"`
	// Hardware is the accelerators as the rules see them: 8 × NVIDIA A100 80GB,
	// 80 GB each, NVLink.
	Hardware  Hardware        `json:"hardware"`
	GPUModel  string          `json:"gpu_model,omitempty"`
	GPUUnits  decimal.Decimal `json:"gpu_units"`
	VCPUs     int             `json:"vcpus"`
	MemoryGiB decimal.Decimal `json:"memory_gib"`
	Tier      Tier            `json:"tier"`
	// USDPerHour is the effective hourly price in USD (upfront spread over the
	// term, through the snapshot's FX table); nil when it cannot be computed.
	USDPerHour *decimal.Decimal `json:"usd_per_hour"`
	// NativePerHour is the same in the offer's own currency, before conversion.
	NativePerHour  *decimal.Decimal `json:"native_per_hour"`
	NativeCurrency catalog.Currency `json:"native_currency"`
	// OtherOffers counts further offers of this type and billing kind (other
	// regions or zones) that ranked below this one, its cheapest.
	OtherOffers int              `json:"other_offers"`
	Verdict     Verdict          `json:"verdict"`
	Score       decimal.Decimal  `json:"score"` // 0-100; zero when it does not fit
	Checks      []Check          `json:"checks"`
	Dimensions  []DimensionScore `json:"dimensions,omitempty"`
	Strengths   []Reason         `json:"strengths,omitempty"`
	Weaknesses  []Reason         `json:"weaknesses,omitempty"`
	// Unknowns are the checks whose figure is unknown, then the dimensions
	// scored 0 for an unknown figure (dimension_unknown).
	Unknowns []Reason `json:"unknowns,omitempty"`
	// WorkCost is the offer's best cost per unit of work for the scenario's
	// workloads, when a benchmark gives one (measured or estimated).
	WorkCost *WorkCost `json:"work_cost,omitempty"`
	// SpotRisk, in a ranking of spot offers, is how USDPerHour was adjusted for
	// the interruption risk (or why it was not).
	SpotRisk *SpotRiskPrice `json:"spot_risk,omitempty"`
}

// Hardware is an instance type's accelerators as the scenario rules see them.
type Hardware struct {
	// Count is the number of devices of the primary accelerator; 0 with None.
	Count int  `json:"count"`
	None  bool `json:"none,omitempty"` // no accelerator at all
	// GPU is the model's name from the GPU reference, or the provider's name
	// when the reference has no model for it (Unmapped).
	GPU      string `json:"gpu,omitempty"`
	Unmapped bool   `json:"unmapped,omitempty"`
	// Share is the part of one GPU each device is, for a slice (vGPU).
	Share *decimal.Decimal `json:"share,omitempty"`
	// MemoryEachGiB is the memory per device the rules use (the nominal class),
	// with where it comes from when that is worth saying (MemorySource).
	MemoryEachGiB *decimal.Decimal `json:"memory_each_gib,omitempty"`
	MemorySource  *Reason          `json:"memory_source,omitempty"`
	// Link is nvlink, pcie, single or unknown; LinkReason says why.
	Link       string `json:"link"`
	LinkReason Reason `json:"link_reason"`
	// MoreKinds counts further accelerator kinds of the type.
	MoreKinds int `json:"more_kinds,omitempty"`
}

// evaluate applies the requirements and the spec dimensions; price and work cost
// are scored by scoreAll, which needs every candidate.
func evaluate(s Scenario, gpus *catalog.GPUReference, r representative, costs []WorkCost) (OfferFit, specs) {
	t := r.typ
	sp := specsOf(gpus, t)
	f := OfferFit{
		Scenario: s.ID, Instance: t, InstanceKey: t.Key(), Offer: r.offer, OfferKey: r.offer.Key(),
		Hardware: sp.hardware(), GPUModel: sp.model.ID, GPUUnits: sp.units, VCPUs: t.VCPUs, MemoryGiB: t.MemoryGiB,
		Tier: sp.tier(), USDPerHour: r.usd, NativePerHour: r.native, NativeCurrency: r.offer.Price.Currency,
		OtherOffers: r.others, SpotRisk: r.risk,
	}
	f.Checks = checks(s, sp)
	f.Verdict = Fits
	for _, c := range f.Checks {
		switch c.Status {
		case Fail:
			f.Verdict = DoesNotFit
		case UnknownSpec:
			if f.Verdict == Fits {
				f.Verdict = MayFit
			}
			// Two checks may miss the same fact (each GPU's memory and the
			// total both need the GPU's memory): it is one unknown.
			if !slices.ContainsFunc(f.Unknowns, func(u Reason) bool { return reflect.DeepEqual(u, c.Reason) }) {
				f.Unknowns = append(f.Unknowns, c.Reason)
			}
		}
	}
	if f.Verdict == DoesNotFit {
		f.Score = decimal.Zero
		return f, sp
	}
	f.WorkCost = bestWorkCost(s, r.offer.Key(), costs)
	f.Dimensions = specDimensions(s, sp)
	f.Weaknesses = append(f.Weaknesses, preferenceWeaknesses(s, sp)...)
	return f, sp
}
