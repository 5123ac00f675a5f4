package providers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Plausibility bounds. A price per GPU below suspectFraction of the median of
// its peers (same accelerator name and memory, billing kind, currency and
// unit, at least minPeers offers) is an API artefact more often than a deal:
// Alibaba's ecs.gn5i-c12g1.6xlarge was quoted at 0.084 CNY/hour on demand
// and spot alike, ~0.2 % of the other P4 types per GPU. The runner applies the
// check to each provider's offers over all its regions.
var (
	suspectFraction = decimal.RequireFromString("0.1")
	minPeers        = 3
)

// FlagImplausible sets Offer.Suspect, with the reason, on offers whose price
// per GPU is far below their peers', and on spot offers priced exactly at the
// on-demand price of the same type and zone (a spot quote that fell back to
// the on-demand price, or an on-demand quote that is itself wrong). instances
// and offers are one provider's.
func FlagImplausible(instances []catalog.InstanceType, offers []catalog.Offer) {
	byID := map[string]catalog.InstanceType{}
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
	onDemand := map[string]decimal.Decimal{}
	for i, o := range offers {
		if o.Billing == catalog.OnDemand {
			onDemand[o.InstanceType+"/"+o.Region+"/"+o.Zone] = o.Price.Amount
		}
		it, ok := byID[o.InstanceType]
		if !ok || len(it.Accelerators) == 0 || it.Accelerators[0].Count <= 0 {
			continue
		}
		a := it.Accelerators[0]
		key := fmt.Sprintf("%s|%s|%s|%s|%s", catalog.NormalizeAcceleratorName(a.Name), a.MemoryGiB.String(), o.Billing, o.Price.Currency, o.Price.Unit)
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
				o := &offers[i]
				addSuspect(o, fmt.Sprintf("price per GPU %s %s/%s is below 10%% of the median %s of %d %s offers for %s",
					g.per[j].Round(6).String(), o.Price.Currency, o.Price.Unit, med.Round(6).String(), len(g.per), o.Billing, g.label))
			}
		}
	}
	for i := range offers {
		o := &offers[i]
		if o.Billing != catalog.Spot {
			continue
		}
		if od, ok := onDemand[o.InstanceType+"/"+o.Region+"/"+o.Zone]; ok && od.Equal(o.Price.Amount) {
			addSuspect(o, "spot price equals the on-demand price "+od.String()+" "+string(o.Price.Currency))
		}
	}
}

func addSuspect(o *catalog.Offer, reason string) {
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
