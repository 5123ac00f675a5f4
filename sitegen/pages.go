package sitegen

import (
	"sort"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// pageData is what every page template gets: the common frame (language, the
// same page in the other language, navigation, the data's date) and the page's
// own model in Data.
type pageData struct {
	Lang    *language
	Alt     *language
	AltHref string
	Path    string // the page's path relative to a language root
	Nav     string // overview, offers, downloads or empty
	TakenAt time.Time
	Data    any
}

// page is one page to render: a template applied to a model at a path.
type page struct {
	Path     string
	Template string
	Nav      string
	Data     any
}

// overviewData is the model of index.html.
type overviewData struct {
	Instances, Offers, Regions, GPUModels int
	Providers                             []providerSummary
	FX                                    fxView
	Unmapped                              []unmappedView
}

type providerSummary struct {
	Provider                   catalog.Provider
	Status                     string
	Instances, Offers, Regions int
	LastOK                     time.Time
	Message                    string
	Failed                     []catalog.RegionFailure
	Synthetic                  bool
}

type fxView struct {
	Base, Date, Source string
	Rates              []fxRate
}

type fxRate struct {
	From, To catalog.Currency
	Rate     string
}

type unmappedView struct {
	Provider catalog.Provider
	Name     string
	Types    []typeLink
}

type typeLink struct{ ID, Href string }

// offersData is the model of offers.html.
type offersData struct {
	Rows            []*offerView
	Shown, Total    int
	FX              fxView
	ProviderOptions []catalog.Provider
	GPUOptions      []option
	HasUnmapped     bool
	RegionOptions   []option
	BillingOptions  []catalog.BillingKind
	Config          explorerConfig
}

type option struct{ Value, Label string }

// explorerConfig is handed to static/explorer.js as JSON in the page.
type explorerConfig struct {
	Data         string                `json:"data"`   // URL of data/offers.json
	Prefix       string                `json:"prefix"` // URL prefix of the language's pages
	Lang         string                `json:"lang"`
	BillingOrder []catalog.BillingKind `json:"billing_order"`
	Labels       map[string]string     `json:"labels"`
}

// instanceData is the model of one instance type's page.
type instanceData struct {
	Type         *typeView
	Stale        bool
	LastOK       time.Time
	Accelerators []acceleratorView
	GPUs         []catalog.GPUModel
	Offers       []*offerView
	Placements   []placementView
	Sources      []sourceView
}

type acceleratorView struct {
	A         catalog.Accelerator
	ModelName string
	Known     bool // the model is in the GPU reference (its specs are on the page)
}

type sourceView struct {
	Source    string
	FetchedAt time.Time
}

// downloadsData is the model of downloads.html.
type downloadsData struct {
	Files   []download
	Columns []string
}

type download struct {
	Path  string
	Bytes int64
	Desc  string // message key
}

// pages lists every page of one language.
func (m *siteModel) pages(base string, l *language, downloads []download) []page {
	out := []page{
		{Path: "index.html", Template: "index.html", Nav: "overview", Data: m.overview()},
		{Path: "offers.html", Template: "offers.html", Nav: "offers", Data: m.offersPage(base, l)},
		{Path: "downloads.html", Template: "downloads.html", Nav: "downloads", Data: downloadsData{Files: downloads, Columns: OfferColumns}},
		{Path: "404.html", Template: "404.html"},
	}
	for _, t := range m.types {
		out = append(out, page{Path: t.Href, Template: "instance.html", Data: m.instancePage(t)})
	}
	return out
}

func (m *siteModel) overview() overviewData {
	d := overviewData{Instances: len(m.snap.Instances), Offers: len(m.snap.Offers), FX: m.fx()}
	type counts struct {
		types   int
		offers  int
		regions map[string]bool
	}
	per := map[catalog.Provider]*counts{}
	get := func(p catalog.Provider) *counts {
		if per[p] == nil {
			per[p] = &counts{regions: map[string]bool{}}
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
	allRegions := map[string]bool{}
	for _, o := range m.snap.Offers {
		c := get(o.Provider)
		c.offers++
		c.regions[o.Region] = true
		allRegions[string(o.Provider)+"/"+o.Region] = true
	}
	d.Regions, d.GPUModels = len(allRegions), len(models)
	for _, p := range m.providers() {
		c := get(p)
		s := providerSummary{Provider: p, Status: "unknown", Instances: c.types, Offers: c.offers, Regions: len(c.regions)}
		if cov, ok := m.coverage[p]; ok {
			s.Status, s.LastOK, s.Message, s.Failed, s.Synthetic = string(cov.Status), cov.LastOK, cov.Message, cov.FailedRegions, cov.Synthetic
		}
		d.Providers = append(d.Providers, s)
	}
	for _, u := range m.snap.Unmapped {
		v := unmappedView{Provider: u.Provider, Name: u.Name}
		for _, id := range u.InstanceTypes {
			link := typeLink{ID: id}
			if t, ok := m.typeByKey[string(u.Provider)+"/"+id]; ok {
				link.Href = t.Href
			}
			v.Types = append(v.Types, link)
		}
		d.Unmapped = append(d.Unmapped, v)
	}
	return d
}

func (m *siteModel) fx() fxView {
	fx := m.snap.FX
	v := fxView{Base: string(fx.Base), Date: fx.Date, Source: fx.Source}
	cs := make([]string, 0, len(fx.Rates))
	for c := range fx.Rates {
		cs = append(cs, string(c))
	}
	sort.Strings(cs)
	for _, c := range cs {
		if catalog.Currency(c) == fx.Base {
			continue
		}
		v.Rates = append(v.Rates, fxRate{From: fx.Base, To: catalog.Currency(c), Rate: fx.Rates[catalog.Currency(c)].String()})
	}
	return v
}

// offersPage renders on the server only the on-demand regional offers, the
// default view that must read without JavaScript; the script loads every offer
// from data/offers.json for the other views.
func (m *siteModel) offersPage(base string, l *language) offersData {
	d := offersData{Total: len(m.offers), FX: m.fx()}
	providers := map[catalog.Provider]bool{}
	gpus := map[string]string{}
	regions := map[string]catalog.Region{}
	billing := map[catalog.BillingKind]bool{}
	for _, o := range m.offers {
		if o.Offer.Billing == catalog.OnDemand && o.Offer.Zone == "" {
			d.Rows = append(d.Rows, o)
		}
		providers[o.Offer.Provider] = true
		if o.Type.HasGPU {
			if o.Type.Unmapped {
				d.HasUnmapped = true
			} else {
				gpus[o.Type.GPUModel] = o.Type.ModelName
			}
		}
		if _, ok := regions[o.Offer.Region]; !ok {
			regions[o.Offer.Region] = o.Region
		}
		billing[o.Offer.Billing] = true
	}
	d.Shown = len(d.Rows)
	for _, p := range m.providers() {
		if providers[p] {
			d.ProviderOptions = append(d.ProviderOptions, p)
		}
	}
	for id, name := range gpus {
		d.GPUOptions = append(d.GPUOptions, option{Value: id, Label: name})
	}
	sort.Slice(d.GPUOptions, func(i, j int) bool {
		a, b := d.GPUOptions[i], d.GPUOptions[j]
		if a.Label != b.Label {
			return a.Label < b.Label
		}
		return a.Value < b.Value
	})
	for id, r := range regions {
		label := id
		if name := l.regionName(r); name != id {
			label = id + " · " + name
		}
		d.RegionOptions = append(d.RegionOptions, option{Value: id, Label: label})
	}
	sort.Slice(d.RegionOptions, func(i, j int) bool { return d.RegionOptions[i].Value < d.RegionOptions[j].Value })
	for _, b := range catalog.BillingKinds {
		if billing[b] {
			d.BillingOptions = append(d.BillingOptions, b)
		}
	}
	d.Config = explorerConfig{
		Data: base + offersDataPath, Prefix: base + l.Prefix, Lang: l.Tag,
		BillingOrder: catalog.BillingKinds, Labels: l.jsLabels(),
	}
	return d
}

func (m *siteModel) instancePage(t *typeView) instanceData {
	d := instanceData{Type: t, Offers: m.offersOf[t.T.Key()], Placements: m.placeOf[t.T.Key()]}
	if cov, ok := m.coverage[t.T.Provider]; ok && cov.Status == catalog.CoverageStale {
		d.Stale, d.LastOK = true, cov.LastOK
	}
	seen := map[string]bool{}
	for _, a := range t.T.Accelerators {
		v := acceleratorView{A: a, ModelName: m.modelName(a)}
		if a.Model != "" && m.ref != nil {
			if g, ok := m.ref.Model(a.Model); ok {
				v.Known = true
				if !seen[g.ID] {
					seen[g.ID] = true
					d.GPUs = append(d.GPUs, g)
				}
			}
		}
		d.Accelerators = append(d.Accelerators, v)
	}
	fetched := map[string]time.Time{}
	for _, o := range d.Offers {
		fetched[o.Offer.Source] = latest(fetched[o.Offer.Source], o.Offer.FetchedAt)
	}
	for s, at := range fetched {
		d.Sources = append(d.Sources, sourceView{Source: s, FetchedAt: at})
	}
	sort.Slice(d.Sources, func(i, j int) bool { return d.Sources[i].Source < d.Sources[j].Source })
	return d
}
