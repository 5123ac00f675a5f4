package sitegen

import (
	"sort"
	"time"

	"github.com/go-analyze/charts"

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
// wherever any price started or was last seen.
func historyChart(l *language, fx catalog.FXTable, hs []offerHistory) ([]byte, error) {
	if len(hs) > maxHistoryLines {
		hs = hs[:maxHistoryLines]
	}
	seen := map[time.Time]bool{}
	var times []time.Time
	for _, h := range hs {
		for _, p := range h.Points {
			for _, t := range []time.Time{p.From, p.Last} {
				if !seen[t] {
					seen[t] = true
					times = append(times, t)
				}
			}
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	x := make([]string, len(times))
	for i, t := range times {
		x[i] = t.UTC().Format("2006-01-02")
	}
	var series []lineSeries
	for _, h := range hs {
		s := lineSeries{Name: h.Offer.Offer.Region, Values: make([]float64, len(times))}
		term := h.Offer.Offer.Billing.TermHours()
		for i, t := range times {
			s.Values[i] = charts.GetNullValue()
			for _, p := range h.Points {
				if t.Before(p.From) || t.After(p.Last) {
					continue
				}
				hourly, err := p.Price.Hourly(term)
				if err != nil {
					break
				}
				usd, err := fx.Convert(hourly, p.Price.Currency, catalog.USD)
				if err != nil {
					break
				}
				s.Values[i] = usd.InexactFloat64()
			}
		}
		series = append(series, s)
	}
	if len(series) == 0 {
		return nil, nil
	}
	return lineSVG(x, series, l.msg("instance.history_chart_title"))
}
