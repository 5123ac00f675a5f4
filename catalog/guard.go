package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// The guard's default bounds, in percent. A provider rarely retires more than a
// few percent of its offers between two nightly crawls, and list prices move by a
// few percent at a time (spot prices more, but seldom by half in a day); a change
// beyond these is far more often a broken adapter, an API change or a unit mix-up
// than news, so it waits for a person to look.
var (
	DefaultMaxDrop        = decimal.NewFromInt(30)
	DefaultMaxPriceChange = decimal.NewFromInt(50)
)

// GuardOptions are the bounds the guard checks a new snapshot against, and the
// problems a person has accepted.
type GuardOptions struct {
	// MaxDrop is the share of a provider's offers (or of its instance types), in
	// percent, that may disappear in one update. Zero means DefaultMaxDrop.
	MaxDrop decimal.Decimal
	// MaxPriceChange is how far, in percent up or down, an offer's price may move
	// in one update. Zero means DefaultMaxPriceChange.
	MaxPriceChange decimal.Decimal
	// AcceptDrop lets drops and providers left without data through.
	AcceptDrop bool
	// AcceptPriceChange lets price moves beyond MaxPriceChange through.
	AcceptPriceChange bool
}

func (o GuardOptions) maxDrop() decimal.Decimal {
	if o.MaxDrop.IsZero() {
		return DefaultMaxDrop
	}
	return o.MaxDrop
}

func (o GuardOptions) maxPriceChange() decimal.Decimal {
	if o.MaxPriceChange.IsZero() {
		return DefaultMaxPriceChange
	}
	return o.MaxPriceChange
}

// Validate checks the bounds: percentages above zero (a drop share at most 100).
func (o GuardOptions) Validate() error {
	if o.MaxDrop.IsNegative() || o.MaxDrop.GreaterThan(decimal.NewFromInt(100)) {
		return fmt.Errorf("maximum drop %s%% is not between 0 and 100", o.MaxDrop)
	}
	if o.MaxPriceChange.IsNegative() {
		return fmt.Errorf("maximum price change %s%% is negative", o.MaxPriceChange)
	}
	return nil
}

// GuardProblemKind says what sort of problem the guard found. The values are used
// by the command line to name the flag that accepts them.
type GuardProblemKind string

// Guard problem kinds.
const (
	// GuardDrop: a provider lost more than the allowed share of its offers or
	// instance types.
	GuardDrop GuardProblemKind = "drop"
	// GuardNoData: a provider that had data has none in the new snapshot.
	GuardNoData GuardProblemKind = "no_data"
	// GuardPriceChange: an offer's price moved beyond the bound, or changed
	// currency, or rose from zero.
	GuardPriceChange GuardProblemKind = "price_change"
)

// GuardProblem is one reason the guard found to stop an update.
type GuardProblem struct {
	Kind     GuardProblemKind
	Provider Provider
	// Offer is the offer's key, for a price change.
	Offer string
	// Message says what changed, with the counts or prices, without the
	// "blocked"/"accepted" verdict.
	Message string
	// Accepted is set when the options accept this kind of problem.
	Accepted bool
}

// GuardReport is what the guard found. An update may go ahead when it is not
// Blocked; accepted problems are still listed, so that the log shows what a
// person let through.
type GuardReport struct {
	Problems []GuardProblem
}

// Blocked reports whether a problem was found that the options do not accept.
func (r GuardReport) Blocked() bool {
	for _, p := range r.Problems {
		if !p.Accepted {
			return true
		}
	}
	return false
}

// Text is the report as lines, one per problem, each starting with "blocked: "
// or "accepted: "; empty when the guard found nothing.
func (r GuardReport) Text() string {
	var b strings.Builder
	for _, p := range r.Problems {
		verdict := "blocked"
		if p.Accepted {
			verdict = "accepted"
		}
		fmt.Fprintf(&b, "%s: %s\n", verdict, p.Message)
	}
	return b.String()
}

// Kinds lists the kinds of the problems that block the update, in the order
// drop, no_data, price_change.
func (r GuardReport) Kinds() []GuardProblemKind {
	seen := map[GuardProblemKind]bool{}
	for _, p := range r.Problems {
		if !p.Accepted {
			seen[p.Kind] = true
		}
	}
	var out []GuardProblemKind
	for _, k := range []GuardProblemKind{GuardDrop, GuardNoData, GuardPriceChange} {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// Guard compares the snapshot about to replace prev with it and reports what
// should stop the update:
//   - a provider that lost more than MaxDrop percent of its offers, or of its
//     instance types (so an update never shrinks the catalog much without consent);
//   - a provider that had data in prev and has none in next;
//   - each offer whose price moved by more than MaxPriceChange percent, changed
//     currency, or rose from zero.
//
// Prices are compared as the cost of three years of use (recurring amount and
// upfront payment, see PriceChangePercent), so a move from monthly to hourly
// quoting is not mistaken for a price change. A provider whose coverage in next is
// stale kept its previous data (MergeCrawl): it is not a drop. With a nil prev
// there is nothing to compare and the report is empty.
func Guard(prev, next *Snapshot, opts GuardOptions) GuardReport {
	var r GuardReport
	if prev == nil || next == nil {
		return r
	}
	stale := map[Provider]bool{}
	for _, c := range next.Coverage {
		if c.Status == CoverageStale {
			stale[c.Provider] = true
		}
	}
	type counts struct{ offers, types, lostOffers, lostTypes, nextOffers, nextTypes int }
	by := map[Provider]*counts{}
	get := func(p Provider) *counts {
		if by[p] == nil {
			by[p] = &counts{}
		}
		return by[p]
	}
	nextOffers := map[string]Offer{}
	for _, o := range next.Offers {
		nextOffers[o.Key()] = o
		get(o.Provider).nextOffers++
	}
	nextTypes := map[string]bool{}
	for _, t := range next.Instances {
		nextTypes[t.Key()] = true
		get(t.Provider).nextTypes++
	}
	var priceProblems []GuardProblem
	maxChange := opts.maxPriceChange()
	for _, o := range prev.Offers {
		c := get(o.Provider)
		c.offers++
		n, ok := nextOffers[o.Key()]
		if !ok {
			c.lostOffers++
			continue
		}
		if stale[o.Provider] || o.Includes != n.Includes {
			continue // a change of what the price includes is not a price change
		}
		msg := priceGuardMessage(o, n, maxChange)
		if msg != "" {
			priceProblems = append(priceProblems, GuardProblem{Kind: GuardPriceChange, Provider: o.Provider, Offer: o.Key(),
				Message: msg, Accepted: opts.AcceptPriceChange})
		}
	}
	for _, t := range prev.Instances {
		c := get(t.Provider)
		c.types++
		if !nextTypes[t.Key()] {
			c.lostTypes++
		}
	}
	maxDrop := opts.maxDrop()
	for _, p := range providerOrder(by) {
		c := by[p]
		if stale[p] || (c.offers == 0 && c.types == 0) {
			continue
		}
		if c.nextOffers == 0 && c.nextTypes == 0 {
			r.Problems = append(r.Problems, GuardProblem{Kind: GuardNoData, Provider: p, Accepted: opts.AcceptDrop,
				Message: fmt.Sprintf("%s: no data in the new snapshot (it had %s and %s)%s",
					p, diffPlural(c.types, "instance type", "instance types"), diffPlural(c.offers, "offer", "offers"), guardCoverageNote(next, p))})
			continue
		}
		drop := func(what string, lost, had, now int) {
			if had == 0 || lost == 0 {
				return
			}
			share := decimal.NewFromInt(int64(lost)).Mul(decimal.NewFromInt(100)).DivRound(decimal.NewFromInt(int64(had)), 2)
			if share.LessThanOrEqual(maxDrop) {
				return
			}
			r.Problems = append(r.Problems, GuardProblem{Kind: GuardDrop, Provider: p, Accepted: opts.AcceptDrop,
				Message: fmt.Sprintf("%s: lost %d of %d %s (%s%%), more than the %s%% allowed; the new snapshot has %d%s",
					p, lost, had, what, share.StringFixed(2), maxDrop, now, guardCoverageNote(next, p))})
		}
		drop("offers", c.lostOffers, c.offers, c.nextOffers)
		drop("instance types", c.lostTypes, c.types, c.nextTypes)
	}
	sort.SliceStable(priceProblems, func(i, j int) bool { return priceProblems[i].Offer < priceProblems[j].Offer })
	r.Problems = append(r.Problems, priceProblems...)
	return r
}

// priceGuardMessage describes the price move from o to n when it is beyond the
// bound, and is empty when the move is within it.
func priceGuardMessage(o, n Offer, maxChange decimal.Decimal) string {
	if o.Price.Currency != n.Price.Currency {
		return fmt.Sprintf("%s: price changed currency: %s → %s", o.Key(), o.Price, n.Price)
	}
	pct, ok := PriceChangePercent(o.Price, n.Price, o.Billing)
	if ok {
		if pct.Abs().LessThanOrEqual(maxChange) {
			return ""
		}
		return fmt.Sprintf("%s: price %s → %s (%s%%), beyond ±%s%%", o.Key(), o.Price, n.Price, signedPercent(pct), maxChange)
	}
	oc, okOld := horizonCost(o.Price, o.Billing.TermHours())
	nc, okNew := horizonCost(n.Price, n.Billing.TermHours())
	switch {
	case okOld && okNew && oc.IsZero() && nc.IsZero():
		return ""
	case okOld && okNew && oc.IsZero():
		return fmt.Sprintf("%s: price rose from zero: %s → %s", o.Key(), o.Price, n.Price)
	}
	if samePrice(o.Price, n.Price) {
		return ""
	}
	return fmt.Sprintf("%s: price %s → %s cannot be compared (unit or term unknown)", o.Key(), o.Price, n.Price)
}

func guardCoverageNote(s *Snapshot, p Provider) string {
	for _, c := range s.Coverage {
		if c.Provider == p {
			note := fmt.Sprintf(" (coverage: %s", c.Status)
			if c.Message != "" {
				note += ": " + c.Message
			}
			return note + ")"
		}
	}
	return ""
}

// providerOrder lists the map's providers in display order, unknown ids last.
func providerOrder[V any](m map[Provider]V) []Provider {
	var out []Provider
	for _, p := range Providers {
		if _, ok := m[p]; ok {
			out = append(out, p)
		}
	}
	var other []Provider
	for p := range m {
		known := false
		for _, q := range Providers {
			known = known || p == q
		}
		if !known {
			other = append(other, p)
		}
	}
	sort.Slice(other, func(i, j int) bool { return other[i] < other[j] })
	return append(out, other...)
}
