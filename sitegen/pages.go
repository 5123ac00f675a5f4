package sitegen

import (
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

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
	// Ages is each provider's data age, in the page's language (every page
	// states it).
	Ages []ageLine
	Data any
	// Canonical and AltCanonical are the absolute URLs of the page and of its
	// other-language version; empty without Options.SiteURL.
	Canonical, AltCanonical string
	// Sections says which optional pages the site has (benchmarks, changes).
	Sections siteSections
	// Scenarios says the site has the scenario and TCO pages.
	Scenarios bool
	// Fit says the site has the memory estimator page.
	Fit bool
}

// page is one page to render: a template applied to a model at a path, with
// the files it links to (charts), paths relative to the language root.
type page struct {
	Path     string
	Template string
	Nav      string
	Data     any
	Files    []siteFile
	// Make, when set, makes more of the page's files while it is rendered.
	Make func() ([]siteFile, error)
}

// overviewData is the model of index.html.
type overviewData struct {
	Instances, Offers, Regions, GPUModels int
	Providers                             []providerSummary
	FX                                    fxView
	// Unmapped and Conflicts count what the coverage page lists.
	Unmapped, Conflicts int
}

type providerSummary struct {
	Provider                   catalog.Provider
	Status                     string
	Instances, Offers, Regions int
	LastOK                     time.Time
	Message                    string
	Failed                     []catalog.RegionFailure
	Synthetic                  bool
	// Age is the provider's data age; Facts say in words what its data holds
	// and lacks (stock, reported prices); NoData that it has none because none
	// is public (the adapter needs credentials).
	Age    ageLine
	Facts  []string
	NoData bool
}

type fxView struct {
	Base, Date, Source string
	Rates              []fxRate
}

type fxRate struct {
	From, To catalog.Currency
	Rate     string
}

// explorerConfig is handed to static/explorer.js as JSON in the page.
type explorerConfig struct {
	Data     string            `json:"data"`   // URL of data/offers.json
	Prefix   string            `json:"prefix"` // URL prefix of the language's pages
	Compare  string            `json:"compare"`
	TCO      string            `json:"tco,omitempty"` // the TCO calculator, ?offers= the rows chosen
	Lang     string            `json:"lang"`
	PageSize int               `json:"page_size"`
	Labels   map[string]string `json:"labels"`
}

// instanceData is the model of one instance type's page.
type instanceData struct {
	Type         *typeView
	Stale        bool
	LastOK       time.Time
	Network      networkView
	Conflicts    []conflictView
	Accelerators []acceleratorView
	GPUs         []catalog.GPUModel
	Offers       []*offerView
	Placements   []placementView
	Sources      []sourceView
	Similar      []similarType
	Includes     []string // what the prices include besides the instance, each once
	// PriceHistory is the price history of the type's offers (history.go): the
	// crawled on-demand prices (Options.PriceHistory) and the imported series.
	PriceHistory priceHistoryView
	// Summary is the cheapest plausible price of each billing group; Matrix
	// the prices by region and billing kind (prices.go).
	Summary []groupPrice
	Matrix  priceMatrix
	// Fits is the scenarios the type fits or may fit (fits.go); Scenarios
	// says the site has scenario pages.
	Fits      []typeFit
	Scenarios bool
	// Zones is Placements by region.
	Zones []zoneGroup
	// SpotRisk is the spot offers' interruption risk by region (spot.go).
	SpotRisk spotRiskView
}

// similarType is an instance type of another provider with the same GPU model and
// count, or the same total GPU memory, and its cheapest on-demand offer.
type similarType struct {
	Type      *typeView
	SameModel bool // same model and count (else: same total GPU memory)
	Cheapest  *offerView
}

type acceleratorView struct {
	A         catalog.Accelerator
	ModelName string
	Known     bool // the model is in the GPU reference (its specs are on the page)
	// Class is the reference's nominal memory class of one device ("24"), ""
	// without one; Usable the provider's own figure where it differs ("22.35");
	// Conflict the spec conflict on the device's memory (specs.go).
	Class, Usable string
	Conflict      *catalog.SpecConflict
}

type sourceView struct {
	Source    string
	FetchedAt time.Time
	// ObservedFrom and ObservedTo are the span of the source's observation
	// dates (YYYY-MM-DD); Undated counts its offers without one.
	ObservedFrom, ObservedTo string
	Undated                  int
}

// downloadsData is the model of downloads.html.
type downloadsData struct {
	Files           []download
	Parquet         []download
	OfferColumns    []columnDoc
	InstanceColumns []columnDoc
	// History and HistoryColumns are the price history's Parquet files and
	// columns; empty without a history.
	History        []download
	HistoryColumns []columnDoc
}

type columnDoc struct {
	Name    string
	Desc    string // message key
	Parquet string // Parquet type
}

type download struct {
	Path  string
	Bytes int64
	Desc  string // message key
}

// pages lists every page of one language, with the files (charts) each brings.
func (m *siteModel) pages(fsys fs.FS, base string, l *language, downloads downloadsData) ([]page, error) {
	out := []page{
		{Path: "index.html", Template: "index.html", Nav: "overview", Data: m.overview(l)},
		{Path: "offers.html", Template: "offers.html", Nav: "offers", Data: m.explorerPage(base, l)},
		{Path: "compare.html", Template: "compare.html", Nav: "offers", Data: m.comparePage(base, l)},
		{Path: "gpus/index.html", Template: "gpus.html", Nav: "gpus", Data: m.gpuIndex()},
		{Path: "regions.html", Template: "regions.html", Nav: "regions", Data: m.regionsPage(l)},
		{Path: "downloads.html", Template: "downloads.html", Nav: "downloads", Data: downloads},
		{Path: "coverage.html", Template: "coverage.html", Data: m.coveragePage()},
		{Path: "404.html", Template: "404.html"},
	}
	for _, c := range contentPages {
		html, err := renderMarkdown(fsys, c.Name, l, base)
		if err != nil {
			return nil, err
		}
		out = append(out, page{Path: c.Name + ".html", Template: "markdown.html", Nav: c.Nav, Data: markdownData{Title: c.Title, HTML: html}})
	}
	for _, id := range m.gpuModels() {
		d := m.gpuPage(id)
		p := page{Path: gpuHref(id), Template: "gpu.html", Nav: "gpus"}
		svg, err := gpuChart(l, d)
		if err != nil {
			return nil, fmt.Errorf("gpu %s: %w", id, err)
		}
		if svg.Wide != nil {
			d.Chart = strings.TrimSuffix(p.Path, ".html") + ".svg"
			p.Files = append(p.Files, svg.files(d.Chart)...)
		}
		p.Data = d
		out = append(out, p)
	}
	for _, t := range m.types {
		d := m.instancePage(t)
		p := page{Path: t.Href, Template: "instance.html"}
		p.Make = m.historyCharts(l, t.T.Key(), p.Path, &d.PriceHistory)
		p.Data = d
		out = append(out, p)
	}
	for _, a := range m.archived {
		d := m.archivedPage(a)
		p := page{Path: a.Href, Template: "archived.html"}
		p.Make = m.historyCharts(l, a.Key, p.Path, &d.PriceHistory)
		p.Data = d
		out = append(out, p)
	}
	return out, nil
}

// historyCharts names the price history charts of the page at path and returns
// the function that draws them, nil when there is none. They are drawn by the
// worker that renders the page: charts of years of prices are much of a build
// with history.
func (m *siteModel) historyCharts(l *language, key, path string, v *priceHistoryView) func() ([]siteFile, error) {
	if len(v.Charts) == 0 {
		return nil
	}
	base := strings.TrimSuffix(path, ".html") + ".history"
	for i := range v.Charts {
		c := &v.Charts[i]
		c.Path = base + ".svg"
		if c.Billing != catalog.OnDemand {
			c.Path = base + "." + slugify(string(c.Billing)) + ".svg"
		}
	}
	charts := v.Charts
	return func() ([]siteFile, error) {
		var out []siteFile
		for _, c := range charts {
			svg, err := historyChart(l, m.snap.FX, c)
			if err != nil {
				return nil, fmt.Errorf("instance type %s: price history chart: %w", key, err)
			}
			if svg.Wide == nil {
				// The page links the chart, so an undrawn one is a build error.
				return nil, fmt.Errorf("instance type %s: price history chart: no line to draw", key)
			}
			out = append(out, svg.files(c.Path)...)
		}
		return out, nil
	}
}

func (m *siteModel) overview(l *language) overviewData {
	d := overviewData{Instances: len(m.snap.Instances), Offers: len(m.snap.Offers), FX: m.fx()}
	counts := m.counts()
	d.Regions, d.GPUModels = counts.regions, counts.gpuModels
	ages, _ := m.ageLines(l) // every key is in every catalog (TestMessages); Build checks the error first
	for _, p := range m.providers() {
		c := counts.of(p)
		s := providerSummary{Provider: p, Status: "unknown", Instances: c.types, Offers: c.offers, Regions: len(c.regions)}
		cov, ok := m.coverage[p]
		if ok {
			s.Status, s.LastOK, s.Message, s.Failed, s.Synthetic = string(cov.Status), cov.LastOK, cov.Message, cov.FailedRegions, cov.Synthetic
		}
		for _, a := range ages {
			if a.Provider == p {
				s.Age = a
			}
		}
		// What the data holds, in words: which parts exist, which are reported,
		// which are missing.
		switch {
		case c.types == 0 && c.offers == 0 && noPublicData(cov):
			s.NoData = true
			s.Age = ageLine{} // the notes say it, once
			if s.Message == catalog.NoPublicData {
				s.Message = "" // said in the page's language instead
			}
		case c.zones == 0:
			s.Facts = append(s.Facts, l.msg("coverage.no_zones"))
		case c.stock == 0:
			s.Facts = append(s.Facts, l.msg("coverage.zones_no_stock"))
		default:
			s.Facts = append(s.Facts, l.msg("coverage.stock"))
		}
		if c.reported > 0 {
			f, _ := l.t("coverage.reported", "n", c.reported) // in every catalog (TestMessages)
			s.Facts = append(s.Facts, f)
		}
		d.Providers = append(d.Providers, s)
	}
	d.Unmapped, d.Conflicts = len(m.snap.Unmapped), len(m.snap.SpecConflicts())
	return d
}

// fx describes the rates the site uses: those of the currencies offers are
// published in and USD, as "1 <base> = <rate> <currency>" from the table, and, when
// the table's base is another currency (the ECB's is EUR), the cross rates from
// USD that the USD figures come from.
func (m *siteModel) fx() fxView {
	fx := m.snap.FX
	v := fxView{Base: string(fx.Base), Date: fx.Date, Source: fx.Source}
	used := map[catalog.Currency]bool{catalog.USD: true}
	for _, o := range m.snap.Offers {
		used[o.Price.Currency] = true
	}
	var cs []string
	for c := range used {
		if _, ok := fx.Rates[c]; ok && c != fx.Base {
			cs = append(cs, string(c))
		}
	}
	sort.Strings(cs)
	for _, c := range cs {
		v.Rates = append(v.Rates, fxRate{From: fx.Base, To: catalog.Currency(c), Rate: fx.Rates[catalog.Currency(c)].String()})
	}
	if fx.Base != catalog.USD {
		for _, c := range cs {
			if catalog.Currency(c) == catalog.USD {
				continue
			}
			if r, err := fx.CrossRate(catalog.USD, catalog.Currency(c)); err == nil {
				v.Rates = append(v.Rates, fxRate{From: catalog.USD, To: catalog.Currency(c), Rate: r.String()})
			}
		}
	}
	return v
}

// cheaper orders prices with unknown ones last.
func cheaper(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a != nil && b == nil
	}
	return a.LessThan(*b)
}

func (m *siteModel) instancePage(t *typeView) instanceData {
	d := instanceData{Type: t, Offers: m.offersOf[t.T.Key()], Placements: m.placeOf[t.T.Key()],
		Network: networkOf(t.T), Conflicts: m.conflictsOf(t.T)}
	if cov, ok := m.coverage[t.T.Provider]; ok && cov.Status == catalog.CoverageStale {
		d.Stale, d.LastOK = true, cov.LastOK
	}
	seen := map[string]bool{}
	for _, a := range t.T.Accelerators {
		v := acceleratorView{A: a, ModelName: m.modelName(a)}
		v.memoryOf(a, t.T.Conflicts)
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
	bySource := map[string]*sourceView{}
	for _, o := range d.Offers {
		v := bySource[o.Offer.Source]
		if v == nil {
			v = &sourceView{Source: o.Offer.Source}
			bySource[o.Offer.Source] = v
		}
		v.FetchedAt = latest(v.FetchedAt, o.Offer.FetchedAt)
		switch {
		case o.Undated:
			v.Undated++
		case v.ObservedFrom == "":
			v.ObservedFrom, v.ObservedTo = o.Observed, o.Observed
		default:
			v.ObservedFrom, v.ObservedTo = min(v.ObservedFrom, o.Observed), max(v.ObservedTo, o.Observed)
		}
	}
	for _, v := range bySource {
		d.Sources = append(d.Sources, *v)
	}
	sort.Slice(d.Sources, func(i, j int) bool { return d.Sources[i].Source < d.Sources[j].Source })
	seenInc := map[string]bool{}
	for _, o := range d.Offers {
		if inc := o.Offer.Includes; inc != "" && !seenInc[inc] {
			seenInc[inc] = true
			d.Includes = append(d.Includes, inc)
		}
	}
	sort.Strings(d.Includes)
	d.Similar = m.similar(t)
	d.PriceHistory = m.historyOf(t.T.Key(), d.Offers)
	d.Summary, d.Matrix = cheapestByGroup(d.Offers), newPriceMatrix(d.Offers)
	d.Fits, d.Scenarios = m.fits.ofType(t.T.Key()), m.fits != nil
	d.Zones = groupZones(d.Placements)
	d.SpotRisk = m.spotRiskOf(t.T, d.Offers)
	return d
}

// maxSimilar bounds the "similar on other clouds" table.
const maxSimilar = 20

// similar lists instance types of other providers with the same GPU model and
// count, then those with the same total GPU memory, cheapest on-demand first.
func (m *siteModel) similar(t *typeView) []similarType {
	if !t.HasGPU || !t.units.IsPositive() {
		return nil
	}
	if m.similarIndex == nil {
		m.indexSimilar()
	}
	if s, ok := m.similarOf[t.T.Key()]; ok {
		return s // the same in every language
	}
	// The candidates: types of the same GPU model and count, and types with as
	// much GPU memory, in m.types order.
	var cands []int
	if !t.Unmapped {
		cands = append(cands, m.similarIndex["model\x00"+t.GPUModel+"\x00"+t.units.String()]...)
	}
	if t.gpuMem.IsPositive() {
		cands = append(cands, m.similarIndex["mem\x00"+t.gpuMem.String()]...)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	var out []similarType
	for _, i := range cands {
		o := m.types[i]
		if o.T.Provider == t.T.Provider || !o.HasGPU {
			continue
		}
		same := !t.Unmapped && o.GPUModel == t.GPUModel && o.units.Equal(t.units)
		sameMem := t.gpuMem.IsPositive() && o.gpuMem.Equal(t.gpuMem)
		if !same && !sameMem {
			continue
		}
		out = append(out, similarType{Type: o, SameModel: same, Cheapest: m.cheapestOnDemand[o.T.Key()]})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.SameModel != b.SameModel {
			return a.SameModel
		}
		var pa, pb *decimal.Decimal
		if a.Cheapest != nil {
			pa = a.Cheapest.USDHour
		}
		if b.Cheapest != nil {
			pb = b.Cheapest.USDHour
		}
		return cheaper(pa, pb)
	})
	if len(out) > maxSimilar {
		out = out[:maxSimilar]
	}
	m.similarOf[t.T.Key()] = out
	return out
}

// indexSimilar indexes the GPU types by model and count and by GPU memory, and
// finds each type's cheapest plausible on-demand offer, so that finding the types similar
// to one costs the size of its groups, not of the catalog.
func (m *siteModel) indexSimilar() {
	m.similarIndex = map[string][]int{}
	m.similarOf = map[string][]similarType{}
	m.cheapestOnDemand = map[string]*offerView{}
	for i, o := range m.types {
		if !o.HasGPU {
			continue
		}
		if !o.Unmapped {
			k := "model\x00" + o.GPUModel + "\x00" + o.units.String()
			m.similarIndex[k] = append(m.similarIndex[k], i)
		}
		if o.gpuMem.IsPositive() {
			k := "mem\x00" + o.gpuMem.String()
			m.similarIndex[k] = append(m.similarIndex[k], i)
		}
		var cheapest *offerView
		for _, ov := range m.offersOf[o.T.Key()] {
			if ov.Offer.Billing == catalog.OnDemand && ov.Offer.Leads() && ov.USDHour != nil && (cheapest == nil || cheaper(ov.USDHour, cheapest.USDHour)) {
				cheapest = ov
			}
		}
		m.cheapestOnDemand[o.T.Key()] = cheapest
	}
}
