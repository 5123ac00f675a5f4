package sitegen

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The documents of the static JSON API (api/v1/): their shapes, one Go type
// per JSON object. Field names are a public contract: within v1 fields are
// only ever added (README, "JSON API"), and each document kind has a JSON
// Schema written by hand in templates/api/schema/ that the tests validate
// every built document against. Money is an exact decimal string with its
// currency; every figure is a code or a number, never a sentence; names are
// as their source publishes them. Links (href) are relative to api/v1/, page
// links (page) to the site's root.

// apiVersion is the API's version, the folder under api/.
const apiVersion = "v1"

// apiRoot is the folder the API is published in, relative to the site root.
const apiRoot = "api/" + apiVersion + "/"

// apiHead starts every document: the API version, the schema it validates
// against (relative to api/v1/) and the catalog's time.
type apiHead struct {
	API     string    `json:"api_version"`
	Schema  string    `json:"schema"`
	TakenAt time.Time `json:"taken_at"`
}

// apiMoney is an exact amount in a currency.
type apiMoney struct {
	Amount   decimal.Decimal  `json:"amount"`
	Currency catalog.Currency `json:"currency"`
}

// apiPrice is an offer's price as published: amount per unit, with what is
// paid upfront and the list price where the source gives them.
type apiPrice struct {
	Amount   decimal.Decimal   `json:"amount"`
	Currency catalog.Currency  `json:"currency"`
	Unit     catalog.PriceUnit `json:"unit"`
	Upfront  *decimal.Decimal  `json:"upfront,omitempty"`
	List     *decimal.Decimal  `json:"list,omitempty"`
}

// apiRange is the band a source gives around a price.
type apiRange struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

// apiProvenance is where an offer's price comes from and when it held.
type apiProvenance struct {
	Source    string    `json:"source"`
	FetchedAt time.Time `json:"fetched_at"`
	// ObservedAt is when the source says the price held; omitted when it
	// gives no date (the mark "undated").
	ObservedAt time.Time `json:"observed_at,omitzero"`
}

// apiOffer is one offer with its derived prices, provenance and marks.
type apiOffer struct {
	Key          string               `json:"key"`
	Provider     catalog.Provider     `json:"provider"`
	InstanceType string               `json:"instance_type"`
	Region       string               `json:"region"`
	Zone         string               `json:"zone,omitempty"`
	Billing      catalog.BillingKind  `json:"billing"`
	Price        apiPrice             `json:"price"`
	PriceRange   *apiRange            `json:"price_range,omitempty"`
	Availability catalog.Availability `json:"availability"`
	Zones        []string             `json:"zones,omitempty"`
	Includes     string               `json:"includes,omitempty"`
	// PerHour and PerGPUHour are the effective hourly price (upfront spread
	// over the term) in the offer's currency, and per whole GPU; USDPerHour
	// and USDPerGPUHour the same through the catalog's FX table. Omitted where
	// they cannot be computed.
	PerHour       *apiMoney     `json:"per_hour,omitempty"`
	PerGPUHour    *apiMoney     `json:"per_gpu_hour,omitempty"`
	USDPerHour    *apiMoney     `json:"usd_per_hour,omitempty"`
	USDPerGPUHour *apiMoney     `json:"usd_per_gpu_hour,omitempty"`
	Provenance    apiProvenance `json:"provenance"`
	Marks         []string      `json:"marks"`
	Href          string        `json:"href,omitempty"` // the instance document (offers/ documents only)
	// The rest of the offer's facts (compare.OfferFacts, added within v1):
	// per GiB of GPU memory; the saving against its type's cheapest plausible
	// on-demand offer in the region, in percent to 2 places; a spot offer's
	// interruption status, band and risk-adjusted price. Omitted where none.
	PerGiBHour     *apiMoney                `json:"per_gib_hour,omitempty"`
	USDPerGiBHour  *apiMoney                `json:"usd_per_gib_hour,omitempty"`
	SavingPct      *decimal.Decimal         `json:"saving_vs_on_demand_pct,omitempty"`
	Interruption   string                   `json:"interruption,omitempty"`
	Band           catalog.InterruptionBand `json:"band,omitempty"`
	RiskPerHour    *apiMoney                `json:"risk_per_hour,omitempty"`
	RiskUSDPerHour *apiMoney                `json:"risk_usd_per_hour,omitempty"`
	// Parts are what the price is made of where the provider prices in parts
	// (Google Cloud: machine and accelerators), in the price's currency and
	// unit (added within v1).
	Parts []catalog.PricePart `json:"parts,omitempty"`
}

// The marks an offer can carry (apiOffer.Marks), in this order.
const (
	markStale     = "stale"     // kept from an earlier crawl (its provider, region or type failed)
	markOld       = "old"       // observed more than catalog.StaleDays before the catalog's time
	markUndated   = "undated"   // the source gives no date
	markSuspect   = "suspect"   // a plausibility rule flagged the price
	markReported  = "reported"  // read by a person from a purchase page: real, unverified
	markEstimated = "estimated" // derived from another price, not observed (AWS spot from the advisor's saving)
	markSynthetic = "synthetic" // not a real published price (test catalogs only)
)

// apiAccelerator is one accelerator of an instance type: the provider's
// reported memory and the GPU reference's nominal class side by side.
type apiAccelerator struct {
	Kind                catalog.AcceleratorKind `json:"kind"`
	Model               string                  `json:"model,omitempty"` // canonical id; omitted when unmapped
	Name                string                  `json:"name"`            // the provider's name
	Manufacturer        string                  `json:"manufacturer,omitempty"`
	Count               int                     `json:"count"`
	Share               decimal.Decimal         `json:"share"`
	ReportedMemoryGiB   decimal.Decimal         `json:"reported_memory_gib"`
	MemoryFromReference bool                    `json:"memory_from_reference"`
	ReferenceMemoryGB   *decimal.Decimal        `json:"reference_memory_gb,omitempty"`
	MappingConfidence   string                  `json:"mapping_confidence,omitempty"`
	Href                string                  `json:"href,omitempty"` // the GPU document
}

// apiVerdict is one scenario's verdict on an instance type, with compare's
// reason codes and figures.
type apiVerdict struct {
	Scenario   string           `json:"scenario"`
	Href       string           `json:"href"`
	Verdict    compare.Verdict  `json:"verdict"`
	Rank       int              `json:"rank,omitempty"` // place in the ranking, from 1; omitted when it does not fit
	Ranked     int              `json:"ranked"`         // types the ranking has
	Score      *decimal.Decimal `json:"score,omitempty"`
	OfferKey   string           `json:"offer_key,omitempty"`
	Strengths  []compare.Reason `json:"strengths,omitempty"`
	Weaknesses []compare.Reason `json:"weaknesses,omitempty"`
	Unknowns   []compare.Reason `json:"unknowns,omitempty"`
	// Failed is the requirements that fail, with their reasons (does_not_fit).
	Failed []compare.Check `json:"failed,omitempty"`
}

// apiWorkCost is one cost per unit of work: what the instance and GPU pages
// show, from a team's benchmark upload or a published result.
type apiWorkCost struct {
	Workload     string              `json:"workload"`
	Scenario     string              `json:"scenario,omitempty"`
	Provider     catalog.Provider    `json:"provider"`
	InstanceType string              `json:"instance_type"`
	Href         string              `json:"href"`
	OfferKey     string              `json:"offer_key"`
	Region       string              `json:"region"`
	Billing      catalog.BillingKind `json:"billing"`
	Basis        compare.Basis       `json:"basis"`
	// Cost is USD per PerQuantity units of PerUnit work.
	Cost        apiMoney         `json:"cost"`
	PerQuantity *decimal.Decimal `json:"per_quantity,omitempty"`
	PerUnit     string           `json:"per_unit,omitempty"`
	WorkPerHour decimal.Decimal  `json:"work_per_hour"`
	PricePerHr  apiMoney         `json:"price_per_hour"`
	Run         string           `json:"run,omitempty"` // file:line of the upload the figure comes from
	SourceURL   string           `json:"source_url,omitempty"`
	Reason      compare.Reason   `json:"reason"`
	Marks       []string         `json:"marks"`
	// Published is the result's round, system, submitter and count, for a
	// figure from a published result.
	Published *compare.PublishedBasis `json:"published,omitempty"`
}

// apiCountGap is "no result for this count": results exist for the GPU model
// in a workload and scenario, but not for the instance type's GPU count.
type apiCountGap struct {
	Workload string `json:"workload"`
	Scenario string `json:"scenario,omitempty"`
	GPUModel string `json:"gpu_model"`
	GPUCount int    `json:"gpu_count"`
	Counts   []int  `json:"counts_with_results"`
	// InstanceTypes are the types of GPUCount without a result (GPU documents).
	InstanceTypes []string `json:"instance_types,omitempty"`
}

// apiTypeRef names an instance type and links its document.
type apiTypeRef struct {
	Provider     catalog.Provider `json:"provider"`
	InstanceType string           `json:"instance_type"`
	Href         string           `json:"href"`
}
