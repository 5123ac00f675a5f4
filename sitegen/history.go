package sitegen

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// An instance page's price history is a set of tracks, one per offer key and
// what its price includes: the prices the crawls recorded (Options.PriceHistory,
// on-demand offers with more than one price) and the runs of the series imported
// from public archives (catalog.History.ObservedSeries), which join the crawled
// track of the same offer and basis. Each billing kind with a track to draw gets
// a chart; the table lists every point with where it comes from.

// historyPoint is one price a track held: a crawled run of crawls
// (catalog.PricePoint) or an imported run, which also carries the high end of a
// published range and the archives that observed it.
type historyPoint struct {
	catalog.PricePoint
	High     *decimal.Decimal
	Sources  []string
	Note     string
	Imported bool
}

// RangeHigh is the high end of a published range, "" for one figure.
func (p historyPoint) RangeHigh() string {
	if p.High == nil {
		return ""
	}
	return p.High.String()
}

// offerHistory is one track, oldest first.
type offerHistory struct {
	// Offer is the snapshot's offer, or for a track only an archive has (a 2019
	// list price, a type no longer sold) a view made from its series.
	Offer    *offerView
	Includes string
	Points   []historyPoint
}

// charted reports whether a track is worth a line: two prices or more. One
// price that held for months is a flat line: the table says as much, and the
// charts are much of a build's time.
func (h offerHistory) charted() bool { return len(h.Points) > 1 }

// historyChartView is one chart of a page's price history: a billing kind's
// tracks, in the published currency and unit when they share them (Native, e.g.
// "CNY/month"), else in USD per hour.
type historyChartView struct {
	Billing catalog.BillingKind
	Path    string // relative to the language root
	Native  string // "" for USD per hour
	tracks  []offerHistory
}

// NativeCurrency and NativeUnit are the parts of Native, for the caption.
func (c historyChartView) NativeCurrency() string {
	cur, _, _ := strings.Cut(c.Native, "/")
	return cur
}

// NativeUnit is the unit of Native: hour, month or year.
func (c historyChartView) NativeUnit() string { _, unit, _ := strings.Cut(c.Native, "/"); return unit }

// priceHistoryView is what a page shows of its price history.
type priceHistoryView struct {
	Tracks []offerHistory
	Charts []historyChartView
	// Imported says whether any price comes from a public archive (the page
	// then explains what an imported price means).
	Imported bool
}

// maxHistoryLines bounds the lines of a price history chart; the table lists
// every track.
const maxHistoryLines = 8

// historyOf returns the price history of a type's offers: crawled on-demand
// tracks with more than one price, every imported series of the type (key), and
// the crawled prices of the offers those series are about.
func (m *siteModel) historyOf(key string, offers []*offerView) priceHistoryView {
	var v priceHistoryView
	series := m.observedOf[key]
	if m.history == nil && len(series) == 0 {
		return v
	}
	crawled := func(o *offerView) []historyPoint {
		var out []historyPoint
		for _, p := range m.history[o.Key] {
			out = append(out, historyPoint{PricePoint: p, Sources: []string{o.Offer.Source}})
		}
		return out
	}
	byKey := map[string]*offerView{}
	joined := map[string]bool{}
	for _, o := range offers {
		byKey[o.Key+"\x00"+o.Offer.Includes] = o
	}
	for _, s := range series {
		first := s.Runs[0]
		o, ok := byKey[first.OfferKey()+"\x00"+first.Includes]
		t := offerHistory{Offer: o, Includes: first.Includes}
		if ok {
			joined[o.Key] = true
			t.Points = crawled(o)
		} else {
			t.Offer = &offerView{Key: first.OfferKey(), Region: m.region(first.Provider, first.Region),
				Offer: catalog.Offer{Provider: first.Provider, InstanceType: first.InstanceType, Region: first.Region, Zone: first.Zone,
					Billing: first.Billing, Includes: first.Includes, Availability: catalog.Unknown}}
		}
		for _, r := range s.Runs {
			t.Points = append(t.Points, historyPoint{
				PricePoint: catalog.PricePoint{From: r.From, Last: r.Last, Until: r.Until, Price: r.Price, Availability: catalog.Unknown},
				High:       r.PriceHigh, Sources: r.Sources, Note: strings.Join(r.Notes, "; "), Imported: true,
			})
		}
		sort.SliceStable(t.Points, func(i, j int) bool { return t.Points[i].From.Before(t.Points[j].From) })
		v.Tracks = append(v.Tracks, t)
		v.Imported = true
	}
	for _, o := range offers {
		if o.Offer.Billing != catalog.OnDemand || joined[o.Key] {
			continue
		}
		if pts := m.history[o.Key]; len(pts) > 1 {
			v.Tracks = append(v.Tracks, offerHistory{Offer: o, Includes: o.Offer.Includes, Points: crawled(o)})
		}
	}
	rank := map[catalog.BillingKind]int{}
	for i, b := range catalog.BillingKinds {
		rank[b] = i
	}
	sort.SliceStable(v.Tracks, func(i, j int) bool {
		a, b := v.Tracks[i].Offer.Offer, v.Tracks[j].Offer.Offer
		if a.Billing != b.Billing {
			return rank[a.Billing] < rank[b.Billing]
		}
		if a.Region != b.Region {
			return a.Region < b.Region
		}
		if a.Zone != b.Zone {
			return a.Zone < b.Zone
		}
		return v.Tracks[i].Includes < v.Tracks[j].Includes
	})
	for _, t := range v.Tracks {
		if !t.charted() {
			continue
		}
		b := t.Offer.Offer.Billing
		if n := len(v.Charts); n == 0 || v.Charts[n-1].Billing != b {
			v.Charts = append(v.Charts, historyChartView{Billing: b})
		}
		c := &v.Charts[len(v.Charts)-1]
		if len(c.tracks) < maxHistoryLines {
			c.tracks = append(c.tracks, t)
		}
	}
	for i := range v.Charts {
		v.Charts[i].Native = nativeUnit(v.Charts[i].tracks)
	}
	return v
}

// nativeUnit is "CNY/month" when every price of the tracks is in that currency
// and unit without an upfront payment, else "" (the chart converts to USD per
// hour).
func nativeUnit(ts []offerHistory) string {
	var cur catalog.Currency
	var unit catalog.PriceUnit
	for _, t := range ts {
		for _, p := range t.Points {
			if p.Price.Upfront != nil && !p.Price.Upfront.IsZero() || p.Price.Unit == catalog.Upfront {
				return ""
			}
			if cur == "" {
				cur, unit = p.Price.Currency, p.Price.Unit
			}
			if p.Price.Currency != cur || p.Price.Unit != unit {
				return ""
			}
		}
	}
	if cur == "" {
		return ""
	}
	return string(cur) + "/" + string(unit)
}

// historyChart draws one chart's tracks over time, one line per track: in the
// published currency and unit when they share them (a range at its low end),
// else USD per hour converted with the snapshot's FX table. The x axis has a
// point per day (UTC), or per few days over a long span, from the first recorded
// price to the last, so that time reads evenly however often prices changed; a
// price holds from when it was first seen until it was seen no more, and the
// last price of a day is that day's.
func historyChart(l *language, fx catalog.FXTable, c historyChartView) (chartSVG, error) {
	hs := c.tracks
	days := historyAxis(hs)
	x := make([]string, len(days))
	for i, d := range days {
		x[i] = d.Format("2006-01-02")
	}
	var series []lineSeries
	title := l.msg("instance.history_chart_title")
	if c.Native != "" {
		series = historySeriesWith(hs, days, func(p historyPoint, _ decimal.Decimal) (float64, bool) {
			r, _ := moneyRound(p.Price.Amount)
			return r.InexactFloat64(), true
		})
		cur, unit, _ := strings.Cut(c.Native, "/")
		title = cur + "/" + l.label("unit", unit)
	} else {
		series = historySeries(fx, hs, days)
	}
	for i := range series {
		series[i].Name = trackName(l, hs[i])
	}
	if len(series) == 0 {
		return chartSVG{}, nil
	}
	return lineSVG(x, series, title)
}

// trackName names a track's line: its region, zone and, for a price that
// includes more than the instance, what it includes.
func trackName(l *language, h offerHistory) string {
	s := l.regionName(h.Offer.Region)
	if z := h.Offer.Offer.Zone; z != "" {
		s += " " + z
	}
	if h.Includes != "" {
		inc, _ := dataText(l, h.Includes)
		s += " (+" + inc + ")"
	}
	return s
}

// historyAxis is the time axis of a history chart: from the first recorded
// price of any of the tracks to the last (see spanAxis).
func historyAxis(hs []offerHistory) []time.Time {
	var first, last time.Time
	for _, h := range hs {
		for _, p := range h.Points {
			if first.IsZero() || p.From.Before(first) {
				first = p.From
			}
			if p.Last.After(last) {
				last = p.Last
			}
		}
	}
	return spanAxis(first, last)
}

// historySeries is each track's USD per hour on each day of the axis (null
// where it had no price).
func historySeries(fx catalog.FXTable, hs []offerHistory, days []time.Time) []lineSeries {
	return historySeriesWith(hs, days, func(p historyPoint, term decimal.Decimal) (float64, bool) {
		return pointUSD(fx, p.PricePoint, term)
	})
}

// historySeriesWith is each track's value on each day of the axis (null where
// it had no price): a price counts from the day it was first seen until the day
// it was last known to hold, and the last price of a day wins. Each price is
// valued once, not once per day.
func historySeriesWith(hs []offerHistory, days []time.Time, value func(historyPoint, decimal.Decimal) (float64, bool)) []lineSeries {
	var series []lineSeries
	for _, h := range hs {
		s := lineSeries{Name: h.Offer.Offer.Region, Values: make([]float64, len(days))}
		for i := range s.Values {
			s.Values[i] = charts.GetNullValue()
		}
		term := h.Offer.Offer.Billing.TermHours()
		for _, p := range h.Points {
			v, ok := value(p, term)
			if !ok {
				continue
			}
			// The axis points on the days the price held; points are oldest
			// first, so a later price of the same day overwrites an earlier.
			from := max(axisIndexFrom(days, day(p.From)), 0)
			to := min(axisIndexTo(days, day(pointEnd(p.PricePoint))), len(days)-1)
			for i := from; i <= to; i++ {
				s.Values[i] = v
			}
		}
		series = append(series, s)
	}
	return series
}

// pointUSD is a recorded price as a chart shows it: USD per hour, rounded as
// displayed; false when it has no hourly figure or no USD rate.
func pointUSD(fx catalog.FXTable, p catalog.PricePoint, term decimal.Decimal) (float64, bool) {
	hourly, err := p.Price.Hourly(term)
	if err != nil {
		return 0, false
	}
	usd, err := fx.Convert(hourly, p.Price.Currency, catalog.USD)
	if err != nil {
		return 0, false
	}
	r, _ := moneyRound(usd)
	return r.InexactFloat64(), true
}

// pointEnd is the last instant a recorded price held: just before the crawl
// (or the observation) that no longer saw it, else its last sighting.
func pointEnd(p catalog.PricePoint) time.Time {
	if !p.Until.IsZero() {
		return p.Until.Add(-time.Nanosecond)
	}
	return p.Last
}

// maxAxisPoints bounds a time axis: up to that many days it has a point a day;
// a longer span has a point every few days, as many as needed to stay within it
// (Tencent's list prices span 2016 to 2021).
const maxAxisPoints = 731

// spanAxis lists the UTC days from first's to last's, every step days, step the
// least that keeps it within maxAxisPoints; the last day is on the axis.
func spanAxis(first, last time.Time) []time.Time {
	if first.IsZero() || last.Before(first) {
		return nil
	}
	start, end := day(first), day(last)
	n := int(end.Sub(start)/(24*time.Hour)) + 1
	step := int(math.Ceil(float64(n) / maxAxisPoints))
	// Count back from the last day, so that the newest prices are on the axis.
	var out []time.Time
	for d := end; !d.Before(start); d = d.AddDate(0, 0, -step) {
		out = append(out, d)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// axisStep is the days between two points of an axis made by spanAxis.
func axisStep(days []time.Time) int {
	if len(days) < 2 {
		return 1
	}
	return int(days[1].Sub(days[0]) / (24 * time.Hour))
}

// axisIndexFrom is the first point of the axis on or after day d (len(days)
// when none); axisIndexTo the last on or before it (-1 when none).
func axisIndexFrom(days []time.Time, d time.Time) int {
	if len(days) == 0 {
		return 0
	}
	step := axisStep(days)
	off := int(d.Sub(days[0]) / (24 * time.Hour))
	if off <= 0 {
		return 0
	}
	return (off + step - 1) / step
}

func axisIndexTo(days []time.Time, d time.Time) int {
	if len(days) == 0 {
		return -1
	}
	off := int(d.Sub(days[0]) / (24 * time.Hour))
	if off < 0 {
		return -1
	}
	return off / axisStep(days)
}

// day is the UTC day of t, at midnight.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
