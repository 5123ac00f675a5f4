package sitegen

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// siteModel is the snapshot joined and derived once for every page: instance types
// with their page paths and GPU names, offers with their derived prices, regions
// with display names, coverage per provider.
type siteModel struct {
	snap *catalog.Snapshot
	ref  *catalog.GPUReference
	// now is the time data ages are counted to (Options.Now, else the
	// snapshot's taken_at); ages are each provider's (catalog.DataAges).
	now       time.Time
	ages      []catalog.DataAge
	types     []*typeView // in key order
	typeByKey map[string]*typeView
	offers    []*offerView // in the snapshot's canonical order
	// facts is every offer's derived figures (compare's one computation),
	// parallel to offers; benchmark costs add their work costs (newExtras).
	facts      *compare.OfferFactTable
	offerByKey map[string]*offerView
	offersOf   map[string][]*offerView
	placeOf    map[string][]placementView
	regions    map[string]catalog.Region
	coverage   map[catalog.Provider]catalog.Coverage
	staleCover map[catalog.Provider]bool
	history    map[string][]catalog.PricePoint // by offer key; nil without history
	bands      *catalog.BandHistory            // dated advisor bands; nil without them
	explorer   explorerInputs                  // explorer_data.go
	// observedOf are the series imported from public archives by instance type
	// key (history.go); archived are the types only they name, with their pages.
	observedOf map[string][]catalog.ObservedSeriesRuns
	archived   []*archivedType
	archivedBy map[string]*archivedType
	// fits are the scenario verdicts by instance type and GPU model (fits.go);
	// nil without scenarios.
	fits *scenarioFits

	// similar's indexes and answers, made on first use (pages.go).
	similarIndex     map[string][]int
	similarOf        map[string][]similarType
	cheapestOnDemand map[string]*offerView
}

// typeView is an instance type as the pages show it.
type typeView struct {
	T         catalog.InstanceType
	Href      string // page path relative to a language root
	HasGPU    bool
	Unmapped  bool   // the primary accelerator has no canonical model
	GPUName   string // the provider's accelerator name
	GPUModel  string // canonical model id
	ModelName string // the reference's model name, or the provider's name
	GPUs      string // whole-device equivalents to 3 places, e.g. 8 or 0.125
	// GPUMem is the accelerator memory over all devices by the GPU reference's
	// nominal class (catalog.InstanceType.RuleGPUMemoryGiB), to 2 places: what
	// the explorer's gpu_memory_total column and filter use.
	GPUMem string
	// GPUMemEach is the memory of one device of the primary accelerator by the
	// nominal class, to 2 places ("" without accelerators): the explorer's
	// gpu_memory column and filter.
	GPUMemEach string
	// GPUMemUsable and GPUMemUsableEach are the provider's own figures (usable
	// memory) where they differ from the class ("89.41", "22.35"); "" otherwise.
	GPUMemUsable, GPUMemUsableEach string
	// GPUMemUnit is GB for a nominal class (the vendor's figure), GiB for a
	// provider's figure that the reference has no class for.
	GPUMemUnit string
	// MemFromReference says the provider gave no memory for the primary
	// accelerator: the figures are the GPU reference's.
	MemFromReference bool
	Mem              string // memory GiB, to 2 places
	units            decimal.Decimal
	gpuMem           decimal.Decimal
}

// Conflicted reports whether the provider and the GPU reference disagree on one
// of the type's specs (catalog.SpecConflict).
func (t *typeView) Conflicted() bool { return len(t.T.Conflicts) > 0 }

// MultiGPU reports whether the type has more than one GPU: its prices are
// also shown per GPU-hour.
func (t *typeView) MultiGPU() bool { return t.units.GreaterThan(decimal.NewFromInt(1)) }

// offerView is an offer with what the pages derive from it. Prices per hour are
// the effective hourly price (upfront spread over the term); nil when they cannot
// be computed (no FX rate, no GPU to divide by).
type offerView struct {
	Key           string
	Offer         catalog.Offer
	Type          *typeView
	Region        catalog.Region
	USDHour       *decimal.Decimal
	USDGPUHour    *decimal.Decimal
	NativeHour    *decimal.Decimal
	NativeGPUHour *decimal.Decimal
	// Facts are the offer's derived figures (compare.OfferFacts), which the
	// prices above are taken from; its work costs are the table's (m.facts),
	// added once the benchmarks are read.
	Facts compare.OfferFacts
	// Stale: the offer is kept from an earlier crawl (its provider, region or
	// instance type failed this time).
	Stale bool
	// Old says the price was observed more than catalog.StaleDays before now
	// (Observed, AgeDays); Undated that its source gives no date. A row of a
	// ranking or "cheapest" answer says so with a mark.
	Old      bool
	Undated  bool
	Observed string // YYYY-MM-DD, "" when undated
	AgeDays  int
}

type placementView struct {
	P      catalog.Placement
	Region catalog.Region
}

func newSiteModel(snap *catalog.Snapshot, ref *catalog.GPUReference, now time.Time) (*siteModel, error) {
	if now.IsZero() {
		now = snap.TakenAt
	}
	m := &siteModel{
		snap: snap, ref: ref, now: now, ages: snap.DataAges(now),
		typeByKey:  map[string]*typeView{},
		offerByKey: map[string]*offerView{},
		offersOf:   map[string][]*offerView{},
		placeOf:    map[string][]placementView{},
		regions:    map[string]catalog.Region{},
		coverage:   map[catalog.Provider]catalog.Coverage{},
		staleCover: map[catalog.Provider]bool{},
	}
	for _, r := range snap.Regions {
		m.regions[r.Key()] = r
	}
	for _, c := range snap.Coverage {
		m.coverage[c.Provider] = c
		m.staleCover[c.Provider] = c.Status == catalog.CoverageStale
	}
	paths := instancePaths(snap.Instances)
	for _, t := range snap.Instances { // sorted by key: the snapshot is a canonical copy
		v := &typeView{T: t, Href: paths[t.Key()], units: t.GPUUnits(), gpuMem: t.RuleGPUMemoryGiB()}
		v.GPUs, v.GPUMem = v.units.Round(3).String(), v.gpuMem.Round(2).String()
		v.Mem = t.MemoryGiB.Round(2).String()
		if a, ok := t.PrimaryAccelerator(); ok {
			v.HasGPU = true
			v.GPUName, v.GPUModel = a.Name, a.Model
			v.Unmapped = a.Model == ""
			v.ModelName = m.modelName(a)
			v.GPUMemEach = a.RuleMemoryGiB().Round(2).String()
			v.MemFromReference = a.MemoryFromReference
			v.GPUMemUnit = "GiB"
			if a.NominalMemoryGB != nil {
				v.GPUMemUnit = "GB"
			}
			if reported := t.GPUMemoryGiB().Round(2); !reported.Equal(v.gpuMem.Round(2)) && !a.MemoryFromReference {
				v.GPUMemUsable, v.GPUMemUsableEach = reported.String(), a.MemoryGiB.Round(2).String()
			}
		}
		m.types = append(m.types, v)
		m.typeByKey[t.Key()] = v
	}
	m.facts = compare.NewOfferFactTable(snap, nil)
	rows, err := offerRows(snap, m.facts)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		o := r.Offer
		tv := m.typeByKey[o.InstanceKey()]
		f := r.Facts
		v := &offerView{
			Key: o.Key(), Offer: o, Type: tv, Region: m.region(o.Provider, o.Region), Facts: f,
			USDHour: f.USDHour, NativeHour: f.Hourly, USDGPUHour: f.USDGPUHour, NativeGPUHour: f.GPUHour, Stale: m.staleOffer(o),
		}
		if age := o.AgeAt(now); age.Known {
			v.Old, v.Observed, v.AgeDays = age.Stale(), o.ObservedAt.UTC().Format("2006-01-02"), age.Days
		} else {
			v.Undated = true
		}
		m.offers = append(m.offers, v)
		m.offerByKey[v.Key] = v
		m.offersOf[o.InstanceKey()] = append(m.offersOf[o.InstanceKey()], v)
	}
	for _, p := range snap.Placements {
		k := string(p.Provider) + "/" + p.InstanceType
		m.placeOf[k] = append(m.placeOf[k], placementView{P: p, Region: m.region(p.Provider, p.Region)})
	}
	return m, nil
}

// staleOffer says whether an offer is kept from an earlier crawl
// (catalog.Coverage.KeptStale).
func (m *siteModel) staleOffer(o catalog.Offer) bool {
	c, ok := m.coverage[o.Provider]
	return ok && c.KeptStale(o)
}

// region returns the snapshot's metadata for a region, or one with only the id
// for a region the snapshot does not describe (shown, never dropped).
func (m *siteModel) region(p catalog.Provider, id string) catalog.Region {
	if r, ok := m.regions[string(p)+"/"+id]; ok {
		return r
	}
	return catalog.Region{Provider: p, ID: id}
}

func (m *siteModel) modelName(a catalog.Accelerator) string {
	if a.Model != "" && m.ref != nil {
		if g, ok := m.ref.Model(a.Model); ok && g.Name != "" {
			return g.Name
		}
	}
	if a.Name != "" {
		return a.Name
	}
	return a.Model
}

// providers lists every provider the snapshot mentions, in display order.
func (m *siteModel) providers() []catalog.Provider {
	seen := map[catalog.Provider]bool{}
	for _, c := range m.snap.Coverage {
		seen[c.Provider] = true
	}
	for _, t := range m.snap.Instances {
		seen[t.Provider] = true
	}
	rank := map[catalog.Provider]int{}
	for i, p := range catalog.Providers {
		rank[p] = i
	}
	out := make([]catalog.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, iok := rank[out[i]]
		rj, jok := rank[out[j]]
		if iok != jok {
			return iok
		}
		if ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}

// canonicalCopy is a copy of the snapshot with every list in canonical order; the
// caller's snapshot is not modified.
func canonicalCopy(s *catalog.Snapshot) *catalog.Snapshot {
	c := *s
	c.Coverage = append([]catalog.Coverage(nil), s.Coverage...)
	c.Unmapped = append([]catalog.UnmappedAccelerator(nil), s.Unmapped...)
	for i := range c.Unmapped {
		c.Unmapped[i].InstanceTypes = append([]string(nil), c.Unmapped[i].InstanceTypes...)
	}
	for i := range c.Coverage {
		c.Coverage[i].FailedRegions = append([]catalog.RegionFailure(nil), c.Coverage[i].FailedRegions...)
		c.Coverage[i].FailedTypes = append([]catalog.TypeFailure(nil), c.Coverage[i].FailedTypes...)
		c.Coverage[i].Sources = append([]string(nil), c.Coverage[i].Sources...)
	}
	c.Regions = append([]catalog.Region(nil), s.Regions...)
	c.Instances = append([]catalog.InstanceType(nil), s.Instances...)
	c.Placements = append([]catalog.Placement(nil), s.Placements...)
	c.Offers = append([]catalog.Offer(nil), s.Offers...)
	c.Sort()
	return &c
}

// latest is the later of two times.
func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// providerCounts are what the snapshot holds of one provider: instance types,
// offers (and of them reported ones), the regions with offers, placements
// (zones) and of them those with a stock status.
type providerCounts struct {
	types, offers, reported int
	regions                 map[string]bool
	zones, stock            int
}

// snapshotCounts counts the snapshot by provider (a provider without records
// has zero counts), with the GPU models its types name and the regions, by
// provider, its offers are in: the overview's and the API index's figures.
type snapshotCounts struct {
	per                map[catalog.Provider]*providerCounts
	gpuModels, regions int
}

func (m *siteModel) counts() snapshotCounts {
	per := map[catalog.Provider]*providerCounts{}
	get := func(p catalog.Provider) *providerCounts {
		if per[p] == nil {
			per[p] = &providerCounts{regions: map[string]bool{}}
		}
		return per[p]
	}
	models := map[string]bool{}
	for _, t := range m.snap.Instances {
		get(t.Provider).types++
		for _, a := range t.Accelerators {
			if a.Model != "" {
				models[a.Model] = true
			}
		}
	}
	regions := map[string]bool{}
	for _, o := range m.snap.Offers {
		c := get(o.Provider)
		c.offers++
		if o.Reported {
			c.reported++
		}
		c.regions[o.Region] = true
		regions[string(o.Provider)+"/"+o.Region] = true
	}
	for _, pl := range m.snap.Placements {
		c := get(pl.Provider)
		c.zones++
		if pl.Status == catalog.Available || pl.Status == catalog.SoldOut {
			c.stock++
		}
	}
	return snapshotCounts{per: per, gpuModels: len(models), regions: len(regions)}
}

// of is provider p's counts.
func (c snapshotCounts) of(p catalog.Provider) providerCounts {
	if v := c.per[p]; v != nil {
		return *v
	}
	return providerCounts{}
}
