package compare

import (
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Derived offer facts: the one place a price per GPU-hour, per GPU-memory
// GB-hour (by the datasheet class), a saving against on-demand, an offer's cost per unit of work, its
// spot band and its risk-adjusted spot price are computed (OfferFactsOf for
// one offer, NewOfferFactTable for a catalog). Outputs (find, the scenario
// rankings, the pages, the API, the exports, the explorer's data) read these
// rather than dividing for themselves; the explorer's script only converts
// the figures it is given into the reader's currency.

// perUnitPlaces is how many decimal places a per-unit hourly price keeps.
const perUnitPlaces = 8

// SavingPlaces is how many decimal places a saving against on-demand keeps in
// the fact table; every output rounds this figure (to whole percent on the
// pages), so the pages, find and the script agree.
const SavingPlaces = 2

// PerUnitHourly is an hourly price divided by units (GPUs, whole-device
// equivalents, or GiB of GPU memory), rounded to 8 places; ok is false when
// units is not positive (no GPUs, memory unknown). The currency is the price's.
func PerUnitHourly(hourly, units decimal.Decimal) (decimal.Decimal, bool) {
	if !units.IsPositive() {
		return decimal.Decimal{}, false
	}
	return hourly.DivRound(units, perUnitPlaces), true
}

// SavingPercent is how much cheaper price is than the on-demand reference od,
// in percent (negative when dearer), unrounded to 16 places; ok is false when
// the reference is not positive. Both figures must be in one currency.
func SavingPercent(price, od decimal.Decimal) (decimal.Decimal, bool) {
	if !od.IsPositive() {
		return decimal.Decimal{}, false
	}
	return decimal.NewFromInt(1).Sub(price.Div(od)).Mul(decimal.NewFromInt(100)), true
}

// OfferFacts are one offer's derived figures. Amounts without USD in their
// name are in the offer's own currency (Currency); the USD ones are the same
// through the catalog's FX table. A nil figure cannot be computed (no FX
// rate, no GPU or GPU memory to divide by, no reference).
type OfferFacts struct {
	Key      string
	Currency catalog.Currency
	// Hourly is the effective hourly price (upfront spread over the term).
	Hourly, USDHour *decimal.Decimal
	// GPUHour is Hourly per whole-device GPU (InstanceType.GPUUnits), GiBHour
	// per GiB of GPU memory (InstanceType.RuleGPUMemoryGiB), to 8 places.
	GPUHour, GiBHour, USDGPUHour, USDGiBHour *decimal.Decimal
	// SavingPct is how much less the offer costs than OnDemandKey, the
	// cheapest plausible on-demand offer of its type in its region (by USD
	// worth, a price that leads first, the first in the catalog among
	// equals), in percent to 2 places (negative: dearer); nil for on-demand
	// offers and where the type has no such offer in the region.
	SavingPct   *decimal.Decimal
	OnDemandKey string
	// SpotStatus is a spot offer's interruption status (catalog's
	// InterruptionStatus: band, no_data, not_published; "" for other billing)
	// and SpotBand its advisor band where published.
	SpotStatus string
	SpotBand   catalog.InterruptionBand
	// SpotRisk is a spot offer's price with its interruption risk (the
	// scenario rankings' SpotRiskPrice; nil without a USD figure), RiskHour
	// its risk-adjusted hourly price in Currency (nil without a band).
	SpotRisk *SpotRiskPrice
	RiskHour *decimal.Decimal
	// Work is the offer's cost per unit of work, one per workload, where
	// benchmark results give one (CostPerWork; NewOfferFactTable's costs).
	Work []WorkCost
}

// OfferFactsOf is the one computation of an offer's own facts (all but the
// saving, which needs the offer's on-demand reference, and the work costs,
// which need benchmark results: NewOfferFactTable adds both).
func OfferFactsOf(o catalog.Offer, t catalog.InstanceType, fx catalog.FXTable) OfferFacts {
	f := OfferFacts{Key: o.Key(), Currency: o.Price.Currency}
	units, gib := t.GPUUnits(), t.RuleGPUMemoryGiB()
	per := func(h *decimal.Decimal, u decimal.Decimal) *decimal.Decimal {
		if h == nil {
			return nil
		}
		if v, ok := PerUnitHourly(*h, u); ok {
			return &v
		}
		return nil
	}
	if h, err := o.Price.Hourly(o.Billing.TermHours()); err == nil {
		f.Hourly = &h
		if u, err := fx.Convert(h, o.Price.Currency, catalog.USD); err == nil {
			f.USDHour = &u
		}
	}
	f.GPUHour, f.GiBHour = per(f.Hourly, units), per(f.Hourly, gib)
	f.USDGPUHour, f.USDGiBHour = per(f.USDHour, units), per(f.USDHour, gib)
	if o.Billing == catalog.Spot {
		f.SpotStatus = catalog.InterruptionStatus(&o)
		if in := o.Interruption; in != nil {
			f.SpotBand = in.Band
		}
		if f.USDHour != nil {
			f.SpotRisk = spotRiskPrice(o, *f.USDHour)
			if f.Hourly != nil {
				f.RiskHour = f.SpotRisk.Adjusted(*f.Hourly)
			}
		}
	}
	return f
}

// OfferFactTable is every offer's facts, in the snapshot's order.
type OfferFactTable struct {
	Facts []OfferFacts
	index map[string]int
}

// NewOfferFactTable computes the facts of every offer of snap (an offer of a
// type the snapshot lacks gets its price facts only); costs (CostPerWork's,
// nil without benchmarks) give the offers their work costs.
func NewOfferFactTable(snap *catalog.Snapshot, costs []WorkCost) *OfferFactTable {
	tb := &OfferFactTable{Facts: make([]OfferFacts, 0, len(snap.Offers)), index: make(map[string]int, len(snap.Offers))}
	types := make(map[string]catalog.InstanceType, len(snap.Instances))
	for _, t := range snap.Instances {
		types[t.Key()] = t
	}
	ref := map[string]int{} // type/region: its on-demand reference
	for i, o := range snap.Offers {
		f := OfferFactsOf(o, types[o.InstanceKey()], snap.FX)
		tb.index[f.Key] = i
		tb.Facts = append(tb.Facts, f)
		if o.Billing != catalog.OnDemand || !o.Plausible() || f.USDHour == nil {
			continue
		}
		g := o.InstanceKey() + "/" + o.Region
		if j, ok := ref[g]; !ok || referenceBefore(o, f, snap.Offers[j], tb.Facts[j]) {
			ref[g] = i
		}
	}
	for i, o := range snap.Offers {
		f := &tb.Facts[i]
		j, ok := ref[o.InstanceKey()+"/"+o.Region]
		if o.Billing == catalog.OnDemand || !ok || f.USDHour == nil {
			continue
		}
		if s, ok := SavingPercent(*f.USDHour, *tb.Facts[j].USDHour); ok {
			s = s.Round(SavingPlaces)
			f.SavingPct, f.OnDemandKey = &s, tb.Facts[j].Key
		}
	}
	tb.AddWork(costs)
	return tb
}

// AddWork gives the offers their costs per unit of work (CostPerWork's, or a
// selection of them), in the order given; a cost of an offer the table lacks
// is left out.
func (tb *OfferFactTable) AddWork(costs []WorkCost) {
	for _, c := range costs {
		if i, ok := tb.index[c.OfferKey]; ok {
			tb.Facts[i].Work = append(tb.Facts[i].Work, c)
		}
	}
}

// referenceBefore says whether on-demand offer a is a better saving reference
// than b: a price that leads before one that does not, then the lower USD worth.
func referenceBefore(a catalog.Offer, fa OfferFacts, b catalog.Offer, fb OfferFacts) bool {
	if leads(a) != leads(b) {
		return leads(a)
	}
	return fa.USDHour.LessThan(*fb.USDHour)
}

// Of is the facts of the offer with key k.
func (tb *OfferFactTable) Of(k string) (OfferFacts, bool) {
	i, ok := tb.index[k]
	if !ok {
		return OfferFacts{}, false
	}
	return tb.Facts[i], true
}

// In is an amount of these facts (in f.Currency, or the matching USD figure
// usd) in currency cur: the amount itself in its own currency ("native" too),
// the USD figure in USD, else converted through fx; nil when it cannot be.
func (f OfferFacts) In(fx catalog.FXTable, amount, usd *decimal.Decimal, cur string) *decimal.Decimal {
	switch {
	case amount == nil:
		return nil
	case cur == "native" || cur == string(f.Currency):
		return amount
	case cur == string(catalog.USD):
		return usd
	}
	v, err := fx.Convert(*amount, f.Currency, catalog.Currency(cur))
	if err != nil {
		return nil
	}
	return &v
}
