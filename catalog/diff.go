package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// DiffSchemaVersion is the version of the JSON diff format (DiffReport.JSON). It
// changes only when a field is removed or changes meaning; new fields may be added
// within a version.
const DiffSchemaVersion = 1

// DefaultMarkdownRows is how many rows each list of the Markdown diff shows before
// it ends with "… and N more": enough to review by eye, small enough that a diff of
// a big price change still fits a pull request body (65,536 characters).
const DefaultMarkdownRows = 20

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
}

// Changes is the number of changes counted (a price change counts once).
func (c DiffCounts) Changes() int {
	return c.InstanceTypesAdded + c.InstanceTypesRemoved + c.RegionsAdded + c.RegionsRemoved +
		c.OffersAdded + c.OffersRemoved + c.PriceChanges + c.AvailabilityChanges
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

	oldTypes := map[string]InstanceType{}
	for _, t := range old.Instances {
		oldTypes[t.Key()] = t
	}
	newTypes := map[string]InstanceType{}
	for _, t := range new.Instances {
		newTypes[t.Key()] = t
		if _, ok := oldTypes[t.Key()]; !ok {
			get(t.Provider).InstanceTypesAdded = append(get(t.Provider).InstanceTypesAdded, t)
		}
	}
	for _, t := range old.Instances {
		if _, ok := newTypes[t.Key()]; !ok {
			get(t.Provider).InstanceTypesRemoved = append(get(t.Provider).InstanceTypesRemoved, t)
		}
	}

	oldRegions := map[string]bool{}
	for _, g := range old.Regions {
		oldRegions[g.Key()] = true
	}
	newRegions := map[string]bool{}
	for _, g := range new.Regions {
		newRegions[g.Key()] = true
		if !oldRegions[g.Key()] {
			get(g.Provider).RegionsAdded = append(get(g.Provider).RegionsAdded, g)
		}
	}
	for _, g := range old.Regions {
		if !newRegions[g.Key()] {
			get(g.Provider).RegionsRemoved = append(get(g.Provider).RegionsRemoved, g)
		}
	}

	added := func(n *Offer) { get(n.Provider).OffersAdded = append(get(n.Provider).OffersAdded, *n) }
	removed := func(o *Offer) { get(o.Provider).OffersRemoved = append(get(o.Provider).OffersRemoved, *o) }
	compare := func(o, n *Offer) {
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

func (d *ProviderDiff) sort() {
	byKey := func(n int, key func(int) string, swap func(i, j int)) {
		sort.Sort(diffKeySorter{n: n, key: key, swap: swap})
	}
	byKey(len(d.InstanceTypesAdded), func(i int) string { return d.InstanceTypesAdded[i].Key() }, func(i, j int) {
		d.InstanceTypesAdded[i], d.InstanceTypesAdded[j] = d.InstanceTypesAdded[j], d.InstanceTypesAdded[i]
	})
	byKey(len(d.InstanceTypesRemoved), func(i int) string { return d.InstanceTypesRemoved[i].Key() }, func(i, j int) {
		d.InstanceTypesRemoved[i], d.InstanceTypesRemoved[j] = d.InstanceTypesRemoved[j], d.InstanceTypesRemoved[i]
	})
	byKey(len(d.RegionsAdded), func(i int) string { return d.RegionsAdded[i].Key() }, func(i, j int) {
		d.RegionsAdded[i], d.RegionsAdded[j] = d.RegionsAdded[j], d.RegionsAdded[i]
	})
	byKey(len(d.RegionsRemoved), func(i int) string { return d.RegionsRemoved[i].Key() }, func(i, j int) {
		d.RegionsRemoved[i], d.RegionsRemoved[j] = d.RegionsRemoved[j], d.RegionsRemoved[i]
	})
	byKey(len(d.OffersAdded), func(i int) string { return d.OffersAdded[i].Key() }, func(i, j int) {
		d.OffersAdded[i], d.OffersAdded[j] = d.OffersAdded[j], d.OffersAdded[i]
	})
	byKey(len(d.OffersRemoved), func(i int) string { return d.OffersRemoved[i].Key() }, func(i, j int) {
		d.OffersRemoved[i], d.OffersRemoved[j] = d.OffersRemoved[j], d.OffersRemoved[i]
	})
	byKey(len(d.PriceChanges), func(i int) string { return d.PriceChanges[i].Offer.Key() }, func(i, j int) {
		d.PriceChanges[i], d.PriceChanges[j] = d.PriceChanges[j], d.PriceChanges[i]
	})
	byKey(len(d.AvailabilityChanges), func(i int) string { return d.AvailabilityChanges[i].Offer.Key() }, func(i, j int) {
		d.AvailabilityChanges[i], d.AvailabilityChanges[j] = d.AvailabilityChanges[j], d.AvailabilityChanges[i]
	})
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

// signedPercent formats a percentage with two places and a sign: +10.00, -5.25.
func signedPercent(p decimal.Decimal) string {
	s := p.StringFixed(2)
	if p.IsPositive() {
		s = "+" + s
	}
	return s
}

func formatDiffTime(t time.Time) string {
	if t.IsZero() {
		return "(no date)"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func diffPlural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summary is the counts as one line of prose, leaving out what did not change:
// "1 instance type added; 2 offers added, 1 removed; 1 price change (1 up)".
func (c DiffCounts) summary() string {
	var parts []string
	pair := func(added, removed int, one, many string) {
		switch {
		case added > 0 && removed > 0:
			parts = append(parts, fmt.Sprintf("%s added, %d removed", diffPlural(added, one, many), removed))
		case added > 0:
			parts = append(parts, diffPlural(added, one, many)+" added")
		case removed > 0:
			parts = append(parts, diffPlural(removed, one, many)+" removed")
		}
	}
	pair(c.InstanceTypesAdded, c.InstanceTypesRemoved, "instance type", "instance types")
	pair(c.RegionsAdded, c.RegionsRemoved, "region", "regions")
	pair(c.OffersAdded, c.OffersRemoved, "offer", "offers")
	if c.PriceChanges > 0 {
		s := diffPlural(c.PriceChanges, "price change", "price changes")
		var dir []string
		if c.PriceIncreases > 0 {
			dir = append(dir, fmt.Sprintf("%d up", c.PriceIncreases))
		}
		if c.PriceDecreases > 0 {
			dir = append(dir, fmt.Sprintf("%d down", c.PriceDecreases))
		}
		if len(dir) > 0 {
			s += " (" + strings.Join(dir, ", ") + ")"
		}
		parts = append(parts, s)
	}
	if c.AvailabilityChanges > 0 {
		parts = append(parts, diffPlural(c.AvailabilityChanges, "availability change", "availability changes"))
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, "; ")
}

// diffDescribeType is a short description of an instance type: family, vCPUs,
// memory and accelerators.
func diffDescribeType(t InstanceType) string {
	parts := []string{}
	if t.Family != "" {
		parts = append(parts, t.Family)
	}
	parts = append(parts, fmt.Sprintf("%d vCPU", t.VCPUs), t.MemoryGiB.String()+" GiB")
	for _, a := range t.Accelerators {
		name := a.Model
		if name == "" {
			name = a.Name
		}
		s := fmt.Sprintf("%d× %s", a.Count, name)
		if !a.Share.IsZero() && !a.Share.Equal(decimal.NewFromInt(1)) {
			s += " (" + a.Share.String() + " share)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func diffDescribePercent(c PriceChange) string {
	switch {
	case c.Percent != nil:
		return signedPercent(*c.Percent) + "%"
	case c.Old.Currency != c.New.Currency:
		return "currency changed"
	}
	return "n/a"
}

// Text renders the report as plain text: a total line, then per provider one
// line per change, marked + (added), - (removed) or ~ (changed). Nothing is left
// out.
func (r DiffReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Catalog diff: %s -> %s\n", formatDiffTime(r.OldTakenAt), formatDiffTime(r.NewTakenAt))
	if r.Empty() {
		b.WriteString("No changes.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Total: %s\n", r.Total.summary())
	for _, d := range r.Providers {
		fmt.Fprintf(&b, "\n%s: %s\n", d.Provider, d.Counts.summary())
		for _, t := range d.InstanceTypesAdded {
			fmt.Fprintf(&b, "  + instance type %s (%s)\n", t.ID, diffDescribeType(t))
		}
		for _, t := range d.InstanceTypesRemoved {
			fmt.Fprintf(&b, "  - instance type %s (%s)\n", t.ID, diffDescribeType(t))
		}
		for _, g := range d.RegionsAdded {
			fmt.Fprintf(&b, "  + region %s\n", diffRegionLabel(g))
		}
		for _, g := range d.RegionsRemoved {
			fmt.Fprintf(&b, "  - region %s\n", diffRegionLabel(g))
		}
		for _, o := range d.OffersAdded {
			fmt.Fprintf(&b, "  + offer %s: %s, %s\n", diffOfferLabel(o), o.Price, o.Availability)
		}
		for _, o := range d.OffersRemoved {
			fmt.Fprintf(&b, "  - offer %s: %s, %s\n", diffOfferLabel(o), o.Price, o.Availability)
		}
		for _, c := range d.PriceChanges {
			fmt.Fprintf(&b, "  ~ price %s: %s -> %s (%s)\n", diffOfferLabel(c.Offer), c.Old, c.New, diffDescribePercent(c))
		}
		for _, c := range d.AvailabilityChanges {
			fmt.Fprintf(&b, "  ~ availability %s: %s -> %s\n", diffOfferLabel(c.Offer), c.Old, c.New)
		}
	}
	return b.String()
}

// diffOfferLabel names an offer without its provider: type region[/zone] billing.
func diffOfferLabel(o Offer) string {
	where := o.Region
	if o.Zone != "" {
		where += "/" + o.Zone
	}
	return fmt.Sprintf("%s %s %s", o.InstanceType, where, o.Billing)
}

func diffRegionLabel(g Region) string {
	if g.NameEN != "" && g.NameEN != g.ID {
		return fmt.Sprintf("%s (%s)", g.ID, g.NameEN)
	}
	return g.ID
}

// Markdown renders the report for a pull request body or a GitHub job summary: a
// totals table, then a section per provider with a table per kind of change. Each
// list shows at most maxRows rows (DefaultMarkdownRows when maxRows ≤ 0) and then
// says how many more there are.
func (r DiffReport) Markdown(maxRows int) string {
	if maxRows <= 0 {
		maxRows = DefaultMarkdownRows
	}
	var b strings.Builder
	b.WriteString("## Catalog changes\n\n")
	fmt.Fprintf(&b, "From **%s** to **%s**.\n\n", formatDiffTime(r.OldTakenAt), formatDiffTime(r.NewTakenAt))
	if r.Empty() {
		b.WriteString("No changes.\n")
		return b.String()
	}
	b.WriteString("| provider | types added | types removed | regions added | regions removed | offers added | offers removed | price changes | up | down | availability changes |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	row := func(name string, c DiffCounts) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", name,
			c.InstanceTypesAdded, c.InstanceTypesRemoved, c.RegionsAdded, c.RegionsRemoved,
			c.OffersAdded, c.OffersRemoved, c.PriceChanges, c.PriceIncreases, c.PriceDecreases, c.AvailabilityChanges)
	}
	for _, d := range r.Providers {
		row(string(d.Provider), d.Counts)
	}
	row("**total**", r.Total)

	table := func(title string, n int, header string, line func(i int) string) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "\n#### %s (%d)\n\n%s\n", title, n, header)
		cols := strings.Count(header, "|") - 1
		b.WriteString("|" + strings.Repeat("---|", cols) + "\n")
		for i := 0; i < n && i < maxRows; i++ {
			b.WriteString(line(i) + "\n")
		}
		if n > maxRows {
			fmt.Fprintf(&b, "\n_… and %d more._\n", n-maxRows)
		}
	}
	typeHeader := "| instance type | family | vCPUs | memory GiB | accelerators |"
	typeRow := func(t InstanceType) string {
		var acc []string
		for _, a := range t.Accelerators {
			name := a.Model
			if name == "" {
				name = a.Name
			}
			acc = append(acc, fmt.Sprintf("%d× %s", a.Count, name))
		}
		return fmt.Sprintf("| %s | %s | %d | %s | %s |", diffMDCode(t.ID), diffMDCell(t.Family), t.VCPUs, t.MemoryGiB, diffMDCell(strings.Join(acc, ", ")))
	}
	regionHeader := "| region | name |"
	regionRow := func(g Region) string { return fmt.Sprintf("| %s | %s |", diffMDCode(g.ID), diffMDCell(g.NameEN)) }
	offerHeader := "| instance type | region | zone | billing | price | availability |"
	offerRow := func(o Offer) string {
		return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", diffMDCode(o.InstanceType), diffMDCode(o.Region), diffMDCell(o.Zone), o.Billing, diffMDCell(o.Price.String()), o.Availability)
	}
	for _, d := range r.Providers {
		fmt.Fprintf(&b, "\n### %s\n\n%s.\n", d.Provider, diffCapitalize(d.Counts.summary()))
		table("Instance types added", len(d.InstanceTypesAdded), typeHeader, func(i int) string { return typeRow(d.InstanceTypesAdded[i]) })
		table("Instance types removed", len(d.InstanceTypesRemoved), typeHeader, func(i int) string { return typeRow(d.InstanceTypesRemoved[i]) })
		table("Regions added", len(d.RegionsAdded), regionHeader, func(i int) string { return regionRow(d.RegionsAdded[i]) })
		table("Regions removed", len(d.RegionsRemoved), regionHeader, func(i int) string { return regionRow(d.RegionsRemoved[i]) })
		table("Offers added", len(d.OffersAdded), offerHeader, func(i int) string { return offerRow(d.OffersAdded[i]) })
		table("Offers removed", len(d.OffersRemoved), offerHeader, func(i int) string { return offerRow(d.OffersRemoved[i]) })
		table("Price changes", len(d.PriceChanges), "| instance type | region | zone | billing | old | new | change |", func(i int) string {
			c := d.PriceChanges[i]
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |", diffMDCode(c.Offer.InstanceType), diffMDCode(c.Offer.Region), diffMDCell(c.Offer.Zone), c.Offer.Billing,
				diffMDCell(c.Old.String()), diffMDCell(c.New.String()), diffDescribePercent(c))
		})
		table("Availability changes", len(d.AvailabilityChanges), "| instance type | region | zone | billing | old | new |", func(i int) string {
			c := d.AvailabilityChanges[i]
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", diffMDCode(c.Offer.InstanceType), diffMDCode(c.Offer.Region), diffMDCell(c.Offer.Zone), c.Offer.Billing, c.Old, c.New)
		})
	}
	return b.String()
}

func diffCapitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// diffMDCell escapes text for a GitHub table cell: a pipe would end the cell, and a
// newline the row.
func diffMDCell(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	for _, c := range []string{"*", "_", "`", "<", "["} {
		s = strings.ReplaceAll(s, c, "\\"+c)
	}
	return s
}

// diffMDCode puts an id in a code span, so that underscores and asterisks in it are
// shown as they are. Pipes are still escaped: GitHub splits table cells before it
// reads code spans.
func diffMDCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", "\\|")
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// diffJSON is the JSON diff format; DiffReport.JSON documents it.
type diffJSON struct {
	SchemaVersion int                `json:"schema_version"`
	Old           diffSideJSON       `json:"old"`
	New           diffSideJSON       `json:"new"`
	Changed       bool               `json:"changed"`
	Totals        DiffCounts         `json:"totals"`
	Providers     []providerDiffJSON `json:"providers"`
}

type diffSideJSON struct {
	TakenAt string `json:"taken_at"`
}

type providerDiffJSON struct {
	Provider             Provider              `json:"provider"`
	Totals               DiffCounts            `json:"totals"`
	InstanceTypesAdded   []diffTypeJSON        `json:"instance_types_added"`
	InstanceTypesRemoved []diffTypeJSON        `json:"instance_types_removed"`
	RegionsAdded         []diffRegionJSON      `json:"regions_added"`
	RegionsRemoved       []diffRegionJSON      `json:"regions_removed"`
	OffersAdded          []diffOfferJSON       `json:"offers_added"`
	OffersRemoved        []diffOfferJSON       `json:"offers_removed"`
	PriceChanges         []diffPriceChangeJSON `json:"price_changes"`
	AvailabilityChanges  []diffAvailJSON       `json:"availability_changes"`
}

type diffTypeJSON struct {
	Key          string          `json:"key"`
	ID           string          `json:"id"`
	Family       string          `json:"family"`
	VCPUs        int             `json:"vcpus"`
	MemoryGiB    decimal.Decimal `json:"memory_gib"`
	Accelerators []diffAccelJSON `json:"accelerators"`
}

type diffAccelJSON struct {
	Model     string          `json:"model"`
	Name      string          `json:"name"`
	Count     int             `json:"count"`
	Share     decimal.Decimal `json:"share"`
	MemoryGiB decimal.Decimal `json:"memory_gib"`
}

type diffRegionJSON struct {
	Key    string `json:"key"`
	ID     string `json:"id"`
	NameEN string `json:"name_en"`
	NameZH string `json:"name_zh"`
}

type diffOfferRefJSON struct {
	Key          string      `json:"key"`
	InstanceType string      `json:"instance_type"`
	Region       string      `json:"region"`
	Zone         string      `json:"zone"`
	Billing      BillingKind `json:"billing"`
}

type diffPriceJSON struct {
	Amount   decimal.Decimal  `json:"amount"`
	Currency Currency         `json:"currency"`
	Unit     PriceUnit        `json:"unit"`
	Upfront  *decimal.Decimal `json:"upfront,omitempty"`
}

type diffOfferJSON struct {
	diffOfferRefJSON
	Price        diffPriceJSON `json:"price"`
	Availability Availability  `json:"availability"`
}

type diffPriceChangeJSON struct {
	diffOfferRefJSON
	Old           diffPriceJSON `json:"old"`
	New           diffPriceJSON `json:"new"`
	ChangePercent *string       `json:"change_percent"`
}

type diffAvailJSON struct {
	diffOfferRefJSON
	Old Availability `json:"old"`
	New Availability `json:"new"`
}

func diffOfferRef(o Offer) diffOfferRefJSON {
	return diffOfferRefJSON{Key: o.Key(), InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone, Billing: o.Billing}
}

func diffPriceOut(p Price) diffPriceJSON {
	return diffPriceJSON{Amount: p.Amount, Currency: p.Currency, Unit: p.Unit, Upfront: upfrontOf(p)}
}

func diffTypeOut(t InstanceType) diffTypeJSON {
	out := diffTypeJSON{Key: t.Key(), ID: t.ID, Family: t.Family, VCPUs: t.VCPUs, MemoryGiB: t.MemoryGiB, Accelerators: []diffAccelJSON{}}
	for _, a := range t.Accelerators {
		out.Accelerators = append(out.Accelerators, diffAccelJSON{Model: a.Model, Name: a.Name, Count: a.Count, Share: a.Share, MemoryGiB: a.MemoryGiB})
	}
	return out
}

func diffTimeOut(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// JSON renders the report in the JSON diff format, indented, with a final newline.
//
// The format, schema version 1 (DiffSchemaVersion), is stable: fields are only
// added within a version. Amounts and percentages are exact decimal strings
// ("55.04", "-12.50"), never floating-point numbers; times are RFC 3339 in UTC
// ("" for a catalog without a date); lists are always present, empty as [].
//
//	{
//	  "schema_version": 1,
//	  "old": {"taken_at": "2025-11-30T00:00:00Z"},
//	  "new": {"taken_at": "2025-12-01T00:00:00Z"},
//	  "changed": true,                      // false when the catalogs are the same
//	  "totals": Counts,
//	  "providers": [                        // only providers with changes, in display order
//	    {
//	      "provider": "aws",
//	      "totals": Counts,
//	      "instance_types_added":   [InstanceType],
//	      "instance_types_removed": [InstanceType],
//	      "regions_added":          [Region],
//	      "regions_removed":        [Region],
//	      "offers_added":           [Offer],
//	      "offers_removed":         [Offer],
//	      "price_changes":          [PriceChange],
//	      "availability_changes":   [AvailabilityChange]
//	    }
//	  ]
//	}
//
//	Counts:       {"instance_types_added", "instance_types_removed", "regions_added",
//	               "regions_removed", "offers_added", "offers_removed", "price_changes",
//	               "price_increases", "price_decreases", "availability_changes"}: integers
//	InstanceType: {"key": "aws/p5.48xlarge", "id", "family", "vcpus": int, "memory_gib": dec,
//	               "accelerators": [{"model", "name", "count": int, "share": dec, "memory_gib": dec}]}
//	Region:       {"key": "aws/us-east-1", "id", "name_en", "name_zh"}
//	Offer:        {"key": "aws/p5.48xlarge/us-east-1//on_demand", "instance_type", "region",
//	               "zone" (may be ""), "billing", "price": Price, "availability"}
//	Price:        {"amount": dec, "currency": "USD"|"CNY"|..., "unit": "hour"|"month"|"year"|"upfront",
//	               "upfront": dec (only when non-zero)}
//	PriceChange:  Offer's "key", "instance_type", "region", "zone", "billing", then
//	              "old": Price, "new": Price, "change_percent": dec or null (null when the
//	              prices cannot be compared: another currency, or a price of zero before)
//	AvailabilityChange: Offer's "key", "instance_type", "region", "zone", "billing", then
//	              "old", "new": "available" | "sold_out" | "unknown"
//
// change_percent is the change of the cost of use over three years (recurring
// amount and upfront payment), rounded half away from zero to two places.
func (r DiffReport) JSON() ([]byte, error) {
	out := diffJSON{SchemaVersion: DiffSchemaVersion, Old: diffSideJSON{diffTimeOut(r.OldTakenAt)}, New: diffSideJSON{diffTimeOut(r.NewTakenAt)},
		Changed: !r.Empty(), Totals: r.Total, Providers: []providerDiffJSON{}}
	for _, d := range r.Providers {
		p := providerDiffJSON{Provider: d.Provider, Totals: d.Counts,
			InstanceTypesAdded: []diffTypeJSON{}, InstanceTypesRemoved: []diffTypeJSON{},
			RegionsAdded: []diffRegionJSON{}, RegionsRemoved: []diffRegionJSON{}, OffersAdded: []diffOfferJSON{}, OffersRemoved: []diffOfferJSON{},
			PriceChanges: []diffPriceChangeJSON{}, AvailabilityChanges: []diffAvailJSON{}}
		for _, t := range d.InstanceTypesAdded {
			p.InstanceTypesAdded = append(p.InstanceTypesAdded, diffTypeOut(t))
		}
		for _, t := range d.InstanceTypesRemoved {
			p.InstanceTypesRemoved = append(p.InstanceTypesRemoved, diffTypeOut(t))
		}
		for _, g := range d.RegionsAdded {
			p.RegionsAdded = append(p.RegionsAdded, diffRegionJSON{Key: g.Key(), ID: g.ID, NameEN: g.NameEN, NameZH: g.NameZH})
		}
		for _, g := range d.RegionsRemoved {
			p.RegionsRemoved = append(p.RegionsRemoved, diffRegionJSON{Key: g.Key(), ID: g.ID, NameEN: g.NameEN, NameZH: g.NameZH})
		}
		for _, o := range d.OffersAdded {
			p.OffersAdded = append(p.OffersAdded, diffOfferJSON{diffOfferRef(o), diffPriceOut(o.Price), o.Availability})
		}
		for _, o := range d.OffersRemoved {
			p.OffersRemoved = append(p.OffersRemoved, diffOfferJSON{diffOfferRef(o), diffPriceOut(o.Price), o.Availability})
		}
		for _, c := range d.PriceChanges {
			pc := diffPriceChangeJSON{diffOfferRefJSON: diffOfferRef(c.Offer), Old: diffPriceOut(c.Old), New: diffPriceOut(c.New)}
			if c.Percent != nil {
				s := c.Percent.StringFixed(2)
				pc.ChangePercent = &s
			}
			p.PriceChanges = append(p.PriceChanges, pc)
		}
		for _, c := range d.AvailabilityChanges {
			p.AvailabilityChanges = append(p.AvailabilityChanges, diffAvailJSON{diffOfferRef(c.Offer), c.Old, c.New})
		}
		out.Providers = append(out.Providers, p)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("encode diff: %w", err)
	}
	return b.Bytes(), nil
}
