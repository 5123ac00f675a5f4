package sitegen

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/go-analyze/charts"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// historySeriesPerDay is historySeries as first written: every price converted
// again for every day of the axis. It is the reference the faster one must match.
func historySeriesPerDay(fx catalog.FXTable, hs []offerHistory, days []time.Time) []lineSeries {
	var series []lineSeries
	for _, h := range hs {
		s := lineSeries{Name: h.Offer.Offer.Region, Values: make([]float64, len(days))}
		term := h.Offer.Offer.Billing.TermHours()
		for i, d := range days {
			s.Values[i] = charts.GetNullValue()
			for _, p := range h.Points {
				if day(p.From).After(d) || day(pointEnd(p.PricePoint)).Before(d) {
					continue
				}
				if v, ok := pointUSD(fx, p.PricePoint, term); ok {
					s.Values[i] = v
				}
			}
		}
		series = append(series, s)
	}
	return series
}

func TestHistorySeries_AsPerDay(t *testing.T) {
	fx := catalog.FXTable{Base: catalog.USD, Rates: map[catalog.Currency]decimal.Decimal{catalog.USD: decimal.NewFromInt(1), catalog.CNY: catalog.Dec("7.1")}}
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2023, 1, 1, 2, 0, 0, 0, time.UTC)
	for trial := range 300 {
		var hs []offerHistory
		for range 1 + rng.IntN(4) {
			// Crawls at irregular times: several a day, gaps of days, years.
			at := start.Add(time.Duration(rng.IntN(48)) * time.Hour)
			var pts []historyPoint
			for range 1 + rng.IntN(12) {
				from := at
				last := from.Add(time.Duration(rng.IntN(24*40)) * time.Hour)
				var until time.Time
				if rng.IntN(5) > 0 {
					until = last.Add(time.Duration(1+rng.IntN(30)) * time.Hour)
				}
				cur := []catalog.Currency{catalog.USD, catalog.CNY, "EUR"}[rng.IntN(3)] // EUR: no rate, skipped
				unit := []catalog.PriceUnit{catalog.PerHour, catalog.PerMonth}[rng.IntN(2)]
				pts = append(pts, historyPoint{PricePoint: catalog.PricePoint{From: from, Last: last, Until: until,
					Price: catalog.Price{Amount: decimal.NewFromFloat(rng.Float64() * 90).Round(4), Currency: cur, Unit: unit}}})
				at = last
				if !until.IsZero() {
					at = until
				}
				if rng.IntN(3) == 0 {
					at = at.Add(time.Duration(rng.IntN(24*400)) * time.Hour) // a gap, sometimes past the axis window
				}
			}
			billing := []catalog.BillingKind{catalog.OnDemand, catalog.Reserved1yNoUpfront}[rng.IntN(2)]
			hs = append(hs, offerHistory{Offer: &offerView{Offer: catalog.Offer{Region: fmt.Sprint("r", trial), Billing: billing}}, Points: pts})
		}
		days := historyAxis(hs)
		got, want := historySeries(fx, hs, days), historySeriesPerDay(fx, hs, days)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d series, want %d", trial, len(got), len(want))
		}
		for i := range got {
			for d := range got[i].Values {
				if got[i].Values[d] != want[i].Values[d] {
					t.Fatalf("trial %d, series %d, day %s: %v, want %v", trial, i, days[d].Format("2006-01-02"), got[i].Values[d], want[i].Values[d])
				}
			}
		}
	}
}
