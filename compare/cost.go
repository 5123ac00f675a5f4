package compare

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Basis says where a cost figure's throughput comes from. The values are a public
// contract (exports, the site's labels).
type Basis string

// Bases. An estimate is never shown as a measurement.
const (
	// Measured: a benchmark run on this very instance type.
	Measured Basis = "measured"
	// Estimated: a run on another instance type with the same GPU model, scaled
	// linearly by GPU count.
	Estimated Basis = "estimated"
)

// CostPlaces is the number of decimal places cost per unit of work is rounded to
// (half away from zero), e.g. 15.288889 USD per 1M tokens. Work per hour is
// rounded to the same places. Only the final division rounds: every other step is
// exact.
const CostPlaces = 6

var secondsPerHour = decimal.NewFromInt(3600)

// WorkCost is the cost of a unit of work on one offer, from one run.
type WorkCost struct {
	OfferKey     string              `json:"offer"`
	Provider     catalog.Provider    `json:"provider"`
	InstanceType string              `json:"instance_type"`
	Region       string              `json:"region"`
	Zone         string              `json:"zone,omitempty"`
	Billing      catalog.BillingKind `json:"billing"`
	Workload     string              `json:"workload"`
	// PriceUSDPerHour is the offer's effective hourly price in USD: upfront spread
	// over the term, converted with the snapshot's FX table.
	PriceUSDPerHour decimal.Decimal `json:"price_usd_per_hour"`
	// WorkPerHour is the throughput the cost is based on, in the workload's unit of
	// work (tokens, images, frames) per hour, rounded to CostPlaces.
	WorkPerHour decimal.Decimal `json:"work_per_hour"`
	// CostPerUnit is USD per the workload's cost unit (UnitLabel), rounded to
	// CostPlaces.
	CostPerUnit decimal.Decimal `json:"cost_per_unit"`
	UnitLabel   string          `json:"unit_label"` // "USD per 1M tokens"
	Basis       Basis           `json:"basis"`
	// RunRef is the file:line of the run the figure comes from (for an estimate,
	// the run on the other instance type).
	RunRef    string `json:"run"`
	SourceURL string `json:"source_url,omitempty"`
	// Synthetic and Suspect carry the offer's flags: a cost from a synthetic or
	// implausible price is shown as such.
	Synthetic bool   `json:"synthetic,omitempty"`
	Suspect   string `json:"suspect,omitempty"`
	// Reason says where the figure comes from: cost_measured, or
	// cost_estimated_same / cost_estimated_scaled from a run on another type,
	// each with the run, its figure and the hourly rate (cost_rate).
	Reason Reason `json:"reason"`
	// Reported: the price was read by a person from a purchase page (real,
	// unverified): such a cost is shown, never the cheapest.
	Reported bool `json:"reported,omitempty"`
	// Scenario is the published result's scenario or setting ("Offline"):
	// figures of different scenarios are never compared (WorkKey).
	Scenario string `json:"scenario,omitempty"`
	// Published is set for a figure from a published result
	// (cost_published.go): where it comes from, as codes and figures.
	Published *PublishedBasis `json:"published,omitempty"`
}

// CostPerWork gives every offer of an instance type with benchmark results a cost
// per unit of work for each of its workloads: (USD per hour) / (work per hour),
// labelled measured, one figure per run. An instance type without a run for a
// workload gets an estimate from a measured run on another type with the same GPU
// model (whole GPUs only), scaled linearly by GPU count and labelled estimated.
// Estimates only scale up (or across types with as many GPUs): a type with fewer
// GPUs than the run used may not hold the job at all (a 70B model on one device),
// and the run says nothing about that. Among several such runs the one with the
// closest GPU count is used, then the most recent, then the first by file:line.
// These rules are for a team's runs on instance types; published results (a
// round, or a system that is not an instance type) are never scaled: see
// cost_published.go.
//
// Offers whose hourly USD price cannot be computed (no FX rate, zero price) and
// runs whose workload or instance type is not known are left out. The result is
// sorted by workload, scenario, offer (snapshot order) and run.
func CostPerWork(snap *catalog.Snapshot, runs []catalog.BenchmarkRun, workloads *catalog.WorkloadRegistry) []WorkCost {
	if snap == nil || workloads == nil {
		return nil
	}
	types := make(map[string]catalog.InstanceType, len(snap.Instances))
	for _, t := range snap.Instances {
		types[t.Key()] = t
	}
	offers := map[string][]catalog.Offer{}
	prices := map[string]decimal.Decimal{}
	for _, o := range snap.Offers {
		usd, err := usdPerHour(snap.FX, o)
		if err != nil || !usd.IsPositive() {
			continue
		}
		prices[o.Key()] = usd
		offers[o.InstanceKey()] = append(offers[o.InstanceKey()], o)
	}

	// Runs by workload, then by instance type; only runs that can be priced.
	// Published results follow their own, stricter rules (cost_published.go).
	byWorkload := map[string]map[string][]catalog.BenchmarkRun{}
	for _, r := range runs {
		if r.Published() {
			continue
		}
		if _, ok := workloads.Workload(r.Workload); !ok {
			continue
		}
		if _, ok := types[r.InstanceKey()]; !ok {
			continue
		}
		if byWorkload[r.Workload] == nil {
			byWorkload[r.Workload] = map[string][]catalog.BenchmarkRun{}
		}
		byWorkload[r.Workload][r.InstanceKey()] = append(byWorkload[r.Workload][r.InstanceKey()], r)
	}

	var out []WorkCost
	for _, wid := range workloads.IDs() {
		measured := byWorkload[wid]
		if len(measured) == 0 {
			continue
		}
		w, _ := workloads.Workload(wid)
		for _, key := range slices.Sorted(maps.Keys(offers)) {
			t := types[key]
			if rs := measured[key]; len(rs) > 0 {
				for _, r := range sortRuns(rs) {
					used := gpusUsed(r, t)
					for _, o := range offers[key] {
						out = append(out, newWorkCost(o, prices[o.Key()], w, r, used, used, Measured, t, t))
					}
				}
				continue
			}
			basis, from, ok := estimateBasis(t, measured, types)
			if !ok {
				continue
			}
			used := gpusUsed(basis, from)
			target := t.DeviceCount()
			for _, o := range offers[key] {
				out = append(out, newWorkCost(o, prices[o.Key()], w, basis, used, target, Estimated, from, t))
			}
		}
	}
	out = append(out, publishedCosts(newPublishedIndex(runs, workloads), types, offers, prices, workloads)...)
	rank := billingRanks()
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Workload != b.Workload:
			return a.Workload < b.Workload
		case a.Scenario != b.Scenario:
			return a.Scenario < b.Scenario
		case comparePlace(a, b) != 0:
			return comparePlace(a, b) < 0
		case a.Zone != b.Zone:
			return a.Zone < b.Zone
		case a.Billing != b.Billing:
			return rank[a.Billing] < rank[b.Billing]
		}
		return a.RunRef < b.RunRef
	})
	return out
}

// usdPerHour is the offer's effective hourly price in USD (the same figure as the
// site's price_usd_per_hour column).
func usdPerHour(fx catalog.FXTable, o catalog.Offer) (decimal.Decimal, error) {
	h, err := o.Price.Hourly(o.Billing.TermHours())
	if err != nil {
		return decimal.Zero, fmt.Errorf("offer %s: %w", o.Key(), err)
	}
	return fx.Convert(h, o.Price.Currency, catalog.USD)
}

// gpusUsed is the number of GPUs a run used: as recorded, or the whole instance.
func gpusUsed(r catalog.BenchmarkRun, t catalog.InstanceType) int {
	if r.GPUCountUsed > 0 {
		return r.GPUCountUsed
	}
	return t.DeviceCount()
}

// wholeGPUs reports whether t has one kind of accelerator, of a known model, made
// of whole devices. Linear scaling is only applied between such types: a slice of
// a GPU does not get a share of a whole GPU's throughput by arithmetic.
func wholeGPUs(t catalog.InstanceType) (string, bool) {
	if len(t.Accelerators) != 1 {
		return "", false
	}
	a := t.Accelerators[0]
	if a.Model == "" || a.Count < 1 {
		return "", false
	}
	if !a.Share.IsZero() && !a.Share.Equal(decimal.NewFromInt(1)) {
		return "", false
	}
	return a.Model, true
}

// estimateBasis picks the measured run an estimate for target is scaled from.
func estimateBasis(target catalog.InstanceType, measured map[string][]catalog.BenchmarkRun, types map[string]catalog.InstanceType) (catalog.BenchmarkRun, catalog.InstanceType, bool) {
	model, ok := wholeGPUs(target)
	if !ok {
		return catalog.BenchmarkRun{}, catalog.InstanceType{}, false
	}
	var best catalog.BenchmarkRun
	var bestType catalog.InstanceType
	found := false
	better := func(r catalog.BenchmarkRun, t catalog.InstanceType) bool {
		if !found {
			return true
		}
		d1 := abs(gpusUsed(r, t) - target.DeviceCount())
		d2 := abs(gpusUsed(best, bestType) - target.DeviceCount())
		if d1 != d2 {
			return d1 < d2
		}
		if r.RunDate != best.RunDate {
			return r.RunDate > best.RunDate
		}
		return refLess(r, best)
	}
	for _, key := range slices.Sorted(maps.Keys(measured)) {
		t := types[key]
		if m, ok := wholeGPUs(t); !ok || m != model {
			continue
		}
		for _, r := range measured[key] {
			if gpusUsed(r, t) > target.DeviceCount() {
				continue // never scale down
			}
			if better(r, t) {
				best, bestType, found = r, t, true
			}
		}
	}
	return best, bestType, found
}

func newWorkCost(o catalog.Offer, price decimal.Decimal, w catalog.Workload, r catalog.BenchmarkRun, used, target int, basis Basis, ran, on catalog.InstanceType) WorkCost {
	c := workCostFigures(o, price, w, r, used, target, basis)
	v := r.Value
	u := decimal.NewFromInt(int64(used))
	t := decimal.NewFromInt(int64(target))
	who := r.Submitter
	if r.RunDate != "" {
		who += ", " + r.RunDate
	}
	run := []ReasonFigure{text("run", r.Ref()), quantity("value", v, UnitCount), text("unit", r.Unit), text("who", who)}
	var why Reason
	switch {
	case basis == Measured:
		why = reason(ReasonCostMeasured, append(run, quantity("gpus", u, UnitGPU))...)
		if all := on.DeviceCount(); used < all {
			why = why.withParts(reason(ReasonCostPartialInstance, quantity("used", u, UnitGPU), quantity("all", decimal.NewFromInt(int64(all)), UnitGPU)))
		}
	case target == used:
		why = reason(ReasonCostEstimatedSame, append(run, text("on", ran.ID), quantity("gpus", u, UnitGPU))...)
	default:
		why = reason(ReasonCostEstimatedScaled, append(run, text("on", ran.ID), quantity("target", t, UnitGPU), quantity("used", u, UnitGPU))...)
	}
	c.Reason = why.withParts(reason(ReasonCostRate, quantity("price", price, UnitUSDHour), codeList("billing", GroupBilling, string(o.Billing)),
		quantity("work_per_hour", c.WorkPerHour, UnitCount), codeList("work", GroupWork, w.Rate.Work)))
	return c
}

// workCostFigures is a WorkCost's figures without its explanation: the work per
// hour and the cost per unit of work of the offer from the run, scaled linearly
// from used to target GPUs (factor 1 for a measurement or a published result).
func workCostFigures(o catalog.Offer, price decimal.Decimal, w catalog.Workload, r catalog.BenchmarkRun, used, target int, basis Basis) WorkCost {
	u := decimal.NewFromInt(int64(used))
	t := decimal.NewFromInt(int64(target))
	T := w.Rate.TimeSeconds
	v := r.Value
	//   rate (work/time):  effective rate = v × t/u;  work per hour = v×t×3600 / (u×T)
	//   time (time/work):  effective time = v × u/t;  work per hour = 3600×t / (v×u×T)
	// cost per CostPer units = price × CostPer / work per hour, as one division.
	var costNum, costDen, workNum, workDen decimal.Decimal
	if w.Rate.TimePerWork {
		costNum = price.Mul(w.CostPer).Mul(v).Mul(u).Mul(T)
		costDen = secondsPerHour.Mul(t)
		workNum = secondsPerHour.Mul(t)
		workDen = v.Mul(u).Mul(T)
	} else {
		costNum = price.Mul(w.CostPer).Mul(T).Mul(u)
		costDen = secondsPerHour.Mul(v).Mul(t)
		workNum = v.Mul(t).Mul(secondsPerHour)
		workDen = u.Mul(T)
	}
	return WorkCost{
		OfferKey: o.Key(), Provider: o.Provider, InstanceType: o.InstanceType, Region: o.Region, Zone: o.Zone,
		Billing: o.Billing, Workload: w.ID, PriceUSDPerHour: price,
		WorkPerHour: workNum.DivRound(workDen, CostPlaces),
		CostPerUnit: costNum.DivRound(costDen, CostPlaces),
		UnitLabel:   w.CostLabel(), Basis: basis, RunRef: r.Ref(), SourceURL: r.SourceURL,
		Synthetic: o.Synthetic, Suspect: o.Suspect, Reported: o.Reported,
	}
}

func sortRuns(rs []catalog.BenchmarkRun) []catalog.BenchmarkRun {
	s := append([]catalog.BenchmarkRun(nil), rs...)
	sort.SliceStable(s, func(i, j int) bool { return refLess(s[i], s[j]) })
	return s
}

func refLess(a, b catalog.BenchmarkRun) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Line < b.Line
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
