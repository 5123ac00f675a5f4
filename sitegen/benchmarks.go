package sitegen

import (
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The benchmark results and the catalog's changes are optional parts of the site:
// the benchmarks page (with results on the instance and GPU pages) exists when the
// build is given benchmark runs or costs, the changes pages and their Atom feed when
// it is given a crawl history. A site built without them is the site as it was.

// siteSections says which optional parts the site has; the layout links them.
type siteSections struct {
	Benchmarks bool
	Changes    bool
}

// extras holds the optional parts of a build, derived once for every language.
type extras struct {
	m         *siteModel
	sections  siteSections
	base      string
	siteURL   string
	runs      []benchRun
	workloads *catalog.WorkloadRegistry
	costs     []compare.WorkCost
	// byWorkload is the benchmarks page's cost section of each workload with costs.
	byWorkload []*workloadCosts
	changes    *changesModel // nil without history
	// pub is the published results' part (published.go); nil without any.
	pub *published
}

// newExtras derives the benchmarks and changes parts from the build's options.
// Benchmark costs also feed the explorer's cost column (the best figure per offer
// and workload), and a history the instance pages' price
// charts when Options.PriceHistory is not given.
func newExtras(m *siteModel, opts Options, base, siteURL string) (*extras, error) {
	x := &extras{m: m, base: base, siteURL: siteURL, workloads: opts.Workloads, costs: opts.BenchmarkCosts}
	x.sections.Benchmarks = len(opts.Benchmarks) > 0 || len(opts.BenchmarkCosts) > 0
	// The explorer's cost column and the uploads' tables take a team's runs;
	// published results have pages and sections of their own (published.go).
	var team []compare.WorkCost
	for _, c := range opts.BenchmarkCosts {
		if c.Published == nil {
			team = append(team, c)
		}
	}
	if len(team) > 0 {
		m.facts.AddWork(compare.BestWorkCostPerOffer(team))
	}
	for _, r := range opts.Benchmarks {
		x.runs = append(x.runs, x.runView(r))
	}
	rank := map[catalog.Provider]int{}
	for i, p := range m.providers() {
		rank[p] = i + 1
	}
	sort.SliceStable(x.runs, func(i, j int) bool { return x.runs[i].less(x.runs[j], rank) })
	for _, r := range opts.Benchmarks {
		if r.Published() {
			x.pub = newPublished(x, opts.Benchmarks)
			break
		}
	}
	x.costs = team
	x.byWorkload = x.workloadCosts()
	// The changes pages and their feed exist from the first crawl: without a
	// history (or with one crawl) the site's snapshot is the first, and the
	// page says so with its date.
	h := opts.History
	if h != nil && (len(h.Crawls()) > 0 || h.ObservationCount() > 0) {
		if m.history == nil {
			m.history = priceHistories(h, m.snap.Offers)
		}
		m.useObserved(h)
	} else {
		h = catalog.NewHistory()
	}
	x.sections.Changes = true
	ch, err := newChangesModel(m, h)
	if err != nil {
		return nil, err
	}
	x.changes = ch
	return x, nil
}

// pages adds the optional pages of one language to the site's pages, and the
// benchmark results and price trends to the instance and GPU pages.
func (x *extras) pages(l *language, ps []page) ([]page, error) {
	for i := range ps {
		p := &ps[i]
		switch d := p.Data.(type) {
		case instanceData:
			p.Data = instancePageData{instanceData: d, Bench: x.instanceBench(d.Type)}
		case gpuPageData:
			g := gpuPageExtra{gpuPageData: d, Bench: x.gpuBench(d.ID)}
			if x.changes != nil {
				trend, svg, err := x.changes.gpuTrend(l, d.ID)
				if err != nil {
					return nil, fmt.Errorf("gpu %s: %w", d.ID, err)
				}
				if trend != nil && svg.Wide != nil {
					trend.Chart = strings.TrimSuffix(p.Path, ".html") + ".trend.svg"
					p.Files = append(p.Files, svg.files(trend.Chart)...)
				}
				g.Trend = trend
			}
			p.Data = g
		}
	}
	if x.sections.Benchmarks {
		p, err := x.benchmarksPage(l)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
		ps = append(ps, x.workloadPages()...)
	}
	if x.changes != nil {
		more, err := x.changes.pages(l, x.base, x.siteURL)
		if err != nil {
			return nil, err
		}
		ps = append(ps, more...)
	}
	return ps, nil
}

// instancePageData is an instance page's model with its benchmark results.
type instancePageData struct {
	instanceData
	Bench *benchResults // nil when the site has no benchmarks
}

// gpuPageExtra is a GPU page's model with its benchmark results and its price
// trend.
type gpuPageExtra struct {
	gpuPageData
	Bench *benchResults
	Trend *gpuTrendView // nil without history
}

// benchRun is a benchmark run as the pages show it.
type benchRun struct {
	R            catalog.BenchmarkRun
	Ref          string // file:line of the upload
	WorkloadName string
	Type         *typeView // nil when the type is not in the snapshot
	GPUModel     string    // canonical model id of the type's primary accelerator
	GPUName      string
	GPUs         int    // GPUs the run used
	Source       string // the run's source_url when it is an http(s) URL: a link
	SourceText   string // any other source_url: shown as text
}

func (x *extras) workloadName(id string) string {
	if w, ok := x.workloads.Workload(id); ok && w.Name != "" {
		return w.Name
	}
	return id
}

func (x *extras) runView(r catalog.BenchmarkRun) benchRun {
	v := benchRun{R: r, Ref: r.Ref(), WorkloadName: x.workloadName(r.Workload), GPUs: r.GPUCountUsed}
	if t, ok := x.m.typeByKey[r.InstanceKey()]; ok {
		v.Type = t
		v.GPUModel, v.GPUName = t.GPUModel, t.ModelName
		if t.Unmapped {
			v.GPUName = t.GPUName
		}
		if v.GPUs == 0 {
			v.GPUs = t.T.DeviceCount()
		}
	}
	if isHTTPURL(r.SourceURL) {
		v.Source = r.SourceURL
	} else {
		v.SourceText = r.SourceURL
	}
	return v
}

// less orders runs by workload, provider (in display order; unknown ones last),
// instance type, newest first, then file and line.
func (a benchRun) less(b benchRun, rank map[catalog.Provider]int) bool {
	ra, rb := rank[a.R.Provider], rank[b.R.Provider]
	if ra == 0 {
		ra = len(rank) + 1
	}
	if rb == 0 {
		rb = len(rank) + 1
	}
	switch {
	case a.R.Workload != b.R.Workload:
		return a.R.Workload < b.R.Workload
	case ra != rb:
		return ra < rb
	case a.R.Provider != b.R.Provider:
		return a.R.Provider < b.R.Provider
	case a.R.InstanceType != b.R.InstanceType:
		return a.R.InstanceType < b.R.InstanceType
	case a.R.RunDate != b.R.RunDate:
		return a.R.RunDate > b.R.RunDate
	case a.R.File != b.R.File:
		return a.R.File < b.R.File
	}
	return a.R.Line < b.R.Line
}

// benchCost is one cost per unit of work as the pages show it: the lowest of an
// instance type's offers (of one billing kind, or on-demand on the benchmarks page).
type benchCost struct {
	C            compare.WorkCost
	WorkloadName string
	Type         *typeView
	Region       catalog.Region
	Measured     bool
	Source       string // http(s) source of the run, else ""
}

func (x *extras) costView(c compare.WorkCost) benchCost {
	v := benchCost{C: c, WorkloadName: x.workloadName(c.Workload), Type: x.m.typeByKey[string(c.Provider)+"/"+c.InstanceType],
		Region: x.m.region(c.Provider, c.Region), Measured: c.Basis == compare.Measured}
	if isHTTPURL(c.SourceURL) {
		v.Source = c.SourceURL
	}
	return v
}

// workloadCosts is the benchmarks page's section of one workload: each instance
// type's lowest on-demand cost per unit, cheapest first, with a bar chart of the
// first maxBenchBars.
type workloadCosts struct {
	ID, Name, UnitLabel string
	Rows                []benchCost
	Measured, Estimated int    // rows of each basis
	Chart               string // path relative to the language root; set per language
	Charted             int    // rows in the chart
}

// maxBenchBars bounds a workload's bar chart; its table lists every type.
const maxBenchBars = 15

func (x *extras) workloadCosts() []*workloadCosts {
	ids, by := costsBy(x.costs, func(c compare.WorkCost) (string, bool) { return c.Workload, c.Billing == catalog.OnDemand })
	var out []*workloadCosts
	for _, id := range ids {
		w := &workloadCosts{ID: id, Name: x.workloadName(id)}
		for _, c := range compare.CheapestPerInstanceType(by[id]) {
			w.Rows = append(w.Rows, x.costView(c))
		}
		for _, r := range w.Rows {
			w.UnitLabel = r.C.UnitLabel
			if r.Measured {
				w.Measured++
			} else {
				w.Estimated++
			}
		}
		out = append(out, w)
	}
	return out
}

// costsBy groups the costs that key keeps by the key it gives them, each
// group in the costs' order; it returns the keys sorted, and the groups.
func costsBy(costs []compare.WorkCost, key func(compare.WorkCost) (string, bool)) ([]string, map[string][]compare.WorkCost) {
	by := map[string][]compare.WorkCost{}
	var keys []string
	for _, c := range costs {
		k, ok := key(c)
		if !ok {
			continue
		}
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], c)
	}
	sort.Strings(keys)
	return keys, by
}

// benchmarksData is the model of benchmarks.html.
type benchmarksData struct {
	Runs      []benchRun
	Workloads []workloadCosts // copies, with the language's chart paths
	// The filters' choices: workloads (id, name), providers, GPU models (id, name).
	FilterWorkloads [][2]string
	FilterProviders []catalog.Provider
	FilterGPUs      [][2]string
	// Published are the workloads with published results, each with its page.
	Published []*pubWorkload
}

func (x *extras) benchmarksPage(l *language) (page, error) {
	p := page{Path: "benchmarks.html", Template: "benchmarks.html", Nav: "benchmarks"}
	d := benchmarksData{}
	for _, r := range x.runs {
		if !r.R.Published() {
			d.Runs = append(d.Runs, r)
		}
	}
	if x.pub != nil {
		d.Published = x.pub.pages
	}
	seenW, seenP, seenG := map[string]bool{}, map[catalog.Provider]bool{}, map[string]bool{}
	for _, r := range d.Runs {
		if !seenW[r.R.Workload] {
			seenW[r.R.Workload] = true
			d.FilterWorkloads = append(d.FilterWorkloads, [2]string{r.R.Workload, r.WorkloadName})
		}
		seenP[r.R.Provider] = true
		if r.GPUModel != "" && !seenG[r.GPUModel] {
			seenG[r.GPUModel] = true
			d.FilterGPUs = append(d.FilterGPUs, [2]string{r.GPUModel, r.GPUName})
		}
	}
	d.FilterProviders = x.m.orderProviders(seenP)
	sort.Slice(d.FilterGPUs, func(i, j int) bool { return d.FilterGPUs[i][1] < d.FilterGPUs[j][1] })
	for _, w := range x.byWorkload {
		wc := *w
		svg, n, err := workloadChart(l, w)
		if err != nil {
			return page{}, fmt.Errorf("benchmarks: workload %s: %w", w.ID, err)
		}
		if svg.Wide != nil {
			wc.Chart = "benchmarks/" + slugify(w.ID) + ".svg"
			wc.Charted = n
			p.Files = append(p.Files, svg.files(wc.Chart)...)
		}
		d.Workloads = append(d.Workloads, wc)
	}
	p.Data = d
	return p, nil
}

// workloadChart draws a workload's cheapest on-demand cost per unit by instance
// type in the page's currency, measured and estimated figures as two series so
// that an estimate never reads as a measurement; nil without rows.
func workloadChart(l *language, w *workloadCosts) (chartSVG, int, error) {
	rows := w.Rows
	if len(rows) > maxBenchBars {
		rows = rows[:maxBenchBars]
	}
	if len(rows) == 0 {
		return chartSVG{}, 0, nil
	}
	measured := barSeries{Name: l.msg("bench.measured")}
	estimated := barSeries{Name: l.msg("bench.estimated")}
	var cats []string
	for _, r := range rows {
		cats = append(cats, l.label("provider", r.C.Provider)+" "+r.C.InstanceType)
		v, _ := moneyRound(l.inPageCurrency(r.C.CostPerUnit))
		if r.Measured {
			measured.Values = append(measured.Values, v.InexactFloat64())
			estimated.Values = append(estimated.Values, charts.GetNullValue())
		} else {
			measured.Values = append(measured.Values, charts.GetNullValue())
			estimated.Values = append(estimated.Values, v.InexactFloat64())
		}
	}
	var series []barSeries
	if w.Measured > 0 {
		series = append(series, measured)
	}
	if w.Estimated > 0 {
		series = append(series, estimated)
	}
	svg, err := horizontalBarSVG(cats, series, l.costUnit(w.ID, w.UnitLabel))
	return svg, len(rows), err
}

// benchResults are the benchmark results of an instance type or a GPU model.
type benchResults struct {
	Runs  []benchRun
	Costs []benchCost // lowest per workload and billing kind (and type, on a GPU page)
	// Published is the published results' costs and gaps (nil without).
	Published *pubSection
}

// instanceBench gathers the runs on an instance type and its cost per unit of work
// per workload and billing kind; nil when the site has no benchmarks. Results
// without runs or costs say so on the page.
func (x *extras) instanceBench(t *typeView) *benchResults {
	if !x.sections.Benchmarks {
		return nil
	}
	b := &benchResults{}
	key := t.T.Key()
	for _, r := range x.runs {
		if r.R.InstanceKey() == key {
			b.Runs = append(b.Runs, r)
		}
	}
	var mine []compare.WorkCost
	for _, c := range x.costs {
		if string(c.Provider)+"/"+c.InstanceType == key {
			mine = append(mine, c)
		}
	}
	for _, c := range compare.CheapestPerWorkloadAndBilling(mine) {
		b.Costs = append(b.Costs, x.costView(c))
	}
	b.Published = x.instanceSection(t)
	return b
}

// gpuBench gathers the runs on instance types whose primary accelerator is the
// model, and each such type's lowest on-demand cost per workload.
func (x *extras) gpuBench(model string) *benchResults {
	if !x.sections.Benchmarks {
		return nil
	}
	b := &benchResults{}
	for _, r := range x.runs {
		if r.GPUModel == model {
			b.Runs = append(b.Runs, r)
		}
	}
	var mine []compare.WorkCost
	for _, c := range x.costs {
		if t := x.m.typeByKey[string(c.Provider)+"/"+c.InstanceType]; t != nil && t.GPUModel == model && c.Billing == catalog.OnDemand {
			mine = append(mine, c)
		}
	}
	best := compare.CheapestWorkCosts(mine, func(c compare.WorkCost) string {
		return c.Workload + "\x00" + string(c.Provider) + "/" + c.InstanceType
	})
	for _, c := range best {
		b.Costs = append(b.Costs, x.costView(c))
	}
	sort.Slice(b.Costs, func(i, j int) bool {
		if b.Costs[i].C.Workload != b.Costs[j].C.Workload {
			return b.Costs[i].C.Workload < b.Costs[j].C.Workload
		}
		return compare.CostLess(b.Costs[i].C, b.Costs[j].C)
	})
	b.Published = x.gpuSection(model)
	return b
}

// Cost and Price are the figures for the money template function.
func (c benchCost) Cost() *decimal.Decimal  { return &c.C.CostPerUnit }
func (c benchCost) Price() *decimal.Decimal { return &c.C.PriceUSDPerHour }

// orderProviders lists the providers of a set in the site's display order, those
// the snapshot does not mention last by id.
func (m *siteModel) orderProviders(set map[catalog.Provider]bool) []catalog.Provider {
	var out []catalog.Provider
	for _, p := range m.providers() {
		if set[p] {
			out = append(out, p)
		}
	}
	var rest []catalog.Provider
	for p := range set {
		if !slices.Contains(out, p) {
			rest = append(rest, p)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// isHTTPURL reports whether s is an absolute http or https URL with a host: only
// such a source_url becomes a link; anything else (javascript:, a relative path,
// text) is shown as text.
func isHTTPURL(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n<>\"'`") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	return u.Scheme == "http" || u.Scheme == "https"
}

// runsTable is what the "bench-runs" template draws: runs with the table's id,
// caption and the id of its body ("" for none).
type runsTable struct {
	ID, Caption, Body string
	Runs              []benchRun
}

// RunsTable is the page's table of runs, for the "bench-runs" template.
func (d benchmarksData) RunsTable(id, caption, body string) runsTable {
	return runsTable{ID: id, Caption: caption, Body: body, Runs: d.Runs}
}

// RunsTable is the runs on a type or GPU model, for the "bench-runs" template.
func (b *benchResults) RunsTable(id, caption string) runsTable {
	return runsTable{ID: id, Caption: caption, Runs: b.Runs}
}

// priceHistories is every offer's price series (History.PriceSeries), by offer
// key; a series is read per offer, so the offers are shared among a goroutine
// per processor.
func priceHistories(h *catalog.History, offers []catalog.Offer) map[string][]catalog.PricePoint {
	series := make([][]catalog.PricePoint, len(offers))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(offers); i += workers {
				series[i] = h.PriceSeries(offers[i].Key())
			}
		})
	}
	wg.Wait()
	out := map[string][]catalog.PricePoint{}
	for i, o := range offers {
		if len(series[i]) > 0 {
			out[o.Key()] = series[i]
		}
	}
	return out
}
