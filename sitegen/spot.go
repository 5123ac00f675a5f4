package sitegen

import (
	"sort"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// spotRiskView is an instance type's spot offers with their interruption
// risk, one row per region: the cheapest spot price there, the advisor's band
// and saving (or why there is none), and the band in each dated copy of the
// advisor feed (Options.BandHistory).
type spotRiskView struct {
	Rows  []spotRiskRow
	Dates []string // the copies' days, oldest first; empty without a history
	// Moved says the band changed in some region between the copies.
	Moved bool
}

type spotRiskRow struct {
	Region catalog.Region
	Offer  *offerView // the region's cheapest spot offer; nil: none in the catalog
	Status string     // catalog.InterruptionStatus; "" without an offer
	Band   catalog.InterruptionBand
	// Savings and Observed are the advisor's saving and fetch day (band only).
	Savings  int
	Observed string
	History  []catalog.InterruptionBand // per Dates; "" where the copy has no row
}

// spotRiskOf builds the view from the type's offers and the band history.
func (m *siteModel) spotRiskOf(t catalog.InstanceType, offers []*offerView) spotRiskView {
	var v spotRiskView
	byRegion := map[string]*spotRiskRow{}
	for _, o := range offers {
		if o.Offer.Billing != catalog.Spot {
			continue
		}
		r := byRegion[o.Offer.Region]
		if r == nil {
			r = &spotRiskRow{Region: o.Region, Offer: o}
			if r.Region.ID == "" {
				r.Region = m.region(o.Offer.Provider, o.Offer.Region)
			}
			byRegion[o.Offer.Region] = r
		} else if o.USDHour != nil && (r.Offer.USDHour == nil || o.USDHour.LessThan(*r.Offer.USDHour)) {
			r.Offer = o
		}
	}
	var series map[string][]catalog.BandObservation
	if m.bands != nil {
		series = m.bands.Of(t.Provider, t.ID)
	}
	// A region the advisor copies name but the catalog has no spot offer in
	// (a retired type such as p3.16xlarge) still shows how its band moved.
	for region := range series {
		if byRegion[region] == nil {
			byRegion[region] = &spotRiskRow{Region: m.region(t.Provider, region)}
		}
	}
	if len(byRegion) == 0 {
		return v
	}
	if len(series) > 0 {
		for _, d := range m.bands.Dates {
			v.Dates = append(v.Dates, d.Format("2006-01-02"))
		}
	}
	for id, r := range byRegion {
		if r.Offer != nil {
			o := &r.Offer.Offer
			r.Status = catalog.InterruptionStatus(o)
			if in := o.Interruption; in != nil {
				r.Band, r.Savings, r.Observed = in.Band, in.SavingsPct, in.ObservedAt.UTC().Format("2006-01-02")
			}
		}
		if len(v.Dates) > 0 {
			obs := series[id]
			var prev catalog.InterruptionBand
			for i, d := range m.bands.Dates {
				var b catalog.InterruptionBand
				for _, x := range obs {
					if x.ObservedAt.Equal(d) {
						b = x.Band
					}
				}
				if i > 0 && b != "" && prev != "" && b != prev {
					v.Moved = true
				}
				if b != "" {
					prev = b
				}
				r.History = append(r.History, b)
			}
		}
		v.Rows = append(v.Rows, *r)
	}
	sort.Slice(v.Rows, func(i, j int) bool { return v.Rows[i].Region.ID < v.Rows[j].Region.ID })
	return v
}
