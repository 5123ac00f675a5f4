package sitegen

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
)

// The changes pages: changes/index.html is what changed between the previous crawl
// and the site's snapshot, changes/<YYYY-MM-DD>.html each earlier crawl against the
// one before it, and changes/feed.atom the same as an Atom feed. Each crawl's
// changes come from the history (History.Steps) and are compared with catalog.Diff.

// maxChangeRows bounds each list of a changes page; the heading counts them all.
const maxChangeRows = 50

// maxFeedEntries bounds the Atom feed to the most recent crawls with changes.
const maxFeedEntries = 50

// changesModel is everything the changes pages and the GPU price trends need,
// derived once from the history for every language.
type changesModel struct {
	m *siteModel
	// crawls are the recorded crawls up to the site's snapshot, oldest first, the
	// snapshot itself last (recorded or not).
	crawls []crawlInfo
	// gpuMin is, per crawl, the lowest on-demand USD per GPU-hour by GPU model and
	// provider.
	gpuMin []map[string]map[catalog.Provider]decimal.Decimal
	// observedMin is the same of the imported prices, at each time one began or
	// stopped holding (changes_observed.go); observed their dated price changes.
	observedMin []observedMinima
	observed    *observedChanges
}

// crawlInfo is one crawl and what changed since the crawl before it.
type crawlInfo struct {
	At   time.Time
	Slug string // file name of its page without .html: the date, with -2, -3 ... for later crawls of a day
	// Set is the change from the crawl before; nil for the first crawl.
	Set *changeSet
}

// Path is the crawl's page relative to the language root.
func (c crawlInfo) Path() string { return "changes/" + c.Slug + ".html" }

// changeSet is one diff as the pages show it.
type changeSet struct {
	Old, New  time.Time
	Total     catalog.DiffCounts
	Items     []countItem // Total's nonzero counts
	Providers []providerChanges
}

// Empty reports whether nothing changed.
func (c *changeSet) Empty() bool { return len(c.Providers) == 0 }

type providerChanges struct {
	Provider      catalog.Provider
	Counts        catalog.DiffCounts
	Items         []countItem
	TypesAdded    capped[changedType]
	TypesRemoved  capped[changedType]
	RegionsAdded  capped[catalog.Region]
	RegionsRemove capped[catalog.Region]
	OffersAdded   capped[changedOffer]
	OffersRemoved capped[changedOffer]
	Prices        capped[changedPrice]
	Avail         capped[changedAvail]
}

// capped is a list cut to maxChangeRows, with the number left out, its caption's
// message key and an id for its table.
type capped[T any] struct {
	Key, ID string
	Rows    []T
	Total   int
	More    int
}

func capList[S any, T any](key, id string, in []S, f func(S) T) capped[T] {
	c := capped[T]{Key: key, ID: id, Total: len(in)}
	for i, v := range in {
		if i == maxChangeRows {
			c.More = len(in) - i
			break
		}
		c.Rows = append(c.Rows, f(v))
	}
	return c
}

type changedType struct {
	T    catalog.InstanceType
	Href string // its page when the type is in the site's snapshot
	GPU  string // "8 × nvidia-h100-sxm-80gb", "" without accelerators
}

type changedOffer struct {
	O      catalog.Offer
	Href   string
	Region catalog.Region
}

type changedPrice struct {
	changedOffer
	Old, New catalog.Price
	Percent  *decimal.Decimal
}

// PercentText is the change with a sign and two places: "+10.00 %".
func (c changedPrice) PercentText() string {
	if c.Percent == nil {
		return ""
	}
	s := c.Percent.StringFixed(2)
	if c.Percent.IsPositive() {
		s = "+" + s
	}
	return s + " %"
}

// Direction is up, down or "" (unchanged or not comparable), for the row's style.
func (c changedPrice) Direction() string {
	switch {
	case c.Percent == nil:
		return ""
	case c.Percent.IsPositive():
		return "up"
	case c.Percent.IsNegative():
		return "down"
	}
	return ""
}

type changedAvail struct {
	changedOffer
	Old, New catalog.Availability
}

// newChangesModel walks the history's crawls up to the site's snapshot and
// compares each with the one before. It works from what changed at each crawl
// (History.Steps), not from whole rebuilt snapshots, so years of daily crawls
// cost about as much as the changes they hold.
func newChangesModel(m *siteModel, h *catalog.History) (*changesModel, error) {
	c := &changesModel{m: m}
	taken := m.snap.TakenAt
	var times []time.Time
	for _, t := range h.Crawls() {
		if t.After(taken) {
			break // a site of an older snapshot shows no later changes
		}
		times = append(times, t)
	}
	recorded := len(times)
	if n := len(times); n == 0 || times[n-1].Before(taken) {
		times = append(times, taken) // the snapshot is not (yet) recorded
	}
	slugs := crawlSlugs(times)
	mins := newMinTracker()
	err := h.Steps(taken, func(st catalog.HistoryStep) error {
		ci := crawlInfo{At: times[st.Index], Slug: slugs[st.Index]}
		if st.Index > 0 {
			ci.Set = c.changeSet(catalog.Diff(st.Before, st.After))
		}
		c.crawls = append(c.crawls, ci)
		c.gpuMin = append(c.gpuMin, mins.apply(st))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	c.observedMin = newObservedMinima(m, h)
	c.observed = newObservedChanges(m, h)
	if recorded < len(times) {
		// The site's snapshot, after the last recorded crawl: compared whole.
		ci := crawlInfo{At: taken, Slug: slugs[recorded]}
		if recorded > 0 {
			prev, err := h.CrawlAt(times[recorded-1])
			if err != nil {
				return nil, fmt.Errorf("changes: %w", err)
			}
			ci.Set = c.changeSet(catalog.Diff(prev, m.snap))
		}
		c.crawls = append(c.crawls, ci)
		c.gpuMin = append(c.gpuMin, gpuMinima(m.snap))
	}
	return c, nil
}

// crawlSlugs names each crawl's page by its UTC date; a second crawl on a day gets
// "-2", a third "-3".
func crawlSlugs(times []time.Time) []string {
	out := make([]string, len(times))
	n := map[string]int{}
	for i, t := range times {
		d := t.UTC().Format("2006-01-02")
		n[d]++
		out[i] = d
		if n[d] > 1 {
			out[i] = d + "-" + strconv.Itoa(n[d])
		}
	}
	return out
}

func (c *changesModel) changeSet(r catalog.DiffReport) *changeSet {
	m := c.m
	set := &changeSet{Old: r.OldTakenAt, New: r.NewTakenAt, Total: r.Total}
	typ := func(t catalog.InstanceType) changedType {
		v := changedType{T: t}
		if tv, ok := m.typeByKey[t.Key()]; ok {
			v.Href = tv.Href
		}
		if a, ok := t.PrimaryAccelerator(); ok {
			name := a.Model
			if name == "" {
				name = a.Name
			}
			v.GPU = strconv.Itoa(a.Count) + " × " + name
		}
		return v
	}
	offer := func(o catalog.Offer) changedOffer {
		return changedOffer{O: o, Region: m.region(o.Provider, o.Region), Href: m.typeHref(o.InstanceKey())}
	}
	same := func(g catalog.Region) catalog.Region { return g }
	set.Items = countItems(r.Total)
	for _, d := range r.Providers {
		id := func(list string) string { return list + "-" + slugify(string(d.Provider)) }
		set.Providers = append(set.Providers, providerChanges{
			Provider: d.Provider, Counts: d.Counts, Items: countItems(d.Counts),
			TypesAdded:    capList("changes.types_added", id("types-added"), d.InstanceTypesAdded, typ),
			TypesRemoved:  capList("changes.types_removed", id("types-removed"), d.InstanceTypesRemoved, typ),
			RegionsAdded:  capList("changes.regions_added", id("regions-added"), d.RegionsAdded, same),
			RegionsRemove: capList("changes.regions_removed", id("regions-removed"), d.RegionsRemoved, same),
			OffersAdded:   capList("changes.offers_added", id("offers-added"), d.OffersAdded, offer),
			OffersRemoved: capList("changes.offers_removed", id("offers-removed"), d.OffersRemoved, offer),
			Prices: capList("changes.price_changes", id("prices"), d.PriceChanges, func(p catalog.PriceChange) changedPrice {
				return changedPrice{changedOffer: offer(p.Offer), Old: p.Old, New: p.New, Percent: p.Percent}
			}),
			Avail: capList("changes.availability_changes", id("availability"), d.AvailabilityChanges, func(a catalog.AvailabilityChange) changedAvail {
				return changedAvail{changedOffer: offer(a.Offer), Old: a.Old, New: a.New}
			}),
		})
	}
	return set
}

// countItem is one nonzero count of a diff with its message key ("{n} price
// changes"), singular or plural.
type countItem struct {
	Key string
	N   int
}

// countItems lists a diff's nonzero counts in a fixed order.
func countItems(c catalog.DiffCounts) []countItem {
	var out []countItem
	for _, v := range []struct {
		n   int
		key string
	}{
		{c.InstanceTypesAdded, "types_added"}, {c.InstanceTypesRemoved, "types_removed"},
		{c.RegionsAdded, "regions_added"}, {c.RegionsRemoved, "regions_removed"},
		{c.OffersAdded, "offers_added"}, {c.OffersRemoved, "offers_removed"},
		{c.PriceChanges, "price_changes"}, {c.AvailabilityChanges, "availability_changes"},
	} {
		if v.n == 0 {
			continue
		}
		form := ".other"
		if v.n == 1 {
			form = ".one"
		}
		out = append(out, countItem{Key: "changes.n." + v.key + form, N: v.n})
	}
	return out
}

// gpuMinima is the lowest on-demand USD per GPU-hour of a snapshot by GPU model
// (the primary accelerator's) and provider.
func gpuMinima(s *catalog.Snapshot) map[string]map[catalog.Provider]decimal.Decimal {
	types := map[string]catalog.InstanceType{}
	for _, t := range s.Instances {
		types[t.Key()] = t
	}
	out := map[string]map[catalog.Provider]decimal.Decimal{}
	for _, o := range s.Offers {
		t, ok := types[o.InstanceKey()]
		if !ok {
			continue
		}
		model, per, ok := perGPUHour(o, t, s.FX)
		if !ok {
			continue
		}
		if out[model] == nil {
			out[model] = map[catalog.Provider]decimal.Decimal{}
		}
		if cur, ok := out[model][o.Provider]; !ok || per.LessThan(cur) {
			out[model][o.Provider] = per
		}
	}
	return out
}

// perGPUHour is an on-demand offer's USD per GPU-hour and its type's GPU model;
// false for other offers and where no such figure exists.
func perGPUHour(o catalog.Offer, t catalog.InstanceType, fx catalog.FXTable) (string, decimal.Decimal, bool) {
	if o.Billing != catalog.OnDemand || !o.Leads() { // a suspect price is never the cheapest
		return "", decimal.Decimal{}, false
	}
	a, ok := t.PrimaryAccelerator()
	if !ok || a.Model == "" {
		return "", decimal.Decimal{}, false
	}
	f := compare.OfferFactsOf(o, t, fx) // the offer's facts in this step's FX table
	if f.USDHour == nil || !f.USDHour.IsPositive() || f.USDGPUHour == nil {
		return "", decimal.Decimal{}, false
	}
	return a.Model, *f.USDGPUHour, true
}

// minTracker keeps gpuMinima of the catalog as history steps change it: each
// step recomputes only the minima of the GPU model and provider groups whose
// offers, instance types or FX rates changed.
type minTracker struct {
	fx     catalog.FXTable
	types  map[string]catalog.InstanceType
	offers map[string]catalog.Offer                // on-demand offers by key
	ofType map[string]map[string]bool              // on-demand offer keys by type key
	value  map[string]minEntry                     // the figure of each offer that has one
	groups map[minGroup]map[string]decimal.Decimal // figures by group and offer key
	min    map[string]map[catalog.Provider]decimal.Decimal
}

type minGroup struct {
	model    string
	provider catalog.Provider
}

type minEntry struct {
	group minGroup
	per   decimal.Decimal
}

func newMinTracker() *minTracker {
	return &minTracker{types: map[string]catalog.InstanceType{}, offers: map[string]catalog.Offer{},
		ofType: map[string]map[string]bool{}, value: map[string]minEntry{},
		groups: map[minGroup]map[string]decimal.Decimal{}, min: map[string]map[catalog.Provider]decimal.Decimal{}}
}

// apply takes in one step and returns the minima at its crawl (a new map).
func (mt *minTracker) apply(st catalog.HistoryStep) map[string]map[catalog.Provider]decimal.Decimal {
	dirty := map[minGroup]bool{}
	unset := func(key string) {
		if e, ok := mt.value[key]; ok {
			delete(mt.groups[e.group], key)
			delete(mt.value, key)
			dirty[e.group] = true
		}
	}
	set := func(key string) {
		unset(key)
		o := mt.offers[key]
		t, ok := mt.types[o.InstanceKey()]
		if !ok {
			return
		}
		model, per, ok := perGPUHour(o, t, mt.fx)
		if !ok {
			return
		}
		g := minGroup{model, o.Provider}
		if mt.groups[g] == nil {
			mt.groups[g] = map[string]decimal.Decimal{}
		}
		mt.groups[g][key] = per
		mt.value[key] = minEntry{g, per}
		dirty[g] = true
	}
	fxChanged := !sameFX(mt.fx, st.After.FX)
	mt.fx = st.After.FX
	changedTypes := map[string]bool{}
	for _, t := range st.Before.Instances {
		delete(mt.types, t.Key())
		changedTypes[t.Key()] = true
	}
	for _, t := range st.After.Instances {
		mt.types[t.Key()] = t
		changedTypes[t.Key()] = true
	}
	for _, o := range st.Before.Offers {
		if o.Billing != catalog.OnDemand {
			continue
		}
		unset(o.Key())
		delete(mt.offers, o.Key())
		delete(mt.ofType[o.InstanceKey()], o.Key())
	}
	for _, o := range st.After.Offers {
		if o.Billing != catalog.OnDemand {
			continue
		}
		mt.offers[o.Key()] = o
		if mt.ofType[o.InstanceKey()] == nil {
			mt.ofType[o.InstanceKey()] = map[string]bool{}
		}
		mt.ofType[o.InstanceKey()][o.Key()] = true
		set(o.Key())
	}
	switch {
	case fxChanged:
		for key := range mt.offers {
			set(key)
		}
	default:
		for t := range changedTypes {
			for key := range mt.ofType[t] {
				set(key)
			}
		}
	}
	for g := range dirty {
		var min decimal.Decimal
		found := false
		for _, v := range mt.groups[g] {
			if !found || v.LessThan(min) {
				min, found = v, true
			}
		}
		switch {
		case found:
			if mt.min[g.model] == nil {
				mt.min[g.model] = map[catalog.Provider]decimal.Decimal{}
			}
			mt.min[g.model][g.provider] = min
		case mt.min[g.model] != nil:
			delete(mt.min[g.model], g.provider)
			if len(mt.min[g.model]) == 0 {
				delete(mt.min, g.model)
			}
		}
	}
	out := make(map[string]map[catalog.Provider]decimal.Decimal, len(mt.min))
	for model, byProvider := range mt.min {
		out[model] = make(map[catalog.Provider]decimal.Decimal, len(byProvider))
		for p, v := range byProvider {
			out[model][p] = v
		}
	}
	return out
}

// sameFX reports whether two FX tables convert alike.
func sameFX(a, b catalog.FXTable) bool {
	if a.Base != b.Base || len(a.Rates) != len(b.Rates) {
		return false
	}
	for c, r := range a.Rates {
		if o, ok := b.Rates[c]; !ok || !o.Equal(r) {
			return false
		}
	}
	return true
}

// changesData is the model of changes.html: the latest changes (the index) or one
// crawl's (an archive page).
type changesData struct {
	Index bool
	Crawl crawlInfo
	// Prev and Next are the neighbouring archive pages, nil at the ends.
	Prev, Next *crawlInfo
	// Archive lists every crawl, newest first (the index only).
	Archive []crawlInfo
	Feed    string // the feed's path relative to the language root
	// Observed are the dated price changes of the imported series (the index
	// sums them up and links their page); nil without them.
	Observed *observedChanges
}

// archivesData is the model of changes/archives.html.
type archivesData struct {
	Observed *observedChanges
	Feed     string
}

// pages are the changes index, an archive page per crawl after the first, with the
// feed beside the index.
func (c *changesModel) pages(l *language, base, siteURL string) ([]page, error) {
	last := c.crawls[len(c.crawls)-1]
	idx := changesData{Index: true, Crawl: last, Feed: feedPath, Observed: c.observed}
	for i := len(c.crawls) - 1; i >= 0; i-- {
		idx.Archive = append(idx.Archive, c.crawls[i])
	}
	feed, err := c.feed(l, base, siteURL)
	if err != nil {
		return nil, err
	}
	out := []page{{Path: "changes/index.html", Template: "changes.html", Nav: "changes", Data: idx,
		Files: []siteFile{{name: feedPath, data: feed}}}}
	for i := 1; i < len(c.crawls); i++ {
		d := changesData{Crawl: c.crawls[i], Feed: feedPath}
		if i > 1 {
			d.Prev = &c.crawls[i-1]
		}
		if i+1 < len(c.crawls) {
			d.Next = &c.crawls[i+1]
		}
		out = append(out, page{Path: c.crawls[i].Path(), Template: "changes.html", Nav: "changes", Data: d})
	}
	if c.observed != nil {
		out = append(out, page{Path: archivesPath, Template: "archives.html", Nav: "changes", Data: archivesData{Observed: c.observed, Feed: feedPath}})
	}
	return out, nil
}

// gpuTrendView is a GPU page's cheapest on-demand USD per GPU-hour over time,
// per provider: a line chart and a table of the dates where a figure changed.
// The dates are the crawls' and those where a price imported from a public
// archive began or stopped holding.
type gpuTrendView struct {
	Providers []catalog.Provider
	Rows      []gpuTrendRow
	Crawls    int    // the dates on the timeline
	Chart     string // path relative to the language root; "" without one
}

type gpuTrendRow struct {
	At     time.Time
	Prices []*decimal.Decimal // per provider; nil where it had no offer
}

// gpuTrend is the price trend of a GPU model, with its chart; nil when fewer than
// two dates priced it. A crawl's figures hold until the next crawl (the last
// crawl's from then on); an imported price holds as its series says.
func (c *changesModel) gpuTrend(l *language, model string) (*gpuTrendView, chartSVG, error) {
	times := c.trendTimes(model)
	set := map[catalog.Provider]bool{}
	priced := 0
	at := make([]map[catalog.Provider]decimal.Decimal, len(times))
	for i, t := range times {
		at[i] = c.minimaAt(model, t)
		if len(at[i]) > 0 {
			priced++
		}
		for p := range at[i] {
			set[p] = true
		}
	}
	if priced < 2 {
		return nil, chartSVG{}, nil
	}
	v := &gpuTrendView{Providers: c.m.orderProviders(set), Crawls: len(times)}
	var prev []*decimal.Decimal
	for i, t := range times {
		row := gpuTrendRow{At: t, Prices: make([]*decimal.Decimal, len(v.Providers))}
		changed := i == 0 || i == len(times)-1
		for j, p := range v.Providers {
			if d, ok := at[i][p]; ok {
				row.Prices[j] = &d
			}
			if prev != nil && !sameDec(prev[j], row.Prices[j]) {
				changed = true
			}
		}
		if changed {
			v.Rows = append(v.Rows, row)
		}
		prev = row.Prices
	}
	// The chart has a point a day (every few days over years): each shows the
	// figures of the last date on or before that day.
	days := spanAxis(times[0], times[len(times)-1])
	x := make([]string, len(days))
	series := make([]lineSeries, len(v.Providers))
	for j, p := range v.Providers {
		series[j] = lineSeries{Name: l.label("provider", p), Values: make([]float64, len(days))}
	}
	k := -1 // the last date on or before the day
	for i, d := range days {
		x[i] = d.Format("2006-01-02")
		for k+1 < len(times) && !day(times[k+1]).After(d) {
			k++
		}
		for j, p := range v.Providers {
			series[j].Values[i] = charts.GetNullValue()
			if k < 0 {
				continue
			}
			if min, ok := at[k][p]; ok {
				r, _ := moneyRound(min)
				series[j].Values[i] = r.InexactFloat64()
			}
		}
	}
	svg, err := lineSVG(x, series, l.msg("changes.trend_chart_title"))
	if err != nil {
		return nil, chartSVG{}, err
	}
	return v, svg, nil
}

// trendTimes are the dates of a GPU model's trend: every crawl, and each time an
// imported price of the model began or stopped holding, in order.
func (c *changesModel) trendTimes(model string) []time.Time {
	var times []time.Time
	for _, cr := range c.crawls {
		times = append(times, cr.At)
	}
	for _, e := range c.observedMin {
		if _, ok := e.changed[model]; ok {
			times = append(times, e.At)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	out := times[:0]
	for i, t := range times {
		if i == 0 || !t.Equal(out[len(out)-1]) {
			out = append(out, t)
		}
	}
	return out
}

// minimaAt is a model's lowest USD per GPU-hour by provider at t: the last
// crawl's at or before t and the imported prices that hold at t, the lower of
// the two.
func (c *changesModel) minimaAt(model string, t time.Time) map[catalog.Provider]decimal.Decimal {
	out := map[catalog.Provider]decimal.Decimal{}
	k := sort.Search(len(c.crawls), func(i int) bool { return c.crawls[i].At.After(t) }) - 1
	if k >= 0 {
		for p, v := range c.gpuMin[k][model] {
			out[p] = v
		}
	}
	e := sort.Search(len(c.observedMin), func(i int) bool { return c.observedMin[i].At.After(t) }) - 1
	if e >= 0 {
		for p, v := range c.observedMin[e].min[model] {
			if cur, ok := out[p]; !ok || v.LessThan(cur) {
				out[p] = v
			}
		}
	}
	return out
}

func sameDec(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}
