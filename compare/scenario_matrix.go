package compare

import (
	"maps"
	"slices"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Cell is one cell of a matrix: the best offers of a provider (or tier) for a
// scenario, with how many were considered.
type Cell struct {
	Key    string     `json:"key"` // provider id or tier
	Best   []OfferFit `json:"best"`
	Fits   int        `json:"fits"`    // instance types that fit
	MayFit int        `json:"may_fit"` // instance types with unknown requirements
	Types  int        `json:"types"`   // instance types considered
	// Reason says why the cell is empty (cell_no_offers, cell_none_fits); nil
	// when it is not.
	Reason *Reason `json:"reason,omitempty"`
}

// ScenarioRanking is one scenario's result: every instance type ranked by its
// cheapest offer of the chosen billing kind, and the matrix cells.
type ScenarioRanking struct {
	Scenario Scenario `json:"scenario"`
	// Ranked holds the types that fit, then those that may fit, best first
	// (verdict, score descending, USD per hour ascending, instance key).
	Ranked []OfferFit `json:"ranked"`
	// Rejected holds the types that do not fit, by instance key, with only
	// their failing checks.
	Rejected   []OfferFit `json:"rejected"`
	ByProvider []Cell     `json:"by_provider"`
	ByTier     []Cell     `json:"by_tier"`
}

// Matrix is every scenario's ranking over one snapshot.
type Matrix struct {
	Billing   catalog.BillingKind `json:"billing"`
	Region    string              `json:"region,omitempty"`
	Providers []catalog.Provider  `json:"providers"`
	Tiers     []Tier              `json:"tiers"`
	Scenarios []ScenarioRanking   `json:"scenarios"`
}

// MatrixOptions choose what the matrix ranks.
type MatrixOptions struct {
	// Billing is the billing kind whose offers are priced; on_demand when empty.
	Billing catalog.BillingKind
	// Region, when set, keeps only offers in that region id.
	Region string
	// Providers, when set, keeps only those providers.
	Providers []catalog.Provider
	// PerCell is how many offers a matrix cell lists; 3 when zero.
	PerCell int
	// Costs are cost-per-work figures (CostPerWork) for the work_cost dimension.
	Costs []WorkCost
}

// BuildMatrix ranks the snapshot's instance types for every scenario. Each type is
// represented by its cheapest plausible offer of the billing kind (available
// before sold out, then USD per hour, then offer key); types without such an
// offer are left out. The order of everything is deterministic.
func BuildMatrix(scenarios []Scenario, snap *catalog.Snapshot, gpus *catalog.GPUReference, opts MatrixOptions) Matrix {
	if opts.Billing == "" {
		opts.Billing = catalog.OnDemand
	}
	if opts.PerCell <= 0 {
		opts.PerCell = 3
	}
	m := Matrix{Billing: opts.Billing, Region: opts.Region, Tiers: Tiers}
	providers := opts.Providers
	if len(providers) == 0 {
		providers = catalog.Providers
	}
	keep := map[catalog.Provider]bool{}
	for _, p := range providers {
		keep[p] = true
	}
	present := map[catalog.Provider]bool{}
	reps := representatives(snap, opts, keep)
	for _, r := range reps {
		present[r.offer.Provider] = true
	}
	for _, p := range catalog.Providers {
		if present[p] {
			m.Providers = append(m.Providers, p)
		}
	}
	for _, s := range scenarios {
		m.Scenarios = append(m.Scenarios, rankScenario(s, reps, gpus, opts, m.Providers))
	}
	return m
}

// RankScenario is BuildMatrix for one scenario.
func RankScenario(s Scenario, snap *catalog.Snapshot, gpus *catalog.GPUReference, opts MatrixOptions) ScenarioRanking {
	m := BuildMatrix([]Scenario{s}, snap, gpus, opts)
	return m.Scenarios[0]
}

// representative is one instance type with its cheapest offer of the billing kind.
type representative struct {
	typ    catalog.InstanceType
	offer  catalog.Offer
	usd    *decimal.Decimal
	native *decimal.Decimal
	others int
	risk   *SpotRiskPrice
}

func representatives(snap *catalog.Snapshot, opts MatrixOptions, keep map[catalog.Provider]bool) []representative {
	if snap == nil {
		return nil
	}
	types := make(map[string]catalog.InstanceType, len(snap.Instances))
	for _, t := range snap.Instances {
		types[t.Key()] = t
	}
	best := map[string]*representative{}
	for _, o := range snap.Offers {
		// A suspect price never ranks: a type whose only offers are suspect is
		// left out, as one without offers is.
		if o.Billing != opts.Billing || !keep[o.Provider] || (opts.Region != "" && o.Region != opts.Region) || !o.Leads() {
			continue
		}
		t, ok := types[o.InstanceKey()]
		if !ok || len(t.Accelerators) == 0 {
			continue
		}
		// The offer's facts (offer_facts.go); spot ranks on its risk-adjusted
		// price (tco_spot.go).
		f := OfferFactsOf(o, t, snap.FX)
		r := representative{typ: t, offer: o, native: f.Hourly, usd: f.USDHour, risk: f.SpotRisk}
		if r.risk != nil && r.risk.USDPerHour != nil {
			r.usd = r.risk.USDPerHour
		}
		cur, seen := best[t.Key()]
		if !seen {
			best[t.Key()] = &r
			continue
		}
		if cheaper(r, *cur) {
			r.others = cur.others + 1
			best[t.Key()] = &r
		} else {
			cur.others++
		}
	}
	out := make([]representative, 0, len(best))
	for _, k := range slices.Sorted(maps.Keys(best)) {
		out = append(out, *best[k])
	}
	return out
}

func cheaper(a, b representative) bool {
	if (a.offer.Availability == catalog.SoldOut) != (b.offer.Availability == catalog.SoldOut) {
		return b.offer.Availability == catalog.SoldOut
	}
	switch {
	case a.usd != nil && b.usd == nil:
		return true
	case a.usd == nil && b.usd != nil:
		return false
	case a.usd != nil && !a.usd.Equal(*b.usd):
		return a.usd.LessThan(*b.usd)
	}
	return a.offer.Key() < b.offer.Key()
}

func rankScenario(s Scenario, reps []representative, gpus *catalog.GPUReference, opts MatrixOptions, providers []catalog.Provider) ScenarioRanking {
	res := ScenarioRanking{Scenario: s}
	var cands []*OfferFit
	var sps []specs
	// Costs by offer: published results give tens of thousands of figures, and
	// each offer looks only at its own.
	byOffer := map[string][]WorkCost{}
	for _, c := range opts.Costs {
		byOffer[c.OfferKey] = append(byOffer[c.OfferKey], c)
	}
	for _, r := range reps {
		f, sp := evaluate(s, gpus, r, byOffer[r.offer.Key()])
		if f.Verdict == DoesNotFit {
			// Only the failing checks say why; the rest would make a full matrix
			// several times larger.
			var fails []Check
			for _, c := range f.Checks {
				if c.Status == Fail {
					fails = append(fails, c)
				}
			}
			f.Checks = fails
			res.Rejected = append(res.Rejected, f)
			continue
		}
		cands = append(cands, &f)
		sps = append(sps, sp)
	}
	scoreAll(s, cands, sps)
	for _, f := range cands {
		res.Ranked = append(res.Ranked, *f)
	}
	sort.SliceStable(res.Ranked, func(i, j int) bool { return rankLess(res.Ranked[i], res.Ranked[j]) })

	for _, p := range providers {
		res.ByProvider = append(res.ByProvider, cell(string(p), res, opts.PerCell, func(f OfferFit) bool { return f.Offer.Provider == p }))
	}
	for _, t := range Tiers {
		res.ByTier = append(res.ByTier, cell(string(t), res, opts.PerCell, func(f OfferFit) bool { return f.Tier == t }))
	}
	return res
}

func rankLess(a, b OfferFit) bool {
	if a.Verdict != b.Verdict {
		return a.Verdict == Fits
	}
	if !a.Score.Equal(b.Score) {
		return a.Score.GreaterThan(b.Score)
	}
	switch {
	case a.USDPerHour != nil && b.USDPerHour == nil:
		return true
	case a.USDPerHour == nil && b.USDPerHour != nil:
		return false
	case a.USDPerHour != nil && !a.USDPerHour.Equal(*b.USDPerHour):
		return a.USDPerHour.LessThan(*b.USDPerHour)
	}
	return a.InstanceKey < b.InstanceKey
}

func cell(key string, res ScenarioRanking, n int, in func(OfferFit) bool) Cell {
	c := Cell{Key: key, Best: []OfferFit{}}
	for _, f := range res.Ranked {
		if !in(f) {
			continue
		}
		c.Types++
		if f.Verdict == Fits {
			c.Fits++
		} else {
			c.MayFit++
		}
		if len(c.Best) < n {
			c.Best = append(c.Best, f)
		}
	}
	rejected := 0
	for _, f := range res.Rejected {
		if in(f) {
			c.Types++
			rejected++
		}
	}
	switch {
	case c.Types == 0:
		r := reason(ReasonCellNoOffers)
		c.Reason = &r
	case len(c.Best) == 0:
		r := reason(ReasonCellNoneFits, count("n", rejected))
		c.Reason = &r
	}
	return c
}
