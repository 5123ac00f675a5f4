package sitegen

import (
	"sort"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The price summaries of the instance and GPU pages: the cheapest price of each
// billing group (on-demand, spot, reserved, subscription) and an instance
// type's prices as a region × billing kind matrix. Only a plausible price with
// a USD figure is ever a "cheapest" answer (a suspect one is shown only where
// every offer is listed, marked).

// priceGroup is a column of the summaries: a billing kind, or the reserved or
// subscription kinds together (any term, any upfront option, compared by the
// effective hourly price).
type priceGroup string

// The groups, in display order.
const (
	groupOnDemand     priceGroup = "on_demand"
	groupSpot         priceGroup = "spot"
	groupReserved     priceGroup = "reserved"
	groupSubscription priceGroup = "subscription"
)

var priceGroups = []priceGroup{groupOnDemand, groupSpot, groupReserved, groupSubscription}

// groupOf is the summary column of a billing kind.
func groupOf(b catalog.BillingKind) priceGroup {
	switch b {
	case catalog.OnDemand:
		return groupOnDemand
	case catalog.Spot:
		return groupSpot
	case catalog.SubscriptionMonth, catalog.SubscriptionYear:
		return groupSubscription
	}
	return groupReserved
}

// groupPrice is one summary cell: the group and its cheapest plausible offer
// (nil when there is none).
type groupPrice struct {
	Group priceGroup
	Offer *offerView
}

// leads reports whether an offer may be a "cheapest" answer: a plausible price
// with a USD figure.
func leads(o *offerView) bool { return o.Offer.Leads() && o.USDHour != nil }

// cheapestByGroup is the cheapest plausible offer of each group, by effective
// USD per hour, the first in the given order among equals.
func cheapestByGroup(offers []*offerView) []groupPrice {
	out := make([]groupPrice, len(priceGroups))
	idx := map[priceGroup]int{}
	for i, g := range priceGroups {
		out[i].Group = g
		idx[g] = i
	}
	for _, o := range offers {
		if !leads(o) {
			continue
		}
		c := &out[idx[groupOf(o.Offer.Billing)]]
		if c.Offer == nil || o.USDHour.LessThan(*c.Offer.USDHour) {
			c.Offer = o
		}
	}
	return out
}

// priceMatrix is an instance type's prices as a region × billing kind table:
// a row per region, a column per billing kind the type is sold by, each cell
// the region's cheapest offer of that kind (zones folded in: Zones counts the
// zones with a price of their own).
type priceMatrix struct {
	Billing []catalog.BillingKind
	Rows    []priceMatrixRow
}

type priceMatrixRow struct {
	Region catalog.Region
	Cells  []matrixCell
}

type matrixCell struct {
	Billing catalog.BillingKind
	// Offer is the cheapest plausible offer of the region and kind, else its
	// cheapest suspect one (shown marked); nil when the region has none.
	Offer *offerView
	Zones int // offers of the kind priced per zone in the region
}

// newPriceMatrix lays out an instance type's offers by region and billing kind.
// Rows come cheapest on-demand first (regions without an on-demand price after,
// by their cheapest price), then by region id.
func newPriceMatrix(offers []*offerView) priceMatrix {
	var m priceMatrix
	kinds := map[catalog.BillingKind]bool{}
	for _, o := range offers {
		kinds[o.Offer.Billing] = true
	}
	for _, b := range catalog.BillingKinds {
		if kinds[b] {
			m.Billing = append(m.Billing, b)
			delete(kinds, b)
		}
	}
	var extra []string // a kind a provider adds tomorrow still gets its column
	for b := range kinds {
		extra = append(extra, string(b))
	}
	sort.Strings(extra)
	for _, b := range extra {
		m.Billing = append(m.Billing, catalog.BillingKind(b))
	}
	col := map[catalog.BillingKind]int{}
	for i, b := range m.Billing {
		col[b] = i
	}
	rows := map[string]*priceMatrixRow{}
	var order []string
	for _, o := range offers {
		r := rows[o.Offer.Region]
		if r == nil {
			r = &priceMatrixRow{Region: o.Region, Cells: make([]matrixCell, len(m.Billing))}
			for i, b := range m.Billing {
				r.Cells[i].Billing = b
			}
			rows[o.Offer.Region] = r
			order = append(order, o.Offer.Region)
		}
		c := &r.Cells[col[o.Offer.Billing]]
		if o.Offer.Zone != "" {
			c.Zones++
		}
		if c.Offer == nil || better(o, c.Offer) {
			c.Offer = o
		}
	}
	for _, id := range order {
		m.Rows = append(m.Rows, *rows[id])
	}
	first := func(r priceMatrixRow) *offerView {
		var best *offerView
		for _, c := range r.Cells {
			if c.Offer != nil && leads(c.Offer) && (best == nil || c.Offer.USDHour.LessThan(*best.USDHour)) {
				best = c.Offer
			}
		}
		return best
	}
	sort.SliceStable(m.Rows, func(i, j int) bool {
		a, b := m.Rows[i], m.Rows[j]
		var pa, pb *offerView
		if len(m.Billing) > 0 && m.Billing[0] == catalog.OnDemand {
			pa, pb = a.Cells[0].Offer, b.Cells[0].Offer
			if pa != nil && !leads(pa) {
				pa = nil
			}
			if pb != nil && !leads(pb) {
				pb = nil
			}
		}
		if pa == nil && pb == nil {
			pa, pb = first(a), first(b)
		}
		switch {
		case pa != nil && pb != nil && !pa.USDHour.Equal(*pb.USDHour):
			return pa.USDHour.LessThan(*pb.USDHour)
		case (pa == nil) != (pb == nil):
			return pa != nil
		}
		return a.Region.ID < b.Region.ID
	})
	return m
}

// better reports whether offer a should stand for a matrix cell rather than b:
// a plausible price before a suspect one, then the cheaper USD figure, then
// a figure before none.
func better(a, b *offerView) bool {
	if a.Offer.Leads() != b.Offer.Leads() {
		return a.Offer.Leads()
	}
	return cheaper(a.USDHour, b.USDHour)
}

// zoneGroup is a region of an instance page's zones table: the zones the type
// can be launched in there, with the count of each stock status.
type zoneGroup struct {
	Region catalog.Region
	Zones  []placementView
	Counts []statusCount
}

type statusCount struct {
	Status catalog.Availability
	N      int
}

// groupZones folds placements into one row per region, in their order.
func groupZones(ps []placementView) []zoneGroup {
	var out []zoneGroup
	idx := map[string]int{}
	for _, p := range ps {
		i, ok := idx[p.P.Region]
		if !ok {
			i = len(out)
			idx[p.P.Region] = i
			out = append(out, zoneGroup{Region: p.Region})
		}
		g := &out[i]
		g.Zones = append(g.Zones, p)
		found := false
		for j := range g.Counts {
			if g.Counts[j].Status == p.P.Status {
				g.Counts[j].N++
				found = true
			}
		}
		if !found {
			g.Counts = append(g.Counts, statusCount{Status: p.P.Status, N: 1})
		}
	}
	return out
}
