package sitegen

import (
	"time"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// offerHistory is one offer's recorded prices, oldest first.
type offerHistory struct {
	Offer  *offerView
	Points []catalog.PricePoint
}

// maxHistoryLines bounds the lines of a price history chart; the table lists
// every offer.
const maxHistoryLines = 8

// historyOf returns the price history (Options.PriceHistory) of the on-demand
// offers among offers that have more than one recorded price.
func (m *siteModel) historyOf(offers []*offerView) []offerHistory {
	if m.history == nil {
		return nil
	}
	var out []offerHistory
	for _, o := range offers {
		if o.Offer.Billing != catalog.OnDemand {
			continue
		}
		if pts := m.history[o.Key]; len(pts) > 1 {
			out = append(out, offerHistory{Offer: o, Points: pts})
		}
	}
	return out
}

// historyChart draws USD per hour over time, one line per offer (the first
// maxHistoryLines), converted with the snapshot's FX table. The x axis has a point
// per day (UTC) from the first recorded price to the last, so that time reads
// evenly however often prices changed; a price holds from the crawl it was first
// seen until the crawl that saw another (or none), and the last price of a day
// is that day's.
func historyChart(l *language, fx catalog.FXTable, hs []offerHistory) ([]byte, error) {
	if len(hs) > maxHistoryLines {
		hs = hs[:maxHistoryLines]
	}
	days := historyAxis(hs)
	x := make([]string, len(days))
	for i, d := range days {
		x[i] = d.Format("2006-01-02")
	}
	series := historySeries(fx, hs, days)
	if len(series) == 0 {
		return nil, nil
	}
	return lineSVG(x, series, l.msg("instance.history_chart_title"))
}

// historyAxis is the daily axis of a history chart: from the first recorded
// price of any of the offers to the last (see dailyAxis).
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
	return dailyAxis(first, last)
}

// historySeries is each offer's USD per hour on each day of the axis (null
// where it had no price): a price counts from the day it was first seen until
// the crawl that no longer saw it, and the last price of a day wins. Each price
// is converted once, not once per day.
func historySeries(fx catalog.FXTable, hs []offerHistory, days []time.Time) []lineSeries {
	var series []lineSeries
	for _, h := range hs {
		s := lineSeries{Name: h.Offer.Offer.Region, Values: make([]float64, len(days))}
		for i := range s.Values {
			s.Values[i] = charts.GetNullValue()
		}
		term := h.Offer.Offer.Billing.TermHours()
		for _, p := range h.Points {
			v, ok := pointUSD(fx, p, term)
			if !ok {
				continue
			}
			end := pointEnd(p)
			// The days the price held, within the axis; points are oldest
			// first, so a later price of the same day overwrites an earlier.
			from := max(dayIndex(days, day(p.From)), 0)
			to := min(dayIndex(days, day(end)), len(days)-1)
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
// that no longer saw it, else its last sighting.
func pointEnd(p catalog.PricePoint) time.Time {
	if !p.Until.IsZero() {
		return p.Until.Add(-time.Nanosecond)
	}
	return p.Last
}

// maxAxisDays bounds a daily time axis to its most recent days.
const maxAxisDays = 731

// dailyAxis lists the UTC days from first's to last's, at most maxAxisDays of
// them (the most recent).
func dailyAxis(first, last time.Time) []time.Time {
	var out []time.Time
	for d := day(first); !d.After(day(last)); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	if len(out) > maxAxisDays {
		out = out[len(out)-maxAxisDays:]
	}
	return out
}

// day is the UTC day of t, at midnight.
// dayIndex is the index of day d on a daily axis (negative before its start).
func dayIndex(days []time.Time, d time.Time) int {
	if len(days) == 0 {
		return -1
	}
	return int(d.Sub(days[0]) / (24 * time.Hour))
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
