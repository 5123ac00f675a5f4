package sitegen

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The prices imported from public archives have their own changes: each dated
// price change inside a series (catalog.History.ObservedChanges), listed on
// changes/archives.html by day with the archive that observed it, summed up on
// the changes index and carried by the Atom feed. They also feed the GPU pages'
// price trends (observedMinima).

// archivesPath is the page of the archives' dated price changes.
const archivesPath = "changes/archives.html"

// maxObservedRows bounds the rows of the archives page; the heading counts all.
const maxObservedRows = 500

// observedChanges is every dated price change of the imported series, by day.
type observedChanges struct {
	Days  []observedDay // newest first
	Total int
	More  int // rows left out of the page (beyond maxObservedRows)
	// First and Last are the days of the oldest and newest change.
	First, Last string
}

// observedDay is the changes of one UTC day.
type observedDay struct {
	Date string // YYYY-MM-DD, also the row group's id
	At   time.Time
	Rows []observedChangeRow
}

// observedChangeRow is one dated change as the pages show it.
type observedChangeRow struct {
	changedOffer
	At       time.Time
	Includes string
	Old, New priceRange
	Percent  *decimal.Decimal
	Sources  []sourceLink // the archive(s) that observed the new price
	Note     string
}

// priceRange is a published price: one figure, or a range.
type priceRange struct {
	catalog.Price
	High *decimal.Decimal
}

// PercentText is the change with a sign and two places, "" without one.
func (r observedChangeRow) PercentText() string {
	return changedPrice{Percent: r.Percent}.PercentText()
}

// Direction is up, down or "", for the row's style.
func (r observedChangeRow) Direction() string {
	return changedPrice{Percent: r.Percent}.Direction()
}

func newObservedChanges(m *siteModel, h *catalog.History) *observedChanges {
	all := h.ObservedChanges()
	if len(all) == 0 {
		return nil
	}
	oc := &observedChanges{Total: len(all), First: all[0].At.UTC().Format("2006-01-02"), Last: all[len(all)-1].At.UTC().Format("2006-01-02")}
	rows := 0
	for i := len(all) - 1; i >= 0; i-- {
		c := all[i]
		if rows == maxObservedRows {
			oc.More = i + 1
			break
		}
		rows++
		date := c.At.UTC().Format("2006-01-02")
		if n := len(oc.Days); n == 0 || oc.Days[n-1].Date != date {
			oc.Days = append(oc.Days, observedDay{Date: date})
		}
		d := &oc.Days[len(oc.Days)-1]
		d.At = c.At
		n := c.New
		o := catalog.Offer{Provider: n.Provider, InstanceType: n.InstanceType, Region: n.Region, Zone: n.Zone, Billing: n.Billing, Includes: n.Includes}
		d.Rows = append(d.Rows, observedChangeRow{
			changedOffer: changedOffer{O: o, Region: m.region(n.Provider, n.Region), Href: m.typeHref(n.InstanceKey())},
			At:           c.At, Includes: n.Includes,
			Old: priceRange{c.Old.Price, c.Old.PriceHigh}, New: priceRange{n.Price, n.PriceHigh},
			Percent: c.Percent, Sources: sourceLinks(n.FirstSources()), Note: n.Note,
		})
	}
	// Each day's rows in key order, as the other change lists.
	for i := range oc.Days {
		rs := oc.Days[i].Rows
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].O.Key() < rs[b].O.Key() })
	}
	return oc
}

// observedMinima is the lowest on-demand USD per GPU-hour of the imported
// prices by GPU model and provider from At on, and the models whose figures
// may have changed at At.
type observedMinima struct {
	At      time.Time
	min     map[string]map[catalog.Provider]decimal.Decimal
	changed map[string]bool
}

// newObservedMinima sweeps the times an imported on-demand price of a type the
// snapshot has (its GPU model and count; a type no longer in the catalog has
// none to divide by) begins or stops holding, and records the minima of the
// imported prices that hold then (catalog.History.ObservedOffersAt), converted
// with the snapshot's FX table. Only a price that may lead counts (perGPUHour:
// Offer.Leads): one the plausibility rules flag beside the archives' prices of
// its time is never the cheapest.
func newObservedMinima(m *siteModel, h *catalog.History) []observedMinima {
	models := map[time.Time]map[string]bool{} // the models of the runs that begin or end at a time
	for _, s := range h.ObservedSeries() {
		for _, r := range s.Runs {
			if r.Billing != catalog.OnDemand {
				continue
			}
			t, ok := m.typeByKey[r.InstanceKey()]
			if !ok {
				continue
			}
			a, ok := t.T.PrimaryAccelerator()
			if !ok || a.Model == "" {
				continue
			}
			for _, at := range []time.Time{r.From, r.Until} {
				if models[at] == nil {
					models[at] = map[string]bool{}
				}
				models[at][a.Model] = true
			}
		}
	}
	times := make([]time.Time, 0, len(models))
	for at := range models {
		times = append(times, at)
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	var out []observedMinima
	cur := map[string]map[catalog.Provider]decimal.Decimal{}
	for _, at := range times {
		next := map[string]map[catalog.Provider]decimal.Decimal{}
		for _, o := range h.ObservedOffersAt(at, m.snap.Instances) {
			t, ok := m.typeByKey[o.InstanceKey()]
			if !ok {
				continue
			}
			model, per, ok := perGPUHour(o, t.T, m.snap.FX)
			if !ok {
				continue
			}
			if next[model] == nil {
				next[model] = map[catalog.Provider]decimal.Decimal{}
			}
			if old, ok := next[model][o.Provider]; !ok || per.LessThan(old) {
				next[model][o.Provider] = per
			}
		}
		changed := models[at]
		for model := range cur {
			if !sameMinima(cur[model], next[model]) {
				changed[model] = true
			}
		}
		for model := range next {
			if !sameMinima(cur[model], next[model]) {
				changed[model] = true
			}
		}
		cur = next
		out = append(out, observedMinima{At: at, min: cur, changed: changed})
	}
	return out
}

// sameMinima reports two providers' minima equal.
func sameMinima(a, b map[catalog.Provider]decimal.Decimal) bool {
	if len(a) != len(b) {
		return false
	}
	for p, v := range a {
		if w, ok := b[p]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}
