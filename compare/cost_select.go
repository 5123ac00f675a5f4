package compare

import (
	"cmp"
	"maps"
	"slices"
	"sort"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Choosing among cost figures: an offer, instance type or workload usually has
// several (runs, estimates, billing kinds); these say which one counts.

// BestWorkCostPerOffer keeps one figure per offer and work key (workload and
// scenario): a measured one over an estimate, then the lowest (the first of
// equal ones). The result is ordered by work key, then offer key.
func BestWorkCostPerOffer(costs []WorkCost) []WorkCost {
	best := map[[2]string]WorkCost{}
	for _, c := range costs {
		k := [2]string{c.OfferKey, c.WorkKey()}
		b, ok := best[k]
		if !ok || betterForOffer(c, b) {
			best[k] = c
		}
	}
	out := make([]WorkCost, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].WorkKey() != out[j].WorkKey() {
			return out[i].WorkKey() < out[j].WorkKey()
		}
		return out[i].OfferKey < out[j].OfferKey
	})
	return out
}

func betterForOffer(a, b WorkCost) bool {
	if (a.Basis == Measured) != (b.Basis == Measured) {
		return a.Basis == Measured
	}
	return a.CostPerUnit.LessThan(b.CostPerUnit)
}

// CheapestWorkCosts keeps, per key, the cost with the lowest figure (a
// measurement over an estimate on a tie, else the first). A cost from a
// suspect or reported price is never the cheapest (catalog.Offer.Leads):
// a key with only such costs has none.
func CheapestWorkCosts(costs []WorkCost, key func(WorkCost) string) map[string]WorkCost {
	best := map[string]WorkCost{}
	for _, c := range costs {
		if c.Suspect != "" || c.Reported {
			continue
		}
		k := key(c)
		b, ok := best[k]
		if !ok || c.CostPerUnit.LessThan(b.CostPerUnit) || (c.CostPerUnit.Equal(b.CostPerUnit) && c.Basis == Measured && b.Basis != Measured) {
			best[k] = c
		}
	}
	return best
}

// CheapestPerWorkloadAndBilling keeps the cheapest cost of each work key
// (workload and scenario) and billing kind (CheapestWorkCosts), ordered by work
// key, then billing kind in catalog order.
func CheapestPerWorkloadAndBilling(costs []WorkCost) []WorkCost {
	best := CheapestWorkCosts(costs, func(c WorkCost) string { return c.WorkKey() + "\x00" + string(c.Billing) })
	out := slices.Collect(maps.Values(best))
	rank := billingRanks()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.WorkKey() != b.WorkKey() {
			return a.WorkKey() < b.WorkKey()
		}
		if a.Billing != b.Billing {
			return rank[a.Billing] < rank[b.Billing]
		}
		return CostLess(a, b)
	})
	return out
}

// CheapestPerInstanceType keeps each instance type's cheapest cost
// (CheapestWorkCosts), cheapest first, then by provider, instance type, region
// and run.
func CheapestPerInstanceType(costs []WorkCost) []WorkCost {
	best := CheapestWorkCosts(costs, func(c WorkCost) string { return string(c.Provider) + "/" + c.InstanceType })
	out := slices.Collect(maps.Values(best))
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case !a.CostPerUnit.Equal(b.CostPerUnit):
			return a.CostPerUnit.LessThan(b.CostPerUnit)
		case comparePlace(a, b) != 0:
			return comparePlace(a, b) < 0
		}
		return a.RunRef < b.RunRef
	})
	return out
}

// comparePlace orders two costs by provider, instance type and region.
func comparePlace(a, b WorkCost) int {
	return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.InstanceType, b.InstanceType), cmp.Compare(a.Region, b.Region))
}

// CostLess orders costs by figure, then offer and run.
func CostLess(a, b WorkCost) bool {
	if !a.CostPerUnit.Equal(b.CostPerUnit) {
		return a.CostPerUnit.LessThan(b.CostPerUnit)
	}
	return a.OfferKey+a.RunRef < b.OfferKey+b.RunRef
}

// billingRanks is each billing kind's place in catalog.BillingKinds.
func billingRanks() map[catalog.BillingKind]int {
	rank := map[catalog.BillingKind]int{}
	for i, b := range catalog.BillingKinds {
		rank[b] = i
	}
	return rank
}
