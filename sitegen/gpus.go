package sitegen

import (
	"net/url"
	"sort"
	"strings"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// gpuIndexData is the model of gpus/index.html.
type gpuIndexData struct {
	Models []gpuSummary
}

type gpuSummary struct {
	ID, Name, Vendor, Architecture string
	MemoryGB                       *decimal.Decimal
	Href                           string
	Providers, Types, Offers       int
	// Cheapest is the lowest on-demand USD per GPU-hour of any plausible
	// offer (a suspect price is never a "from" price), CheapestOffer that
	// offer, whose marks (stale, date unknown) the row shows.
	Cheapest      *decimal.Decimal
	CheapestOffer *offerView
}

// gpuPageData is the model of a GPU model's page.
type gpuPageData struct {
	ID    string
	Name  string
	Model catalog.GPUModel
	Known bool // the model is in the GPU reference
	// Chart is the chart's path relative to the language root ("" without one).
	Chart      string
	ByProvider []providerGPUPrice
	// Rows is one row per instance type with the model: its cheapest price
	// of each billing group, cheapest on-demand per GPU-hour first. Every
	// offer is in the explorer (ExplorerHref).
	Rows         []gpuTypeRow
	OfferCount   int
	ExplorerHref string
	Types        []*typeView
	// Family is the models of the same family the site has pages for (A100
	// 40/80 GB, SXM/PCIe …), this one included; nil when it is alone.
	Family []gpuFamilyMember
	// Fits is the scenarios instance types with the model fit or may fit
	// (compare's verdicts); nil without scenarios.
	Fits      []gpuFit
	Scenarios bool // the site has scenario pages
	// Memory says where providers report the model's memory otherwise than as
	// the reference's class (specs.go).
	Memory []gpuMemoryNote
}

// providerGPUPrice is one provider's lowest plausible prices per GPU-hour for
// a model; Old and Undated say that one of them was observed more than
// catalog.StaleDays ago, or has no date.
type providerGPUPrice struct {
	Provider       catalog.Provider
	OnDemand       *decimal.Decimal
	Spot           *decimal.Decimal
	Reserved       *decimal.Decimal // lowest of every commitment (reserved, subscription)
	Offers         int
	Old, Undated   bool
	onDemand, spot *offerView
	reserved       *offerView
}

// gpuModels lists the canonical models the snapshot's instance types carry, with
// their page paths (gpus/<id>.html).
func (m *siteModel) gpuModels() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range m.types {
		for _, a := range t.T.Accelerators {
			if a.Model != "" && !seen[a.Model] {
				seen[a.Model] = true
				out = append(out, a.Model)
			}
		}
	}
	sort.Strings(out)
	return out
}

func gpuHref(id string) string { return "gpus/" + slugify(id) + ".html" }

// typesWithModel lists the instance types whose primary accelerator is the model.
func (m *siteModel) typesWithModel(id string) []*typeView {
	var out []*typeView
	for _, t := range m.types {
		if t.GPUModel == id {
			out = append(out, t)
		}
	}
	return out
}

func (m *siteModel) gpuIndex() gpuIndexData {
	var d gpuIndexData
	for _, id := range m.gpuModels() {
		s := gpuSummary{ID: id, Name: id, Href: gpuHref(id)}
		if g, ok := m.refModel(id); ok {
			s.Name, s.Vendor, s.Architecture, s.MemoryGB = g.Name, g.Vendor, g.Architecture, g.MemoryGB
		}
		providers := map[catalog.Provider]bool{}
		for _, t := range m.typesWithModel(id) {
			s.Types++
			providers[t.T.Provider] = true
			for _, o := range m.offersOf[t.T.Key()] {
				s.Offers++
				if o.Offer.Billing == catalog.OnDemand && o.Offer.Leads() && o.USDGPUHour != nil && cheaper(o.USDGPUHour, s.Cheapest) {
					s.Cheapest, s.CheapestOffer = o.USDGPUHour, o
				}
			}
		}
		s.Providers = len(providers)
		d.Models = append(d.Models, s)
	}
	sort.SliceStable(d.Models, func(i, j int) bool {
		a, b := d.Models[i], d.Models[j]
		if a.Vendor != b.Vendor {
			return a.Vendor < b.Vendor
		}
		return a.Name < b.Name
	})
	return d
}

func (m *siteModel) refModel(id string) (catalog.GPUModel, bool) {
	if m.ref == nil {
		return catalog.GPUModel{}, false
	}
	return m.ref.Model(id)
}

func (m *siteModel) gpuPage(id string) gpuPageData {
	d := gpuPageData{ID: id, Name: id, Types: m.typesWithModel(id), ExplorerHref: explorerGPUHref(id),
		Family: m.gpuFamily(id), Fits: m.fits.ofGPU(id), Scenarios: m.fits != nil}
	d.Memory = gpuMemoryNotes(d.Types)
	if g, ok := m.refModel(id); ok {
		d.Model, d.Known, d.Name = g, true, g.Name
	}
	per := map[catalog.Provider]*providerGPUPrice{}
	for _, t := range d.Types {
		offers := m.offersOf[t.T.Key()]
		d.Rows = append(d.Rows, newGPUTypeRow(t, offers))
		d.OfferCount += len(offers)
		for _, o := range offers {
			p := per[o.Offer.Provider]
			if p == nil {
				p = &providerGPUPrice{Provider: o.Offer.Provider}
				per[o.Offer.Provider] = p
			}
			p.Offers++
			if o.USDGPUHour == nil || !o.Offer.Leads() {
				continue // a suspect price is never a provider's lowest
			}
			switch o.Offer.Billing {
			case catalog.OnDemand:
				if cheaper(o.USDGPUHour, p.OnDemand) {
					p.OnDemand, p.onDemand = o.USDGPUHour, o
				}
			case catalog.Spot:
				if cheaper(o.USDGPUHour, p.Spot) {
					p.Spot, p.spot = o.USDGPUHour, o
				}
			default:
				if cheaper(o.USDGPUHour, p.Reserved) {
					p.Reserved, p.reserved = o.USDGPUHour, o
				}
			}
		}
	}
	// Cheapest on-demand per GPU-hour first; types without one after, by
	// their cheapest price of any kind.
	sort.SliceStable(d.Rows, func(i, j int) bool { return cheaper(d.Rows[i].sortKey, d.Rows[j].sortKey) })
	for _, p := range m.providers() {
		if v, ok := per[p]; ok {
			for _, o := range []*offerView{v.onDemand, v.spot, v.reserved} {
				if o != nil {
					v.Old = v.Old || o.Old || o.Stale
					v.Undated = v.Undated || o.Undated
				}
			}
			d.ByProvider = append(d.ByProvider, *v)
		}
	}
	return d
}

// gpuChart draws a GPU page's lowest prices per GPU-hour by provider; nil when no
// provider has a USD figure.
func gpuChart(l *language, d gpuPageData) (chartSVG, error) {
	var cats []string
	od := barSeries{Name: l.label("billing", catalog.OnDemand)}
	spot := barSeries{Name: l.label("billing", catalog.Spot)}
	commit := barSeries{Name: l.msg("gpu.chart_commitment")}
	any := false
	val := func(d *decimal.Decimal) float64 {
		if d == nil {
			return charts.GetNullValue() // no bar, no "0.0000"
		}
		any = true
		v := *d
		if l.currency() == catalog.CNY {
			v = v.Mul(l.fx.Rate) // the page's currency, as the table beside it
		}
		r, _ := moneyRound(v) // the bars' labels read as the table's figures
		return r.InexactFloat64()
	}
	hasSpot, hasCommit := false, false
	for _, p := range d.ByProvider {
		cats = append(cats, l.label("provider", p.Provider))
		od.Values = append(od.Values, val(p.OnDemand))
		spot.Values = append(spot.Values, val(p.Spot))
		commit.Values = append(commit.Values, val(p.Reserved))
		hasSpot = hasSpot || p.Spot != nil
		hasCommit = hasCommit || p.Reserved != nil
	}
	if !any {
		return chartSVG{}, nil
	}
	series := []barSeries{od}
	if hasSpot {
		series = append(series, spot)
	}
	if hasCommit {
		series = append(series, commit)
	}
	return horizontalBarSVG(cats, series, l.msgCur("chart.cur_gpu_hour"))
}

// gpuTypeRow is one instance type of a GPU page's summary.
type gpuTypeRow struct {
	Type    *typeView
	Prices  []groupPrice // the cheapest of each billing group
	Regions int          // regions with an offer
	Offers  int
	sortKey *decimal.Decimal
}

func newGPUTypeRow(t *typeView, offers []*offerView) gpuTypeRow {
	r := gpuTypeRow{Type: t, Prices: cheapestByGroup(offers), Offers: len(offers)}
	regions := map[string]bool{}
	for _, o := range offers {
		regions[o.Offer.Region] = true
	}
	r.Regions = len(regions)
	for _, p := range r.Prices {
		if p.Offer != nil {
			r.sortKey = p.Offer.USDGPUHour
			break
		}
	}
	return r
}

// explorerGPUHref is the explorer with every offer of a GPU model: the
// explorer's own URL parameters (the gpu column's filter, every billing kind).
func explorerGPUHref(id string) string {
	return "offers.html?" + url.Values{"gpu": {id}, "billing": {"all"}}.Encode()
}

// gpuFamilyMember is one model of a GPU page's family switcher.
type gpuFamilyMember struct {
	ID, Name, Href string
	Current        bool
}

// gpuFamilyKey is a model's family: the vendor and chip of its canonical id
// ("nvidia-a100" for nvidia-a100-sxm-80gb and nvidia-a100-pcie-40gb), the
// part the reference's ids share across form factors and memory sizes.
func gpuFamilyKey(id string) string {
	parts := strings.SplitN(id, "-", 3)
	if len(parts) < 3 {
		return id
	}
	return parts[0] + "-" + parts[1]
}

// gpuFamily lists the models of id's family that have pages, by name; nil
// when id is the only one.
func (m *siteModel) gpuFamily(id string) []gpuFamilyMember {
	key := gpuFamilyKey(id)
	var out []gpuFamilyMember
	for _, other := range m.gpuModels() {
		if gpuFamilyKey(other) != key {
			continue
		}
		f := gpuFamilyMember{ID: other, Name: other, Href: gpuHref(other), Current: other == id}
		if g, ok := m.refModel(other); ok && g.Name != "" {
			f.Name = g.Name
		}
		out = append(out, f)
	}
	if len(out) < 2 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
