package catalog

import (
	"sort"
	"time"
)

// StaleDays is how many days old a price's observation may be before it is
// called stale: the site marks a provider's data age and each row of a
// ranking or "cheapest" answer past it, and `gpuatlas check` lists the
// provider. A nightly crawl keeps every provider with credentials well inside it.
const StaleDays = 30

// Age is how old an offer's price is at a given time.
type Age struct {
	// Known is false when the source gives no date (observed_at empty).
	Known bool
	// Days is the whole days from observed_at to the time asked about (0 for a
	// date after it).
	Days int
}

// Stale reports an observation older than StaleDays. An unknown date is not
// stale but unknown: the site and the check say so separately.
func (a Age) Stale() bool { return a.Known && a.Days > StaleDays }

// AgeAt is the offer's age at now.
func (o Offer) AgeAt(now time.Time) Age {
	if o.ObservedAt.IsZero() {
		return Age{}
	}
	return Age{Known: true, Days: daysBetween(o.ObservedAt, now)}
}

func daysBetween(from, to time.Time) int {
	d := to.Sub(from)
	if d < 0 {
		return 0
	}
	return int(d / (24 * time.Hour))
}

// DataAge is how old one provider's prices are: the span of their observation
// dates, how many have none, and whether the provider's data is stale.
type DataAge struct {
	Provider Provider `json:"provider"`
	// Offers counts the provider's offers; Reported those a person reported.
	Offers   int `json:"offers"`
	Reported int `json:"reported,omitempty"`
	// Oldest and Newest are the offers' earliest and latest observed_at (zero
	// when no offer has one); Days is Oldest's age.
	Oldest time.Time `json:"oldest_observed_at,omitzero"`
	Newest time.Time `json:"newest_observed_at,omitzero"`
	Days   int       `json:"days"`
	// Unknown counts the offers whose source gives no date.
	Unknown int `json:"unknown_date_offers,omitempty"`
	// Retrieved is when GPU Atlas last retrieved the provider's prices (the
	// latest fetched_at).
	Retrieved time.Time `json:"retrieved_at,omitzero"`
	// Coverage is the provider's coverage status: stale when its last crawl
	// failed and its data was kept.
	Coverage CoverageStatus `json:"coverage,omitempty"`
}

// Stale reports data older than StaleDays, or kept from an earlier crawl.
func (d DataAge) Stale() bool {
	return (!d.Oldest.IsZero() && d.Days > StaleDays) || d.Coverage == CoverageStale
}

// Dated reports whether any offer has an observation date.
func (d DataAge) Dated() bool { return !d.Oldest.IsZero() }

// DataAges is each provider's data age at now, in display order: every
// provider the snapshot's coverage or instance types name, with or without
// offers.
func (s *Snapshot) DataAges(now time.Time) []DataAge {
	by := map[Provider]*DataAge{}
	var order []Provider
	get := func(p Provider) *DataAge {
		d := by[p]
		if d == nil {
			d = &DataAge{Provider: p}
			by[p] = d
			order = append(order, p)
		}
		return d
	}
	for _, c := range s.Coverage {
		get(c.Provider).Coverage = c.Status
	}
	for _, t := range s.Instances {
		get(t.Provider)
	}
	for i := range s.Offers {
		o := &s.Offers[i]
		d := get(o.Provider)
		d.Offers++
		if o.Reported {
			d.Reported++
		}
		if o.FetchedAt.After(d.Retrieved) {
			d.Retrieved = o.FetchedAt
		}
		if o.ObservedAt.IsZero() {
			d.Unknown++
			continue
		}
		if d.Oldest.IsZero() || o.ObservedAt.Before(d.Oldest) {
			d.Oldest = o.ObservedAt
		}
		if o.ObservedAt.After(d.Newest) {
			d.Newest = o.ObservedAt
		}
	}
	rank := map[Provider]int{}
	for i, p := range Providers {
		rank[p] = i + 1
	}
	out := make([]DataAge, 0, len(order))
	for _, p := range order {
		d := by[p]
		if !d.Oldest.IsZero() {
			d.Days = daysBetween(d.Oldest, now)
		}
		out = append(out, *d)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ra, rb := rank[a.Provider], rank[b.Provider]
		if ra == 0 || rb == 0 {
			if ra != rb {
				return rb == 0
			}
			return a.Provider < b.Provider
		}
		return ra < rb
	})
	return out
}
