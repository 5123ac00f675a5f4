package sitegen

import (
	"sort"

	"github.com/shopspring/decimal"
)

// workCost is the cost of a unit of work (a benchmark workload) on one offer: the
// hook through which package compare's benchmark costs reach the site. The build
// passes compare.CostPerWork's results converted field by field; the site shows
// them as a column of the explorer, one workload at a time.
type workCost struct {
	OfferKey    string          // catalog.Offer.Key()
	Workload    string          // workload id, e.g. llm-inference-70b
	UnitLabel   string          // "USD per 1M tokens"
	CostPerUnit decimal.Decimal // in UnitLabel
	Basis       string          // measured or estimated
}

// bestWorkCosts keeps one figure per offer and workload: a measured one over an
// estimate, then the lowest; the result is in a stable order.
func bestWorkCosts(in []workCost) []workCost {
	best := map[[2]string]workCost{}
	for _, c := range in {
		k := [2]string{c.OfferKey, c.Workload}
		b, ok := best[k]
		if !ok || better(c, b) {
			best[k] = c
		}
	}
	out := make([]workCost, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Workload != out[j].Workload {
			return out[i].Workload < out[j].Workload
		}
		return out[i].OfferKey < out[j].OfferKey
	})
	return out
}

func better(a, b workCost) bool {
	if (a.Basis == "measured") != (b.Basis == "measured") {
		return a.Basis == "measured"
	}
	return a.CostPerUnit.LessThan(b.CostPerUnit)
}
