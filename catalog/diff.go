package catalog

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// DiffReport is what changed between two snapshots, per provider and in total.
// Build it with Diff; render it with Text, Markdown or JSON.
type DiffReport struct {
	OldTakenAt, NewTakenAt time.Time
	// Providers lists the providers with at least one change, in display order.
	Providers []ProviderDiff
	Total     DiffCounts
}

// DiffCounts counts the changes of one provider or of all.
type DiffCounts struct {
	InstanceTypesAdded   int `json:"instance_types_added"`
	InstanceTypesRemoved int `json:"instance_types_removed"`
	RegionsAdded         int `json:"regions_added"`
	RegionsRemoved       int `json:"regions_removed"`
	OffersAdded          int `json:"offers_added"`
	OffersRemoved        int `json:"offers_removed"`
	PriceChanges         int `json:"price_changes"`
	PriceIncreases       int `json:"price_increases"`
	PriceDecreases       int `json:"price_decreases"`
	AvailabilityChanges  int `json:"availability_changes"`
	// InterruptionChanges counts spot offers whose interruption band changed
	// (AWS Spot Instance Advisor), a band appearing or going included.
	InterruptionChanges int `json:"interruption_changes"`
}

// Changes is the number of changes counted (a price change counts once).
func (c DiffCounts) Changes() int {
	return c.InstanceTypesAdded + c.InstanceTypesRemoved + c.RegionsAdded + c.RegionsRemoved +
		c.OffersAdded + c.OffersRemoved + c.PriceChanges + c.AvailabilityChanges + c.InterruptionChanges
}

func (c *DiffCounts) add(d DiffCounts) {
	c.InstanceTypesAdded += d.InstanceTypesAdded
	c.InstanceTypesRemoved += d.InstanceTypesRemoved
	c.RegionsAdded += d.RegionsAdded
	c.RegionsRemoved += d.RegionsRemoved
	c.OffersAdded += d.OffersAdded
	c.OffersRemoved += d.OffersRemoved
	c.PriceChanges += d.PriceChanges
	c.PriceIncreases += d.PriceIncreases
	c.PriceDecreases += d.PriceDecreases
	c.AvailabilityChanges += d.AvailabilityChanges
	c.InterruptionChanges += d.InterruptionChanges
}

// ProviderDiff is what changed for one provider. Every list is sorted by key.
type ProviderDiff struct {
	Provider             Provider
	Counts               DiffCounts
	InstanceTypesAdded   []InstanceType
	InstanceTypesRemoved []InstanceType
	RegionsAdded         []Region
	RegionsRemoved       []Region
	OffersAdded          []Offer
	OffersRemoved        []Offer
	PriceChanges         []PriceChange
	AvailabilityChanges  []AvailabilityChange
	InterruptionChanges  []InterruptionChange
}

// InterruptionChange is a spot offer whose interruption band changed; "" is
// no band (the advisor had no row, or the offer had no advisor data yet).
type InterruptionChange struct {
	Offer    Offer // as in the new snapshot
	Old, New InterruptionBand
}

// bandOf is an offer's interruption band, "" without one.
func bandOf(o *Offer) InterruptionBand {
	if o.Interruption == nil {
		return ""
	}
	return o.Interruption.Band
}

// PriceChange is an offer whose payable price changed (amount, currency, unit or
// upfront payment; a change of the list price alone is not one).
type PriceChange struct {
	Offer    Offer // as in the new snapshot
	Old, New Price
	// Percent is the change of the cost of use (PriceChangePercent), rounded to
	// two places; nil when the two prices cannot be compared (another currency,
	// or a price of zero before).
	Percent *decimal.Decimal
}

// AvailabilityChange is an offer whose availability changed.
type AvailabilityChange struct {
	Offer    Offer // as in the new snapshot
	Old, New Availability
}

// Empty reports whether the two snapshots have the same catalog.
func (r DiffReport) Empty() bool { return len(r.Providers) == 0 }

// Diff compares two snapshots: instance types, regions and offers added and
// removed, and the offers present in both whose price or availability changed.
// Either may be nil (an empty catalog).
func Diff(old, new *Snapshot) DiffReport {
	if old == nil {
		old = &Snapshot{}
	}
	if new == nil {
		new = &Snapshot{}
	}
	r := DiffReport{OldTakenAt: old.TakenAt, NewTakenAt: new.TakenAt}
	by := map[Provider]*ProviderDiff{}
	get := func(p Provider) *ProviderDiff {
		if by[p] == nil {
			by[p] = &ProviderDiff{Provider: p}
		}
		return by[p]
	}

	addedAndRemoved(old.Instances, new.Instances, InstanceType.Key,
		func(t InstanceType) {
			get(t.Provider).InstanceTypesAdded = append(get(t.Provider).InstanceTypesAdded, t)
		},
		func(t InstanceType) {
			get(t.Provider).InstanceTypesRemoved = append(get(t.Provider).InstanceTypesRemoved, t)
		})
	addedAndRemoved(old.Regions, new.Regions, Region.Key,
		func(g Region) { get(g.Provider).RegionsAdded = append(get(g.Provider).RegionsAdded, g) },
		func(g Region) { get(g.Provider).RegionsRemoved = append(get(g.Provider).RegionsRemoved, g) })

	added := func(n *Offer) { get(n.Provider).OffersAdded = append(get(n.Provider).OffersAdded, *n) }
	removed := func(o *Offer) { get(o.Provider).OffersRemoved = append(get(o.Provider).OffersRemoved, *o) }
	compare := func(o, n *Offer) {
		// What a price includes is part of its identity: an instance-only price
		// is never compared with one that includes a disk. A change of basis is
		// the old offer gone and a new one come, not a price change.
		if o.Includes != n.Includes {
			removed(o)
			added(n)
			return
		}
		if !samePayable(o.Price, n.Price) {
			pc := PriceChange{Offer: *n, Old: o.Price, New: n.Price}
			if o.Price.Currency == n.Price.Currency {
				if pct, ok := PriceChangePercent(o.Price, n.Price, n.Billing); ok {
					pc.Percent = &pct
				}
			}
			get(n.Provider).PriceChanges = append(get(n.Provider).PriceChanges, pc)
		}
		if o.Availability != n.Availability {
			get(n.Provider).AvailabilityChanges = append(get(n.Provider).AvailabilityChanges, AvailabilityChange{Offer: *n, Old: o.Availability, New: n.Availability})
		}
		if ob, nb := bandOf(o), bandOf(n); ob != nb {
			get(n.Provider).InterruptionChanges = append(get(n.Provider).InterruptionChanges, InterruptionChange{Offer: *n, Old: ob, New: nb})
		}
	}
	if offersKeyedInOrder(old.Offers) && offersKeyedInOrder(new.Offers) {
		// Both in canonical order, where an offer's place tells its key: walk
		// them side by side instead of keeping a map of 100,000 keys. The lists
		// are sorted by key below, so the order of finding does not show.
		i, j := 0, 0
		for i < len(old.Offers) || j < len(new.Offers) {
			order := 1 // of old.Offers[i] against new.Offers[j]
			switch {
			case i == len(old.Offers):
			case j == len(new.Offers):
				order = -1
			default:
				order = compareOffers(&old.Offers[i], &new.Offers[j])
			}
			switch {
			case order < 0:
				removed(&old.Offers[i])
				i++
			case order > 0:
				added(&new.Offers[j])
				j++
			default:
				compare(&old.Offers[i], &new.Offers[j])
				i++
				j++
			}
		}
	} else {
		oldOffers := make(map[string]int, len(old.Offers))
		for i, o := range old.Offers {
			oldOffers[o.Key()] = i
		}
		newOffers := make(map[string]bool, len(new.Offers))
		for j := range new.Offers {
			n := &new.Offers[j]
			key := n.Key()
			newOffers[key] = true
			if i, ok := oldOffers[key]; ok {
				compare(&old.Offers[i], n)
			} else {
				added(n)
			}
		}
		for i := range old.Offers {
			if !newOffers[old.Offers[i].Key()] {
				removed(&old.Offers[i])
			}
		}
	}

	for _, p := range providerOrder(by) {
		d := by[p]
		d.sort()
		d.Counts = DiffCounts{
			InstanceTypesAdded: len(d.InstanceTypesAdded), InstanceTypesRemoved: len(d.InstanceTypesRemoved),
			RegionsAdded: len(d.RegionsAdded), RegionsRemoved: len(d.RegionsRemoved),
			OffersAdded: len(d.OffersAdded), OffersRemoved: len(d.OffersRemoved),
			PriceChanges: len(d.PriceChanges), AvailabilityChanges: len(d.AvailabilityChanges),
			InterruptionChanges: len(d.InterruptionChanges),
		}
		for _, c := range d.PriceChanges {
			switch {
			case c.Percent == nil:
			case c.Percent.IsPositive():
				d.Counts.PriceIncreases++
			case c.Percent.IsNegative():
				d.Counts.PriceDecreases++
			}
		}
		r.Total.add(d.Counts)
		r.Providers = append(r.Providers, *d)
	}
	return r
}

// addedAndRemoved calls added for each item of new whose key old lacks, in new's
// order, then removed for each item of old whose key new lacks, in old's order.
func addedAndRemoved[T any](old, new []T, key func(T) string, added, removed func(T)) {
	oldKeys := make(map[string]bool, len(old))
	for _, x := range old {
		oldKeys[key(x)] = true
	}
	newKeys := make(map[string]bool, len(new))
	for _, x := range new {
		newKeys[key(x)] = true
		if !oldKeys[key(x)] {
			added(x)
		}
	}
	for _, x := range old {
		if !newKeys[key(x)] {
			removed(x)
		}
	}
}

// sort puts each list in key order.
func (d *ProviderDiff) sort() {
	sortByKey(d.InstanceTypesAdded, InstanceType.Key)
	sortByKey(d.InstanceTypesRemoved, InstanceType.Key)
	sortByKey(d.RegionsAdded, Region.Key)
	sortByKey(d.RegionsRemoved, Region.Key)
	sortByKey(d.OffersAdded, Offer.Key)
	sortByKey(d.OffersRemoved, Offer.Key)
	sortByKey(d.PriceChanges, func(c PriceChange) string { return c.Offer.Key() })
	sortByKey(d.AvailabilityChanges, func(c AvailabilityChange) string { return c.Offer.Key() })
	sortByKey(d.InterruptionChanges, func(c InterruptionChange) string { return c.Offer.Key() })
}

// sortByKey sorts list by each item's key.
func sortByKey[T any](list []T, key func(T) string) {
	sort.Sort(diffKeySorter{n: len(list), key: func(i int) string { return key(list[i]) }, swap: func(i, j int) {
		list[i], list[j] = list[j], list[i]
	}})
}

type diffKeySorter struct {
	n    int
	key  func(int) string
	swap func(i, j int)
}

func (s diffKeySorter) Len() int           { return s.n }
func (s diffKeySorter) Less(i, j int) bool { return s.key(i) < s.key(j) }
func (s diffKeySorter) Swap(i, j int)      { s.swap(i, j) }

// samePayable reports whether two prices ask the same payment: amount, currency,
// unit and upfront (the list price is not compared).
func samePayable(a, b Price) bool {
	return a.Amount.Equal(b.Amount) && a.Currency == b.Currency && a.Unit == b.Unit && priceDecEqual(upfrontOf(a), upfrontOf(b))
}

func upfrontOf(p Price) *decimal.Decimal {
	if p.Upfront == nil || p.Upfront.IsZero() {
		return nil
	}
	return p.Upfront
}

// costHorizonHours is the period prices are compared over: three years, the
// longest commitment term. Every unit (hour, month of 730 hours, year of 8,760)
// and every term divides it, so the cost over it is exact.
var costHorizonHours = decimal.NewFromInt(3 * 8760)

// horizonCost is what the price costs over costHorizonHours of use: the
// recurring amount for each unit in the period plus the upfront payment once per
// term. ok is false for an unknown unit, or an upfront payment without a term.
func horizonCost(p Price, termHours decimal.Decimal) (decimal.Decimal, bool) {
	perPeriod := func(hours decimal.Decimal) (decimal.Decimal, bool) {
		if !hours.IsPositive() {
			return decimal.Zero, false
		}
		n := costHorizonHours.Div(hours)
		return n, n.Equal(n.Truncate(0))
	}
	var unitHours decimal.Decimal
	switch p.Unit {
	case PerHour:
		unitHours = decimal.NewFromInt(1)
	case PerMonth:
		unitHours = HoursPerMonth
	case PerYear:
		unitHours = HoursPerYear
	case Upfront:
		unitHours = termHours // a one-time amount, paid once per term
	default:
		return decimal.Zero, false
	}
	n, ok := perPeriod(unitHours)
	if !ok {
		return decimal.Zero, false
	}
	cost := p.Amount.Mul(n)
	if u := upfrontOf(p); u != nil {
		m, ok := perPeriod(termHours)
		if !ok {
			return decimal.Zero, false
		}
		cost = cost.Add(u.Mul(m))
	}
	return cost, true
}

// PriceChangePercent is how much the cost of use changed from old to new, in
// percent rounded half away from zero to two places: (new − old) / old × 100,
// where each price's cost counts its recurring amount and its upfront payment over
// the same three years of use (termless prices have no upfront). It is exact:
// no float64, no intermediate rounding. ok is false when the prices cannot be
// compared: another currency, an unknown unit, or an old cost of zero.
func PriceChangePercent(old, new Price, billing BillingKind) (decimal.Decimal, bool) {
	if old.Currency != new.Currency {
		return decimal.Zero, false
	}
	term := billing.TermHours()
	oc, ok1 := horizonCost(old, term)
	nc, ok2 := horizonCost(new, term)
	if !ok1 || !ok2 || oc.IsZero() {
		return decimal.Zero, false
	}
	return nc.Sub(oc).Mul(decimal.NewFromInt(100)).DivRound(oc, 2), true
}

// RowsLost counts the offers, instance types and placements of base that got
// lacks (by key): what a crawl under faults lost against a fault-free one.
func RowsLost(base, got *Snapshot) int {
	have := map[string]bool{}
	for _, o := range got.Offers {
		have["o "+o.Key()] = true
	}
	for _, it := range got.Instances {
		have["i "+it.Key()] = true
	}
	for _, pl := range got.Placements {
		have["p "+pl.Key()] = true
	}
	lost := 0
	for _, o := range base.Offers {
		if !have["o "+o.Key()] {
			lost++
		}
	}
	for _, it := range base.Instances {
		if !have["i "+it.Key()] {
			lost++
		}
	}
	for _, pl := range base.Placements {
		if !have["p "+pl.Key()] {
			lost++
		}
	}
	return lost
}
