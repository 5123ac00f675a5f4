package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// regionalFraction and minRegions make the regional-median rule: an on-demand
// price below regionalFraction of the median of the same type's on-demand
// prices over its regions (minRegions regions or more, one currency), each
// region counted once at its lowest price. List prices of one type differ by
// region, but not by half: over the embedded on-demand prices of AWS, Alibaba
// Cloud, Tencent Cloud and Azure the lowest region is 61% of its type's median
// (Tencent's GN10Xp.20XLARGE320 in ap-nanjing, 95.87 against 158.17 CNY). The
// rule was made by Google Cloud's source, which gives the H100 and H100 Mega
// machine types' GPU part at about a third of its other regions' in five to
// seven regions (a3-edgegpu-8g in us-central1: 43.07 against a median of 89.59 USD
// an hour; 46% to 52% of the median), where spot then saves about a third of
// it instead of three quarters: a different SKU mixed into the source, not a
// lower price.
//
// Where a price comes in parts (Offer.Parts), the accelerators' part per GPU
// is held against the median of that GPU's over its regions (every machine
// type with it), with partFraction: a machine part dilutes a GPU part gone
// wrong (Google Cloud's A100 40GB part is 55% to 58% of its median in
// europe-west4 and three Asian regions, where the whole price is 66% to 72%;
// spot there saves 28% against 51% in us-central1), and the GPU parts of the
// source's other regions lie within 1.2 times each other (A100 40GB: 2.93 to
// 3.44 USD an hour), so under 60% is no regional factor.
var (
	regionalFraction = decimal.RequireFromString("0.55")
	partFraction     = decimal.RequireFromString("0.6")
	minRegions       = 3
)

// accelPart is the accelerators' part of an offer's price, if it has one.
func accelPart(o Offer) (decimal.Decimal, bool) {
	for _, p := range o.Parts {
		if p.Part == PartAccelerators {
			return p.Amount, true
		}
	}
	return decimal.Zero, false
}

// regionalMedianReasons applies the regional-median rule to on-demand offers:
// to their whole price, per instance type; or, where the price comes in
// parts, to the accelerators' part per GPU, per GPU (one SKU's rate, whatever
// the machine type: an A100 40GB part is held against every A2 type's).
func regionalMedianReasons(instances []InstanceType, offers []Offer, add func(int, string)) {
	byID := map[string]InstanceType{}
	for _, it := range instances {
		byID[it.ID] = it
	}
	type group struct {
		label    string // the GPU, for a parts group
		currency Currency
		lowest   map[string]decimal.Decimal // region → its lowest hourly figure
		idx      []int
		hourly   []decimal.Decimal
	}
	groups := map[string]*group{}
	var keys []string
	for i, o := range offers {
		if o.Billing != OnDemand || isZeroPrice(o.Price) {
			continue
		}
		h, err := o.Price.Hourly(o.Billing.TermHours())
		if err != nil {
			continue
		}
		k, label := "type|"+o.InstanceType+"|"+string(o.Price.Currency), ""
		if part, ok := accelPart(o); ok && o.Price.Unit == PerHour {
			it, known := byID[o.InstanceType]
			if !known || len(it.Accelerators) == 0 || it.Accelerators[0].Count <= 0 {
				continue
			}
			a := it.Accelerators[0]
			h = part.Div(decimal.NewFromInt(int64(a.Count)))
			k, label = "gpu|"+NormalizeAcceleratorName(a.Name)+"|"+a.MemoryGiB.String()+"|"+string(o.Price.Currency), a.Name
		}
		g := groups[k]
		if g == nil {
			g = &group{label: label, currency: o.Price.Currency, lowest: map[string]decimal.Decimal{}}
			groups[k] = g
			keys = append(keys, k)
		}
		if low, ok := g.lowest[o.Region]; !ok || h.LessThan(low) {
			g.lowest[o.Region] = h
		}
		g.idx = append(g.idx, i)
		g.hourly = append(g.hourly, h)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		if len(g.lowest) < minRegions {
			continue
		}
		per := make([]decimal.Decimal, 0, len(g.lowest))
		for _, h := range g.lowest {
			per = append(per, h)
		}
		med := median(per)
		parts := strings.HasPrefix(k, "gpu|")
		bound := med.Mul(regionalFraction)
		if parts {
			bound = med.Mul(partFraction)
		}
		for j, i := range g.idx {
			switch {
			case !g.hourly[j].LessThan(bound):
			case parts:
				add(i, fmt.Sprintf("on-demand GPU part %s %s/hour per GPU is below 60%% of the median %s over %d regions for %s",
					g.hourly[j].String(), g.currency, med.Round(6).String(), len(g.lowest), g.label))
			default:
				add(i, fmt.Sprintf("on-demand price %s %s/hour is below 55%% of the median %s of its %d regions' on-demand prices",
					g.hourly[j].String(), g.currency, med.Round(6).String(), len(g.lowest)))
			}
		}
	}
}
