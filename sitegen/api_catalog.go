package sitegen

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The API's directory and its documents about GPU models, regions and
// scenarios (api/v1/index.json, gpus/, regions/, scenarios/). They hold
// references and summaries; every offer itself is in the instance and offers
// documents (api_instance.go).

// apiIndexDoc is api/v1/index.json: what the catalog holds, its dates, and a
// link to every other document.
type apiIndexDoc struct {
	apiHead
	FX        apiFX              `json:"fx"`
	Counts    apiCounts          `json:"counts"`
	Providers []apiProviderEntry `json:"providers"`
	// Schemas links the schema of each document kind.
	Schemas       map[string]string  `json:"schemas"`
	InstanceTypes []apiTypeEntry     `json:"instance_types"`
	GPUs          []apiGPUEntry      `json:"gpus"`
	Regions       []apiRegionEntry   `json:"regions"`
	Scenarios     []apiScenarioEntry `json:"scenarios"`
	Pages         apiPages           `json:"pages"`
}

type apiFX struct {
	Base   catalog.Currency                     `json:"base"`
	Date   string                               `json:"date"`
	Source string                               `json:"source"`
	Rates  map[catalog.Currency]decimal.Decimal `json:"rates"`
}

type apiCounts struct {
	InstanceTypes int `json:"instance_types"`
	Offers        int `json:"offers"`
	Regions       int `json:"regions"`
	Placements    int `json:"placements"`
	GPUModels     int `json:"gpu_models"`
	Scenarios     int `json:"scenarios"`
}

// apiProviderEntry is one provider: its coverage, counts and data dates.
type apiProviderEntry struct {
	Provider       catalog.Provider       `json:"provider"`
	Coverage       catalog.CoverageStatus `json:"coverage"`
	LastOK         time.Time              `json:"last_ok,omitzero"`
	InstanceTypes  int                    `json:"instance_types"`
	Offers         int                    `json:"offers"`
	Regions        int                    `json:"regions"`
	ReportedOffers int                    `json:"reported_offers"`
	UndatedOffers  int                    `json:"undated_offers"`
	// OldestObservedAt and NewestObservedAt span the offers' observed_at;
	// RetrievedAt is the latest fetched_at.
	OldestObservedAt time.Time `json:"oldest_observed_at,omitzero"`
	NewestObservedAt time.Time `json:"newest_observed_at,omitzero"`
	RetrievedAt      time.Time `json:"retrieved_at,omitzero"`
	Href             string    `json:"href,omitempty"` // the offers document; omitted without offers
}

type apiTypeEntry struct {
	apiTypeRef
	GPUModel string          `json:"gpu_model,omitempty"`
	GPUs     decimal.Decimal `json:"gpus"`
	Offers   int             `json:"offers"`
}

type apiGPUEntry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Href string `json:"href"`
}

type apiRegionEntry struct {
	Provider catalog.Provider `json:"provider"`
	Region   string           `json:"region"`
	Country  string           `json:"country,omitempty"`
	Href     string           `json:"href"`
}

type apiScenarioEntry struct {
	ID   string `json:"id"`
	Href string `json:"href"`
}

// apiPages links the site's human pages, from the site root.
type apiPages struct {
	API       string `json:"api"`
	Downloads string `json:"downloads"`
	LLMsTxt   string `json:"llms_txt"`
}

// apiGPUDoc is one GPU model.
type apiGPUDoc struct {
	apiHead
	ID             string            `json:"id"`
	Known          bool              `json:"known"`               // the GPU reference has the model
	Reference      *catalog.GPUModel `json:"reference,omitempty"` // the reference's specs
	Page           string            `json:"page"`
	InstanceTypes  []apiGPUType      `json:"instance_types"`
	ByProvider     []apiGPUPrice     `json:"by_provider"`
	Scenarios      []apiGPUFit       `json:"scenarios"`
	WorkCosts      []apiWorkCost     `json:"work_costs"`
	PublishedCosts []apiWorkCost     `json:"published_costs"`
	CountGaps      []apiCountGap     `json:"count_gaps"`
	NoPublished    bool              `json:"no_published_results"` // no published source has a result for the model
}

// apiGPUType is an instance type with the model as its primary accelerator.
type apiGPUType struct {
	apiTypeRef
	GPUs    decimal.Decimal `json:"gpus"`
	Offers  int             `json:"offers"`
	Regions int             `json:"regions"`
}

// apiGPUPrice is a provider's lowest plausible USD per GPU-hour for the
// model, by billing group (on_demand, spot, commitment).
type apiGPUPrice struct {
	Provider   catalog.Provider `json:"provider"`
	Offers     int              `json:"offers"`
	OnDemand   *apiMoney        `json:"on_demand,omitempty"`
	Spot       *apiMoney        `json:"spot,omitempty"`
	Commitment *apiMoney        `json:"commitment,omitempty"`
	Marks      []string         `json:"marks"`
}

// apiGPUFit is a scenario that types with the model fit or may fit.
type apiGPUFit struct {
	Scenario string          `json:"scenario"`
	Href     string          `json:"href"`
	Fits     int             `json:"fits"`
	MayFit   int             `json:"may_fit"`
	Best     apiTypeRef      `json:"best"`
	Verdict  compare.Verdict `json:"best_verdict"`
	Rank     int             `json:"best_rank"`
}

// apiRegionDoc is one region: its metadata, zones and the instance types
// offered there with their lowest on-demand price.
type apiRegionDoc struct {
	apiHead
	Provider      catalog.Provider `json:"provider"`
	Region        string           `json:"region"`
	NameEN        string           `json:"name_en,omitempty"`
	NameZH        string           `json:"name_zh,omitempty"`
	Country       string           `json:"country,omitempty"`
	City          string           `json:"city,omitempty"`
	Geo           string           `json:"geo,omitempty"`
	Zones         []string         `json:"zones"`
	Offers        int              `json:"offers"`
	InstanceTypes []apiRegionType  `json:"instance_types"`
}

type apiRegionType struct {
	apiTypeRef
	Billing []catalog.BillingKind `json:"billing"`
	Offers  int                   `json:"offers"`
	// OnDemand is the lowest plausible on-demand offer in the region.
	OnDemand *apiRegionPrice `json:"on_demand,omitempty"`
}

type apiRegionPrice struct {
	OfferKey   string    `json:"offer_key"`
	PerHour    *apiMoney `json:"per_hour,omitempty"`
	USDPerHour *apiMoney `json:"usd_per_hour,omitempty"`
	Marks      []string  `json:"marks"`
}

// apiScenarioDoc is one scenario: its rules and its ranking.
type apiScenarioDoc struct {
	apiHead
	ID         string               `json:"id"`
	Name       string               `json:"name"`
	NameZH     string               `json:"name_zh"`
	Category   string               `json:"category"`
	Page       string               `json:"page"`
	PriceBasis compare.PriceBasis   `json:"price_basis"`
	Billing    catalog.BillingKind  `json:"billing"` // the prices the ranking is on
	Requires   compare.Requirements `json:"requires"`
	Weights    []apiWeight          `json:"weights"`
	Workloads  []string             `json:"workloads"`
	Counts     apiScenarioCounts    `json:"counts"`
	Ranked     []apiRankedType      `json:"ranked"`
	Rejected   []apiRejectedType    `json:"rejected"`
	// Spot is an interruptible scenario's ranking on spot prices,
	// risk-adjusted (compare.ScenarioReport.Spot); absent for the others.
	Spot *apiSpotRanking `json:"spot,omitempty"`
}

// apiSpotRanking is an interruptible scenario's whole ranking on spot offers,
// each instance type at its cheapest spot offer by the risk-adjusted price,
// with the interruption model's inputs.
type apiSpotRanking struct {
	Billing           catalog.BillingKind `json:"billing"` // spot
	CheckpointMinutes decimal.Decimal     `json:"checkpoint_minutes"`
	RestartMinutes    decimal.Decimal     `json:"restart_minutes"`
	Counts            apiScenarioCounts   `json:"counts"`
	Ranked            []apiSpotRankedType `json:"ranked"`
}

// apiSpotRankedType is one place of the spot ranking: per_hour and
// usd_per_hour are the spot price as published (and in USD);
// risk_usd_per_hour is the risk-adjusted price the ranking used, absent
// without a band (the offer ranks on usd_per_hour, no rate assumed).
type apiSpotRankedType struct {
	apiRankedType
	Interruption          string                   `json:"interruption"` // catalog.InterruptionStatus: band, no_data, not_published
	Band                  catalog.InterruptionBand `json:"band,omitempty"`
	InterruptionsPerMonth *decimal.Decimal         `json:"interruptions_per_month,omitempty"`
	LossHours             *decimal.Decimal         `json:"loss_hours,omitempty"`
	RiskUSDPerHour        *apiMoney                `json:"risk_usd_per_hour,omitempty"`
}

type apiWeight struct {
	Dimension compare.Dimension `json:"dimension"`
	Weight    decimal.Decimal   `json:"weight"`
}

type apiScenarioCounts struct {
	Fits     int `json:"fits"`
	MayFit   int `json:"may_fit"`
	Rejected int `json:"rejected"`
}

// apiRankedType is one place of a ranking; the reasons are in the instance
// document's verdict.
type apiRankedType struct {
	Rank int `json:"rank"`
	apiTypeRef
	Verdict    compare.Verdict `json:"verdict"`
	Score      decimal.Decimal `json:"score"`
	OfferKey   string          `json:"offer_key"`
	Region     string          `json:"region"`
	PerHour    *apiMoney       `json:"per_hour,omitempty"`
	USDPerHour *apiMoney       `json:"usd_per_hour,omitempty"`
	WorkCost   *apiMoney       `json:"work_cost,omitempty"` // USD per the workload's unit, when a benchmark gives one
	Workload   string          `json:"work_cost_workload,omitempty"`
}

// apiRejectedType is a type that does not fit, with the requirements it fails.
type apiRejectedType struct {
	apiTypeRef
	Failed []string `json:"failed"`
}

// gpuDoc is a GPU model's document: the GPU page's figures.
func (a *apiSite) gpuDoc(id string) apiGPUDoc {
	p := a.m.gpuPage(id)
	d := apiGPUDoc{apiHead: a.head("gpu"), ID: id, Known: p.Known, Page: gpuHref(id),
		InstanceTypes: []apiGPUType{}, ByProvider: []apiGPUPrice{}, Scenarios: []apiGPUFit{},
		WorkCosts: []apiWorkCost{}, PublishedCosts: []apiWorkCost{}, CountGaps: []apiCountGap{}}
	if p.Known {
		g := p.Model
		d.Reference = &g
	}
	// The types in the page's order: cheapest on-demand per GPU-hour first.
	for _, r := range p.Rows {
		d.InstanceTypes = append(d.InstanceTypes, apiGPUType{apiTypeRef: a.typeRef(r.Type), GPUs: r.Type.units, Offers: r.Offers, Regions: r.Regions})
	}
	for _, v := range p.ByProvider {
		e := apiGPUPrice{Provider: v.Provider, Offers: v.Offers, OnDemand: money(v.OnDemand, catalog.USD),
			Spot: money(v.Spot, catalog.USD), Commitment: money(v.Reserved, catalog.USD), Marks: []string{}}
		if v.Old {
			e.Marks = append(e.Marks, markOld)
		}
		if v.Undated {
			e.Marks = append(e.Marks, markUndated)
		}
		d.ByProvider = append(d.ByProvider, e)
	}
	for _, f := range p.Fits {
		d.Scenarios = append(d.Scenarios, apiGPUFit{Scenario: f.S.ID, Href: a.scenarioPaths[f.S.ID], Fits: f.Types, MayFit: f.MayFit,
			Best: a.typeRef(f.BestRef), Verdict: f.Best.Verdict, Rank: f.Best.Rank})
	}
	if a.x == nil {
		return d
	}
	b := a.x.gpuBench(id)
	d.WorkCosts, d.PublishedCosts, d.CountGaps = a.benchCosts(b)
	if b != nil && b.Published != nil {
		d.NoPublished = b.Published.None
	}
	for i := range d.CountGaps {
		d.CountGaps[i].GPUModel = id
	}
	return d
}

// regionKeys lists the regions with offers or placements, by provider in
// display order, then id.
func (a *apiSite) regionKeys() []catalog.Region {
	seen := map[string]bool{}
	var out []catalog.Region
	add := func(r catalog.Region) {
		if !seen[r.Key()] {
			seen[r.Key()] = true
			out = append(out, r)
		}
	}
	for _, o := range a.m.offers {
		add(o.Region)
	}
	for _, t := range a.m.types {
		for _, p := range a.m.placeOf[t.T.Key()] {
			add(p.Region)
		}
	}
	rank := map[catalog.Provider]int{}
	for i, p := range a.m.providers() {
		rank[p] = i
	}
	slices.SortFunc(out, func(x, y catalog.Region) int {
		if c := cmp.Compare(rank[x.Provider], rank[y.Provider]); c != 0 {
			return c
		}
		return strings.Compare(x.Key(), y.Key())
	})
	return out
}

// regionDoc is a region's document.
func (a *apiSite) regionDoc(r catalog.Region) apiRegionDoc {
	d := apiRegionDoc{apiHead: a.head("region"), Provider: r.Provider, Region: r.ID, NameEN: r.NameEN, NameZH: r.NameZH,
		Country: r.Country, City: r.City, Geo: r.Geo, Zones: []string{}, InstanceTypes: []apiRegionType{}}
	zones := map[string]bool{}
	for _, t := range a.m.types {
		if t.T.Provider != r.Provider {
			continue
		}
		for _, p := range a.m.placeOf[t.T.Key()] {
			if p.P.Region == r.ID && p.P.Zone != "" {
				zones[p.P.Zone] = true
			}
		}
		var e *apiRegionType
		var cheapest *offerView
		for _, o := range a.m.offersOf[t.T.Key()] {
			if o.Offer.Region != r.ID {
				continue
			}
			if o.Offer.Zone != "" {
				zones[o.Offer.Zone] = true
			}
			if e == nil {
				e = &apiRegionType{apiTypeRef: a.typeRef(t)}
			}
			e.Offers++
			if !slices.Contains(e.Billing, o.Offer.Billing) {
				e.Billing = append(e.Billing, o.Offer.Billing)
			}
			if o.Offer.Billing == catalog.OnDemand && o.Offer.Leads() && o.USDHour != nil && (cheapest == nil || cheaper(o.USDHour, cheapest.USDHour)) {
				cheapest = o
			}
		}
		if e == nil {
			continue
		}
		if cheapest != nil {
			e.OnDemand = &apiRegionPrice{OfferKey: cheapest.Key, PerHour: money(cheapest.NativeHour, cheapest.Offer.Price.Currency),
				USDPerHour: money(cheapest.USDHour, catalog.USD), Marks: offerMarks(cheapest)}
		}
		d.Offers += e.Offers
		d.InstanceTypes = append(d.InstanceTypes, *e)
	}
	for z := range zones {
		d.Zones = append(d.Zones, z)
	}
	slices.Sort(d.Zones)
	return d
}

// scenarioDoc is a scenario's document: its rules and its whole ranking.
func (a *apiSite) scenarioDoc(r compare.ScenarioRanking, billing catalog.BillingKind) apiScenarioDoc {
	s := r.Scenario
	d := apiScenarioDoc{apiHead: a.head("scenario"), ID: s.ID, Name: s.Name, NameZH: s.NameZH, Category: s.Category,
		Page: scenarioHref(s.ID), PriceBasis: s.PriceBasis, Billing: billing, Requires: s.Requires,
		Weights: []apiWeight{}, Workloads: s.Workloads, Ranked: []apiRankedType{}, Rejected: []apiRejectedType{}}
	if d.Workloads == nil {
		d.Workloads = []string{}
	}
	for _, dim := range compare.Dimensions {
		if w := s.Weights.Of(dim); w.IsPositive() {
			d.Weights = append(d.Weights, apiWeight{Dimension: dim, Weight: w})
		}
	}
	d.Counts = rankingCounts(r)
	for i, f := range r.Ranked {
		d.Ranked = append(d.Ranked, a.rankedType(i+1, f, f.USDPerHour))
	}
	for _, f := range r.Rejected {
		e := apiRejectedType{apiTypeRef: a.keyRef(f.InstanceKey), Failed: []string{}}
		for _, c := range f.Checks {
			if c.Status == compare.Fail {
				e.Failed = append(e.Failed, c.Requirement)
			}
		}
		d.Rejected = append(d.Rejected, e)
	}
	if a.scen != nil {
		if sr, ok := a.scen.spot[s.ID]; ok {
			d.Spot = a.spotRanking(sr)
		}
	}
	return d
}

// rankingCounts counts a ranking's types that fit, may fit and do not fit.
func rankingCounts(r compare.ScenarioRanking) apiScenarioCounts {
	c := apiScenarioCounts{Rejected: len(r.Rejected)}
	for _, f := range r.Ranked {
		if f.Verdict == compare.Fits {
			c.Fits++
		} else {
			c.MayFit++
		}
	}
	return c
}

// rankedType is a ranking's place rank: f with its price in USD usd.
func (a *apiSite) rankedType(rank int, f compare.OfferFit, usd *decimal.Decimal) apiRankedType {
	e := apiRankedType{Rank: rank, apiTypeRef: a.keyRef(f.InstanceKey), Verdict: f.Verdict, Score: f.Score,
		OfferKey: f.OfferKey, Region: f.Offer.Region, PerHour: money(f.NativePerHour, f.NativeCurrency),
		USDPerHour: money(usd, catalog.USD)}
	if f.WorkCost != nil {
		e.WorkCost = &apiMoney{Amount: f.WorkCost.CostPerUnit, Currency: catalog.USD}
		e.Workload = f.WorkCost.WorkKey()
	}
	return e
}

// spotRanking is a scenario's spot ranking as its document gives it.
func (a *apiSite) spotRanking(r compare.ScenarioRanking) *apiSpotRanking {
	d := &apiSpotRanking{Billing: catalog.Spot, CheckpointMinutes: compare.DefaultCheckpointMinutes,
		RestartMinutes: compare.DefaultRestartMinutes, Counts: rankingCounts(r), Ranked: []apiSpotRankedType{}}
	for i, f := range r.Ranked {
		fact, _ := a.m.facts.Of(f.OfferKey) // the offer's band and risk-adjusted price
		e := apiSpotRankedType{Interruption: fact.SpotStatus}
		var list *decimal.Decimal
		if sr := fact.SpotRisk; sr != nil {
			l := sr.ListUSDPerHour
			list = &l
			e.Band, e.InterruptionsPerMonth, e.LossHours = sr.Band, sr.Rate, sr.LossHours
			e.RiskUSDPerHour = money(sr.USDPerHour, catalog.USD)
		}
		e.apiRankedType = a.rankedType(i+1, f, list)
		d.Ranked = append(d.Ranked, e)
	}
	return d
}

// keyRef refers to an instance type by its key ("aws/p5.48xlarge").
func (a *apiSite) keyRef(key string) apiTypeRef {
	if t := a.m.typeByKey[key]; t != nil {
		return a.typeRef(t)
	}
	p, id, _ := strings.Cut(key, "/")
	return apiTypeRef{Provider: catalog.Provider(p), InstanceType: id}
}
