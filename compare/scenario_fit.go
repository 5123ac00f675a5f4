package compare

import (
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

// Check is one hard requirement applied to an instance type, with the figures in
// words: "8 × 80 GiB = 640 GiB ≥ 320 GiB".
type Check struct {
	Requirement string      `json:"requirement"`
	Status      CheckStatus `json:"status"`
	Detail      string      `json:"detail"`
}

// Dimension statuses.
const (
	Scored        = "scored"
	NotScoredYet  = "unknown"        // the figure is unknown: counted as 0 and said so
	NotApplicable = "not_applicable" // left out of the weights (no benchmark, single GPU…)
)

// DimensionScore is one dimension's share of a score. Value is in [0, 1], rounded
// to ScorePlaces; an unknown figure scores 0 and says so in Detail; a dimension
// that does not apply to the offer is left out of the weighted mean.
type DimensionScore struct {
	Dimension Dimension       `json:"dimension"`
	Weight    decimal.Decimal `json:"weight"`
	Status    string          `json:"status"`
	Value     decimal.Decimal `json:"value"`
	Detail    string          `json:"detail"`
	// Figure and Target are the dimension's own figure and what scores 1, in
	// words ("31.24 TFLOPS", "100 TFLOPS"), for short strength and weakness phrases.
	Figure string `json:"figure,omitempty"`
	Target string `json:"target,omitempty"`
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
// requirement, the score with its dimensions, strengths, weaknesses, unknowns and
// a one-line summary. Everything a scenario page row shows.
type OfferFit struct {
	Scenario string `json:"scenario"`
	// Instance is the instance type (in Go only: the JSON has its key and the
	// figures below; the full record is in the catalog export).
	Instance    catalog.InstanceType `json:"-"`
	InstanceKey string               `json:"instance"`
	Offer       catalog.Offer        `json:"offer"`
	OfferKey    string               `json:"offer_key"`
	// Hardware is the accelerators in words: "8x NVIDIA A100 80GB (80 GiB each), NVLink".
	Hardware  string          `json:"hardware"`
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
	Strengths   []string         `json:"strengths,omitempty"`
	Weaknesses  []string         `json:"weaknesses,omitempty"`
	Unknowns    []string         `json:"unknowns,omitempty"`
	// WorkCost is the offer's best cost per unit of work for the scenario's
	// workloads, when a benchmark gives one (measured or estimated).
	WorkCost *WorkCost `json:"work_cost,omitempty"`
	// Summary: "fits: 8x 80 GiB NVIDIA A100, NVLink; weakness: 12 vCPU per GPU is
	// low for data loading (prefer 16)".
	Summary string `json:"summary"`
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
		OtherOffers: r.others,
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
			f.Unknowns = append(f.Unknowns, c.Detail)
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
