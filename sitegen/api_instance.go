package sitegen

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The instance documents (api/v1/instances/{provider}/{type}.json) and the
// offer lists (api/v1/offers/{provider}.json): every offer of the catalog is
// in exactly these two places. The figures are the instance pages' own: the
// site model's derived prices, the scenario report's verdicts, and the cost
// per unit of work the pages show (benchmarks.go, published.go).

// apiInstanceDoc is one instance type.
type apiInstanceDoc struct {
	apiHead
	Provider     catalog.Provider `json:"provider"`
	InstanceType string           `json:"instance_type"`
	Family       string           `json:"family"`
	VCPUs        int              `json:"vcpus"`
	MemoryGiB    decimal.Decimal  `json:"memory_gib"`
	CPUArch      string           `json:"cpu_arch,omitempty"`
	CPUVendor    string           `json:"cpu_vendor,omitempty"`
	Interconnect string           `json:"interconnect,omitempty"`
	// The link's bandwidth per accelerator as the provider states it, its unit
	// (GB/s or GiB/s) and the documentation it comes from.
	InterconnectBandwidth *decimal.Decimal       `json:"interconnect_bandwidth,omitempty"`
	InterconnectUnit      string                 `json:"interconnect_unit,omitempty"`
	InterconnectSource    string                 `json:"interconnect_source,omitempty"`
	LocalStorageGB        int                    `json:"local_storage_gb,omitempty"`
	LocalNVMe             bool                   `json:"local_nvme"`
	Network               string                 `json:"network,omitempty"` // as published
	NetworkGbps           *decimal.Decimal       `json:"network_gbps,omitempty"`
	RDMA                  string                 `json:"rdma,omitempty"`
	EFAInterfaces         int                    `json:"efa_interfaces,omitempty"`
	Generation            string                 `json:"generation"`
	BareMetal             bool                   `json:"bare_metal"`
	Source                string                 `json:"source"`
	Synthetic             bool                   `json:"synthetic"`
	GPUs                  decimal.Decimal        `json:"gpus"`                    // whole-device equivalents
	GPUMemoryGiB          decimal.Decimal        `json:"gpu_memory_gib"`          // all devices, by the reference's class
	GPUModel              string                 `json:"gpu_model,omitempty"`     // the primary accelerator's model
	Conflicts             []catalog.SpecConflict `json:"conflicts,omitempty"`     // provider and reference disagree
	Page                  string                 `json:"page"`                    // the English page, from the site root
	Accelerators          []apiAccelerator       `json:"accelerators"`            //
	Offers                []apiOffer             `json:"offers"`                  //
	Placements            []apiPlacement         `json:"placements"`              // zones and their stock
	Scenarios             []apiVerdict           `json:"scenarios"`               // every scenario's verdict
	WorkCosts             []apiWorkCost          `json:"work_costs"`              // from teams' uploads
	PublishedCosts        []apiWorkCost          `json:"published_costs"`         // from published results
	CountGaps             []apiCountGap          `json:"count_gaps"`              // no result for this count
	Similar               []apiTypeRef           `json:"similar_on_other_clouds"` // as the page lists them
}

// apiPlacement is a zone the type can be launched in, with its stock where
// the provider says.
type apiPlacement struct {
	Region string               `json:"region"`
	Zone   string               `json:"zone"`
	Status catalog.Availability `json:"status"`
}

// apiOffersDoc is every offer of one provider.
type apiOffersDoc struct {
	apiHead
	Provider catalog.Provider `json:"provider"`
	Offers   []apiOffer       `json:"offers"`
}

// typeHref is the instance document of an instance type key, "" for a type
// the snapshot does not have.
func (a *apiSite) typeHref(key string) string {
	t := a.m.typeByKey[key]
	if t == nil {
		return ""
	}
	return strings.TrimSuffix(t.Href, ".html") + ".json"
}

func money(d *decimal.Decimal, c catalog.Currency) *apiMoney {
	if d == nil {
		return nil
	}
	return &apiMoney{Amount: *d, Currency: c}
}

// offer is an offer as every document carries it.
func (a *apiSite) offer(o *offerView) apiOffer {
	f := o.Offer
	v := apiOffer{Key: o.Key, Provider: f.Provider, InstanceType: f.InstanceType, Region: f.Region, Zone: f.Zone,
		Billing: f.Billing, Availability: f.Availability, Zones: f.Zones, Includes: f.Includes,
		Price:      apiPrice{Amount: f.Price.Amount, Currency: f.Price.Currency, Unit: f.Price.Unit, Upfront: f.Price.Upfront, List: f.Price.List},
		PerHour:    money(o.NativeHour, f.Price.Currency),
		PerGPUHour: money(o.NativeGPUHour, f.Price.Currency),
		USDPerHour: money(o.USDHour, catalog.USD), USDPerGPUHour: money(o.USDGPUHour, catalog.USD),
		Provenance: apiProvenance{Source: f.Source, FetchedAt: f.FetchedAt.UTC(), ObservedAt: f.ObservedAt.UTC()},
		Marks:      offerMarks(o),
	}
	fa := o.Facts // the offer's facts, as the pages and the exports read them
	v.PerGiBHour, v.USDPerGiBHour = money(fa.GiBHour, f.Price.Currency), money(fa.USDGiBHour, catalog.USD)
	v.SavingPct, v.Interruption, v.Band = fa.SavingPct, fa.SpotStatus, fa.SpotBand
	v.RiskPerHour = money(fa.RiskHour, f.Price.Currency)
	if fa.SpotRisk != nil {
		v.RiskUSDPerHour = money(fa.SpotRisk.USDPerHour, catalog.USD)
	}
	if f.PriceRange != nil {
		v.PriceRange = &apiRange{Min: f.PriceRange.Min, Max: f.PriceRange.Max}
	}
	v.Parts = f.Parts
	return v
}

// offerMarks are the marks the pages show on an offer, as codes.
func offerMarks(o *offerView) []string {
	marks := []string{}
	for _, m := range []struct {
		on   bool
		code string
	}{
		{o.Stale, markStale}, {o.Old, markOld}, {o.Undated, markUndated},
		{!o.Offer.Plausible(), markSuspect}, {o.Offer.Reported, markReported}, {o.Offer.Estimated, markEstimated}, {o.Offer.Synthetic, markSynthetic},
	} {
		if m.on {
			marks = append(marks, m.code)
		}
	}
	return marks
}

// instanceDoc is an instance type's document.
func (a *apiSite) instanceDoc(t *typeView) apiInstanceDoc {
	it := t.T
	d := apiInstanceDoc{apiHead: a.head("instance"), Provider: it.Provider, InstanceType: it.ID, Family: it.Family,
		VCPUs: it.VCPUs, MemoryGiB: it.MemoryGiB, CPUArch: it.CPUArch, CPUVendor: it.CPUVendor, Interconnect: it.Interconnect,
		LocalStorageGB: it.LocalStorageGB, LocalNVMe: it.LocalNVMe, Network: it.Network, NetworkGbps: it.NetworkGbps,
		RDMA: it.RDMA, EFAInterfaces: it.EFAInterfaces, Generation: it.Generation, BareMetal: it.BareMetal,
		Source: it.Source, Synthetic: it.Synthetic, GPUs: t.units, GPUMemoryGiB: t.gpuMem, GPUModel: t.GPUModel,
		Conflicts: it.Conflicts, Page: t.Href, InterconnectBandwidth: it.InterconnectBandwidth,
		InterconnectUnit: it.InterconnectUnit, InterconnectSource: it.InterconnectSource,
		Accelerators: []apiAccelerator{}, Offers: []apiOffer{}, Placements: []apiPlacement{}, Scenarios: a.verdicts[it.Key()],
		WorkCosts: []apiWorkCost{}, PublishedCosts: []apiWorkCost{}, CountGaps: []apiCountGap{}, Similar: []apiTypeRef{}}
	if d.Scenarios == nil {
		d.Scenarios = []apiVerdict{}
	}
	for _, ac := range it.Accelerators {
		v := apiAccelerator{Kind: ac.Kind, Model: ac.Model, Name: ac.Name, Manufacturer: ac.Manufacturer, Count: ac.Count,
			Share: ac.Share, ReportedMemoryGiB: ac.MemoryGiB, MemoryFromReference: ac.MemoryFromReference,
			ReferenceMemoryGB: ac.NominalMemoryGB, MappingConfidence: ac.MappingConfidence}
		if a.gpuPaths[ac.Model] != "" {
			v.Href = a.gpuPaths[ac.Model]
		}
		d.Accelerators = append(d.Accelerators, v)
	}
	for _, o := range a.m.offersOf[it.Key()] {
		d.Offers = append(d.Offers, a.offer(o))
	}
	for _, p := range a.m.placeOf[it.Key()] {
		d.Placements = append(d.Placements, apiPlacement{Region: p.P.Region, Zone: p.P.Zone, Status: p.P.Status})
	}
	for _, s := range a.m.similar(t) {
		d.Similar = append(d.Similar, a.typeRef(s.Type))
	}
	if a.x != nil {
		d.WorkCosts, d.PublishedCosts, d.CountGaps = a.benchCosts(a.x.instanceBench(t))
	}
	return d
}

// benchCosts is what a page's benchmarks (nil: none) give its document: the
// cost per unit of work of each run, and the published section's costs and
// count gaps; empty lists, never nil, where there are none.
func (a *apiSite) benchCosts(b *benchResults) (work, published []apiWorkCost, gaps []apiCountGap) {
	work, published, gaps = []apiWorkCost{}, []apiWorkCost{}, []apiCountGap{}
	if b == nil {
		return work, published, gaps
	}
	for _, c := range b.Costs {
		work = append(work, a.workCost(c.C))
	}
	if b.Published != nil {
		published, gaps = a.publishedCosts(b.Published)
	}
	return work, published, gaps
}

// publishedCosts flattens a page's published section into its costs and gaps.
func (a *apiSite) publishedCosts(s *pubSection) ([]apiWorkCost, []apiCountGap) {
	costs, gaps := []apiWorkCost{}, []apiCountGap{}
	for _, g := range s.Groups {
		for _, r := range g.Rows {
			for _, c := range r.Items {
				costs = append(costs, a.workCost(c.C))
			}
		}
		for _, gp := range g.Gaps {
			v := apiCountGap{Workload: gp.Workload, Scenario: gp.Scenario, GPUCount: gp.GPUCount, Counts: gp.Counts}
			if len(gp.Types) > 0 {
				v.GPUModel = gp.Types[0].GPUModel
			}
			if s.OnGPU {
				for _, t := range gp.Types {
					v.InstanceTypes = append(v.InstanceTypes, t.T.Key())
				}
			}
			gaps = append(gaps, v)
		}
	}
	return costs, gaps
}

func (a *apiSite) typeRef(t *typeView) apiTypeRef {
	return apiTypeRef{Provider: t.T.Provider, InstanceType: t.T.ID, Href: a.typeHref(t.T.Key())}
}

// workCost is a cost per unit of work as the documents carry it.
func (a *apiSite) workCost(c compare.WorkCost) apiWorkCost {
	v := apiWorkCost{Workload: c.Workload, Scenario: c.Scenario, Provider: c.Provider, InstanceType: c.InstanceType,
		Href: a.typeHref(string(c.Provider) + "/" + c.InstanceType), OfferKey: c.OfferKey, Region: c.Region, Billing: c.Billing,
		Basis: c.Basis, Cost: apiMoney{Amount: c.CostPerUnit, Currency: catalog.USD}, WorkPerHour: c.WorkPerHour,
		PricePerHr: apiMoney{Amount: c.PriceUSDPerHour, Currency: catalog.USD}, Run: c.RunRef, SourceURL: c.SourceURL,
		Reason: c.Reason, Published: c.Published, Marks: []string{}}
	if a.x != nil && a.x.workloads != nil {
		if w, ok := a.x.workloads.Workload(c.Workload); ok && w.CostPer.IsPositive() {
			per := w.CostPer
			v.PerQuantity, v.PerUnit = &per, w.Rate.Work
		}
	}
	if c.Suspect != "" {
		v.Marks = append(v.Marks, markSuspect)
	}
	if c.Reported {
		v.Marks = append(v.Marks, markReported)
	}
	if c.Synthetic {
		v.Marks = append(v.Marks, markSynthetic)
	}
	return v
}

// offersDocs are the offer lists, one per provider with offers.
func (a *apiSite) offersDocs() map[catalog.Provider]apiOffersDoc {
	out := map[catalog.Provider]apiOffersDoc{}
	for _, o := range a.m.offers {
		p := o.Offer.Provider
		d, ok := out[p]
		if !ok {
			d = apiOffersDoc{apiHead: a.head("offers"), Provider: p}
		}
		v := a.offer(o)
		v.Href = a.typeHref(o.Offer.InstanceKey())
		d.Offers = append(d.Offers, v)
		out[p] = d
	}
	return out
}

// indexVerdicts gathers every scenario's verdict on each instance type, in
// the report's scenario order: those ranked (fits, may fit) with their place
// and reasons, those rejected with their failing checks.
func (a *apiSite) indexVerdicts(s *scenarioSite) {
	a.verdicts = map[string][]apiVerdict{}
	if s == nil {
		return
	}
	for _, r := range s.matrix.Scenarios {
		href := a.scenarioPaths[r.Scenario.ID]
		for i, f := range r.Ranked {
			score := f.Score
			a.verdicts[f.InstanceKey] = append(a.verdicts[f.InstanceKey], apiVerdict{Scenario: r.Scenario.ID, Href: href,
				Verdict: f.Verdict, Rank: i + 1, Ranked: len(r.Ranked), Score: &score, OfferKey: f.OfferKey,
				Strengths: f.Strengths, Weaknesses: f.Weaknesses, Unknowns: f.Unknowns})
		}
		for _, f := range r.Rejected {
			v := apiVerdict{Scenario: r.Scenario.ID, Href: href, Verdict: f.Verdict, Ranked: len(r.Ranked)}
			for _, c := range f.Checks {
				if c.Status == compare.Fail {
					v.Failed = append(v.Failed, c)
				}
			}
			a.verdicts[f.InstanceKey] = append(a.verdicts[f.InstanceKey], v)
		}
	}
}
