package catalog

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

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
	if c.InterruptionChanges > 0 {
		parts = append(parts, diffPlural(c.InterruptionChanges, "interruption band change", "interruption band changes"))
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
	if IsObservedStub(t) {
		// A type only imported prices name: its specs are unknown, not zero.
		return "specs not recorded: known only from dated price observations"
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
		for _, c := range d.InterruptionChanges {
			fmt.Fprintf(&b, "  ~ interruption band %s: %s -> %s\n", diffOfferLabel(c.Offer), bandWords(c.Old), bandWords(c.New))
		}
	}
	return b.String()
}

// bandWords is a band for the diff, "no data" for none.
func bandWords(b InterruptionBand) string {
	if b == "" {
		return "no data"
	}
	return string(b)
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
