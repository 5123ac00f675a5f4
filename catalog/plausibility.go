package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// The plausibility rules. A price that breaks one is an artefact of the source
// more often than a deal, so the offer is marked suspect with the reason: it is
// shown, marked, and never leads an answer (Offer.Plausible). Each rule names
// the real rows that made it:
//
//   - zero: a price of 0 with no upfront payment is no price (AWS quotes an
//     all-upfront reservation as 0 an hour plus its upfront, which is a price).
//   - peer median: a price per GPU below a tenth of the median of its peers
//     (same accelerator name and memory, billing kind, currency and unit, at
//     least minPeers offers of one provider). Alibaba's ecs.gn5i-c12g1.6xlarge
//     was quoted 0.084 CNY/hour on demand and spot alike, about 0.2% of the
//     other P4 types per GPU.
//   - spot at or above on-demand: spot capacity is sold below the on-demand
//     price; a spot figure at or above it is a quote that fell back to the
//     on-demand price, or an average over a window the on-demand price does not
//     share (AWS p4d.24xlarge in ap-south-1: 26.3444 both).
//   - spot at or under a tenth of on-demand: AWS sells spot at up to 90% off,
//     so a tenth is the bound. Of the embedded AWS figures exactly on it, most
//     (p5.48xlarge in ap-southeast-3: 7.59552 against 75.9552 on demand) are
//     the dataset's estimates from the Spot Instance Advisor's "90% savings"
//     with no observed minimum or maximum; a few are observations flat on the
//     bound (trn1.32xlarge in us-east-2: 2.15 against 21.5). A figure on the
//     bound cannot be told from a capped estimate, so both are flagged, and
//     shown with the reason. Alibaba's ebmgn8is spot quotes at about 9% of
//     on-demand are lower than either provider advertises.
//   - commitment above on-demand: a reservation or a yearly subscription whose
//     effective hourly price (upfront spread over the term) is above the
//     on-demand price, or a monthly subscription above 730 hours of it, costs
//     more than not committing and is not what anyone is offered.
//   - regional median: an on-demand price below 55% of the median of the same
//     type's on-demand prices over its regions (plausibility_regions.go).
//
// The on-demand price compared with is the same type's in the same zone, else
// in the whole region, in the same currency; an offer for the whole region
// whose on-demand prices are per zone is compared with the highest of them
// ("above") or the lowest ("below"), so that no zone's price makes it suspect.
var (
	suspectFraction = decimal.RequireFromString("0.1")
	minPeers        = 3
)

// FlagImplausible sets Offer.Suspect, with the reasons, on every offer that
// breaks a plausibility rule. instances and offers are one provider's (the crawl
// runner checks each provider's offers over all its regions); a reason already
// recorded is not repeated, so flagging twice changes nothing.
func FlagImplausible(instances []InstanceType, offers []Offer) {
	for i, reasons := range ImplausibleReasons(instances, offers) {
		for _, r := range reasons {
			addSuspect(&offers[i], r)
		}
	}
}

// FlagImplausibleSnapshot applies FlagImplausible to each provider's offers.
func FlagImplausibleSnapshot(s *Snapshot) {
	for i, reasons := range s.ImplausibleReasons() {
		for _, r := range reasons {
			addSuspect(&s.Offers[i], r)
		}
	}
}

// ImplausibleReasons is what FlagImplausible would record, for each provider
// separately, without changing the snapshot: by offer index.
func (s *Snapshot) ImplausibleReasons() map[int][]string {
	out := map[int][]string{}
	byProvider := map[Provider][]int{}
	for i, o := range s.Offers {
		byProvider[o.Provider] = append(byProvider[o.Provider], i)
	}
	types := map[Provider][]InstanceType{}
	for _, t := range s.Instances {
		types[t.Provider] = append(types[t.Provider], t)
	}
	for p, idx := range byProvider {
		offers := make([]Offer, len(idx))
		for j, i := range idx {
			offers[j] = s.Offers[i]
		}
		for j, reasons := range ImplausibleReasons(types[p], offers) {
			out[idx[j]] = reasons
		}
	}
	return out
}

// ImplausibleReasons says, by offer index, which rules each offer breaks; offers
// without a reason are absent. instances and offers are one provider's.
func ImplausibleReasons(instances []InstanceType, offers []Offer) map[int][]string {
	out := map[int][]string{}
	add := func(i int, reason string) {
		for _, r := range out[i] {
			if r == reason {
				return
			}
		}
		out[i] = append(out[i], reason)
	}
	for i, o := range offers {
		if isZeroPrice(o.Price) {
			add(i, "price is zero")
		}
	}
	peerMedianReasons(instances, offers, add)
	onDemandReasons(offers, add)
	regionalMedianReasons(instances, offers, add)
	return out
}

// peerMedianReasons applies the peer-median rule.
func peerMedianReasons(instances []InstanceType, offers []Offer, add func(int, string)) {
	byID := map[string]InstanceType{}
	for _, it := range instances {
		byID[it.ID] = it
	}
	type group struct {
		label string
		idx   []int
		per   []decimal.Decimal
	}
	groups := map[string]*group{}
	var keys []string
	for i, o := range offers {
		it, ok := byID[o.InstanceType]
		if !ok || len(it.Accelerators) == 0 || it.Accelerators[0].Count <= 0 || o.Price.Amount.IsZero() {
			continue // no GPU to divide by; or zero (suspect already, or all upfront)
		}
		a := it.Accelerators[0]
		key := fmt.Sprintf("%s|%s|%s|%s|%s", NormalizeAcceleratorName(a.Name), a.MemoryGiB.String(), o.Billing, o.Price.Currency, o.Price.Unit)
		g := groups[key]
		if g == nil {
			label := a.Name
			if a.MemoryGiB.IsPositive() {
				label += " " + a.MemoryGiB.String() + " GiB"
			}
			g = &group{label: label}
			groups[key] = g
			keys = append(keys, key)
		}
		g.idx = append(g.idx, i)
		g.per = append(g.per, o.Price.Amount.Div(decimal.NewFromInt(int64(a.Count))))
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		if len(g.per) < minPeers {
			continue
		}
		med := median(g.per)
		bound := med.Mul(suspectFraction)
		for j, i := range g.idx {
			if g.per[j].LessThan(bound) {
				o := offers[i]
				add(i, fmt.Sprintf("price per GPU %s %s/%s is below 10%% of the median %s of %d %s offers for %s",
					g.per[j].Round(6).String(), o.Price.Currency, o.Price.Unit, med.Round(6).String(), len(g.per), o.Billing, g.label))
			}
		}
	}
}

// onDemandRef is what an offer's price is compared with: the on-demand hourly
// prices of its type in its zone, or in its region.
type onDemandRef struct {
	currency Currency
	low      decimal.Decimal // the lowest (a zone's, for a regional offer with per-zone prices)
	high     decimal.Decimal // the highest
}

// onDemandReasons applies the rules that compare spot and commitments with
// on-demand.
func onDemandReasons(offers []Offer, add func(int, string)) {
	exact := map[string]onDemandRef{}
	zonal := map[string]*onDemandRef{} // type/region over the zones' prices
	for _, o := range offers {
		if o.Billing != OnDemand || isZeroPrice(o.Price) {
			continue
		}
		h, err := o.Price.Hourly(o.Billing.TermHours())
		if err != nil {
			continue
		}
		exact[o.InstanceType+"/"+o.Region+"/"+o.Zone] = onDemandRef{currency: o.Price.Currency, low: h, high: h}
		if o.Zone == "" {
			continue
		}
		k := o.InstanceType + "/" + o.Region
		switch r := zonal[k]; {
		case r == nil:
			zonal[k] = &onDemandRef{currency: o.Price.Currency, low: h, high: h}
		case r.currency != o.Price.Currency:
			r.currency = "" // mixed: compare with none
		default:
			r.low, r.high = decimal.Min(r.low, h), decimal.Max(r.high, h)
		}
	}
	lookup := func(o Offer) (onDemandRef, bool) {
		if r, ok := exact[o.InstanceType+"/"+o.Region+"/"+o.Zone]; ok {
			return r, r.currency == o.Price.Currency
		}
		if o.Zone != "" {
			r, ok := exact[o.InstanceType+"/"+o.Region+"/"]
			return r, ok && r.currency == o.Price.Currency
		}
		if r := zonal[o.InstanceType+"/"+o.Region]; r != nil {
			return *r, r.currency == o.Price.Currency
		}
		return onDemandRef{}, false
	}
	for i, o := range offers {
		if o.Billing == OnDemand || isZeroPrice(o.Price) { // a zero price is suspect already
			continue
		}
		ref, ok := lookup(o)
		if !ok {
			continue
		}
		h, err := o.Price.Hourly(o.Billing.TermHours())
		if err != nil {
			continue
		}
		cur := string(o.Price.Currency)
		switch o.Billing {
		case Spot:
			if h.GreaterThanOrEqual(ref.high) {
				add(i, fmt.Sprintf("spot price %s is at or above the on-demand price %s %s/hour", h.String(), ref.high.String(), cur))
			} else if h.LessThanOrEqual(ref.low.Mul(suspectFraction)) {
				add(i, fmt.Sprintf("spot price %s is at or below 10%% of the on-demand price %s %s/hour", h.String(), ref.low.String(), cur))
			}
		case SubscriptionMonth:
			if h.GreaterThan(ref.high) {
				add(i, fmt.Sprintf("monthly price %s is above 730 hours of the on-demand price %s %s/hour (%s %s)",
					o.Price.String(), ref.high.String(), cur, ref.high.Mul(HoursPerMonth).String(), cur))
			}
		default: // reserved, subscription_year
			if h.GreaterThan(ref.high) {
				add(i, fmt.Sprintf("effective hourly price %s (upfront spread over the term) is above the on-demand price %s %s/hour",
					h.Round(6).String(), ref.high.String(), cur))
			}
		}
	}
}

func isZeroPrice(p Price) bool {
	return p.Amount.IsZero() && (p.Upfront == nil || p.Upfront.IsZero())
}

func addSuspect(o *Offer, reason string) {
	if o.Suspect == "" {
		o.Suspect = reason
		return
	}
	if !strings.Contains(o.Suspect, reason) {
		o.Suspect += "; " + reason
	}
}

func median(xs []decimal.Decimal) decimal.Decimal {
	s := append([]decimal.Decimal(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i].LessThan(s[j]) })
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1].Add(s[n/2]).Div(decimal.NewFromInt(2))
}
