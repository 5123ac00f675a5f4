package compare

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The facts of the catalog a filter expression reads, prepared once, as the
// explorer's script prepares data/offers.json (static/explorer-view.js
// prepare): figures rounded as offers.json writes them (GPU count to 3 places,
// memory to 2), names in both languages for matching, and each offer's search
// text. Figures a filter compares are float64, as the script's are; prices a
// row shows stay exact decimals.

// FindInput is what Find reads beyond the snapshot.
type FindInput struct {
	// Reference names the GPU models (the name a gpu term matches besides the
	// model id); nil: the provider's names.
	Reference *catalog.GPUReference
	// ProviderNames are each provider's English and Chinese names (the
	// site's provider.* words): a provider term or a search word matches either.
	ProviderNames map[catalog.Provider][2]string
	// Fits are the scenario ids each instance type (provider/type) fits:
	// compare's verdicts (ScenarioFits); Scenarios lists every scenario id
	// a scenario term may name (nil: any).
	Fits      map[string][]string
	Scenarios []string
	// Facts is the catalog's offer facts (NewOfferFactTable); nil: computed.
	Facts *OfferFactTable
	// Now is the time ages are counted to (stale marks); zero: the
	// snapshot's time, as the site's build.
	Now time.Time
}

// findType is an instance type's facts.
type findType struct {
	t                              catalog.InstanceType
	key                            string
	gpuName, model, kind           string
	units, gmem, gmemEach, vcpus   float64
	mem, disk                      float64
	unitsDec, gmemDec, gmemEachDec decimal.Decimal
	gbps, cpuPerGPU                *float64
	names                          map[string][]string // provider, gpu, rdma, interconnect
	fits                           []string
	partial                        bool
}

// findOffer is an offer's facts.
type findOffer struct {
	o        catalog.Offer
	ti       int
	region   catalog.Region
	group    int
	col      int
	usd      *decimal.Decimal // effective hourly price in USD
	native   *decimal.Decimal // effective hourly price in its currency
	regNames []string
	marks    []string
	hay      string
	stale    bool
	facts    OfferFacts
}

// findData is a snapshot prepared for Find.
type findData struct {
	snap    *catalog.Snapshot
	types   []findType
	offers  []findOffer
	groups  []findGroup
	present [6]bool
}

// findGroup is one instance type's offers in one region.
type findGroup struct {
	ti     int
	region catalog.Region
	first  int
}

func f64(d decimal.Decimal) float64 { return d.InexactFloat64() }

func prepareFind(snap *catalog.Snapshot, in FindInput) *findData {
	now := in.Now
	if now.IsZero() {
		now = snap.TakenAt
	}
	d := &findData{snap: snap}
	facts := in.Facts
	if facts == nil {
		facts = NewOfferFactTable(snap, nil)
	}
	regions := map[string]catalog.Region{}
	for _, r := range snap.Regions {
		regions[r.Key()] = r
	}
	cover := map[catalog.Provider]catalog.Coverage{}
	for _, c := range snap.Coverage {
		cover[c.Provider] = c
	}
	typeIndex := map[string]int{}
	for _, t := range snap.Instances {
		ft := findType{t: t, key: t.Key(), names: map[string][]string{}}
		ft.unitsDec, ft.gmemDec = t.GPUUnits().Round(3), t.RuleGPUMemoryGiB().Round(2)
		ft.units, ft.gmem = f64(ft.unitsDec), f64(ft.gmemDec)
		ft.vcpus, ft.mem, ft.disk = float64(t.VCPUs), f64(t.MemoryGiB.Round(2)), float64(t.LocalStorageGB)
		if t.NetworkGbps != nil {
			g := f64(*t.NetworkGbps)
			ft.gbps = &g
		}
		if ft.units > 0 {
			c := ft.vcpus / ft.units
			ft.cpuPerGPU = &c
		}
		if a, ok := t.PrimaryAccelerator(); ok {
			ft.kind, ft.model = string(a.Kind), a.Model
			ft.gpuName = modelName(in.Reference, a)
			if a.Model == "" {
				ft.gpuName = a.Name
			}
			ft.gmemEachDec = a.RuleMemoryGiB().Round(2)
			ft.gmemEach = f64(ft.gmemEachDec)
		}
		ft.partial = t.Partial()
		pn := providerNames(in.ProviderNames, t.Provider)
		ft.names["provider"] = lowerAll(string(t.Provider), pn[0], pn[1])
		ft.names["gpu"] = lowerAll(ft.model, ft.gpuName)
		ft.names["rdma"] = lowerAll(t.RDMA)
		ft.names["interconnect"] = lowerAll(catalog.LinkNames(t.Interconnect)...)
		ft.fits = in.Fits[ft.key]
		typeIndex[ft.key] = len(d.types)
		d.types = append(d.types, ft)
	}
	gidx := map[string]int{}
	for _, o := range snap.Offers {
		ti, ok := typeIndex[o.InstanceKey()]
		if !ok {
			continue // an offer of an unknown type: the snapshot's validation reports it
		}
		r, ok := regions[string(o.Provider)+"/"+o.Region]
		if !ok {
			r = catalog.Region{Provider: o.Provider, ID: o.Region}
		}
		fo := findOffer{o: o, ti: ti, region: r, col: billingColumnOf(o.Billing)}
		if fo.col >= 0 {
			d.present[fo.col] = true
		}
		fo.facts, _ = facts.Of(o.Key())
		fo.native, fo.usd = fo.facts.Hourly, fo.facts.USDHour
		gk := o.InstanceKey() + "/" + o.Region
		g, ok := gidx[gk]
		if !ok {
			g = len(d.groups)
			gidx[gk] = g
			d.groups = append(d.groups, findGroup{ti: ti, region: r, first: len(d.offers)})
		}
		fo.group = g
		fo.regNames = lowerAll(r.ID, r.NameEN, r.NameZH)
		fo.stale = staleOffer(cover, o)
		fo.marks = offerMarks(o, fo.stale, o.AgeAt(now))
		t := d.types[ti]
		pn := providerNames(in.ProviderNames, o.Provider)
		fo.hay = strings.ToLower(strings.Join([]string{string(o.Provider), pn[0], pn[1], t.t.ID, t.t.Family, t.gpuName, t.model,
			r.ID, r.NameEN, r.NameZH, o.Zone, strings.Join(o.Zones, " "), r.City, r.Country}, " "))
		d.offers = append(d.offers, fo)
	}
	return d
}

func providerNames(m map[catalog.Provider][2]string, p catalog.Provider) [2]string {
	if n, ok := m[p]; ok {
		return n
	}
	return [2]string{string(p), string(p)}
}

func lowerAll(xs ...string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

// modelName is the GPU reference's name of an accelerator's model, or the
// provider's name (as the site's pages name it).
func modelName(ref *catalog.GPUReference, a catalog.Accelerator) string {
	if a.Model != "" && ref != nil {
		if g, ok := ref.Model(a.Model); ok && g.Name != "" {
			return g.Name
		}
	}
	if a.Name != "" {
		return a.Name
	}
	return a.Model
}

// offerMarks are the marks a marks term matches: synthetic, suspect,
// reported, estimated, stale (kept from an earlier crawl, or observed more than
// catalog.StaleDays ago), undated; none without any.
func offerMarks(o catalog.Offer, stale bool, age catalog.Age) []string {
	var m []string
	if o.Synthetic {
		m = append(m, "synthetic")
	}
	if o.Suspect != "" {
		m = append(m, "suspect")
	}
	if o.Reported {
		m = append(m, "reported")
	}
	if o.Estimated {
		m = append(m, "estimated")
	}
	if stale || age.Stale() {
		m = append(m, "stale")
	}
	if !age.Known {
		m = append(m, "undated")
	}
	if len(m) == 0 {
		m = append(m, "none")
	}
	return m
}

// staleOffer says whether an offer is kept from an earlier crawl (the site's
// rule, catalog.Coverage.KeptStale).
func staleOffer(cover map[catalog.Provider]catalog.Coverage, o catalog.Offer) bool {
	c, ok := cover[o.Provider]
	return ok && c.KeptStale(o)
}

// FindColumns are the instance view's price columns, in order: each holds the
// cheapest offer of its billing kinds.
var FindColumns = []string{"on_demand", "spot", "reserved_1y", "reserved_3y", "subscription_month", "subscription_year"}

// billingColumnOf is the price column of a billing kind, or -1.
func billingColumnOf(b catalog.BillingKind) int {
	switch b {
	case catalog.OnDemand:
		return 0
	case catalog.Spot:
		return 1
	case catalog.Reserved1yNoUpfront, catalog.Reserved1yAllUpfront:
		return 2
	case catalog.Reserved3yNoUpfront, catalog.Reserved3yAllUpfront:
		return 3
	case catalog.SubscriptionMonth:
		return 4
	case catalog.SubscriptionYear:
		return 5
	}
	return -1
}

// ScenarioFits are the scenario ids each instance type fits by a matrix's
// verdicts (Fits only, as the explorer's scenario filter; the site's matrix is
// ScenarioReport.Matrix, ranked on on-demand offers): the FindInput.Fits of a
// catalog, and the ids in the matrix's order.
func ScenarioFits(m Matrix) (map[string][]string, []string) {
	fits, ids := map[string][]string{}, []string{}
	for _, sr := range m.Scenarios {
		ids = append(ids, sr.Scenario.ID)
		for _, f := range sr.Ranked {
			if f.Verdict == Fits {
				fits[f.InstanceKey] = append(fits[f.InstanceKey], sr.Scenario.ID)
			}
		}
	}
	return fits, ids
}
