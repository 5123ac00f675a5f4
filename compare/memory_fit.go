package compare

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// From a memory estimate to offers: every instance type is represented by its
// cheapest offer of one billing kind in one currency (MemoryCandidates); an
// instance fits when its accelerators hold the estimate's total, split evenly
// over all of them (tensor or fully sharded data parallel), and the fits are
// ranked by price (FitMemory). Splitting over more than one GPU needs a fast
// link: each fit says whether its GPUs talk over NVLink, PCIe only, or an
// unknown link.

// MemorySource says where a per-device memory figure comes from.
type MemorySource string

// Memory sources.
const (
	// MemoryFromReference is the GPU reference's memory_gb: the vendor's
	// nominal figure (24 GB for an A10G, of which AWS reports 22.35 GiB usable).
	MemoryFromReference MemorySource = "reference"
	// MemoryFromProvider is the provider's per-device GiB, converted to GB.
	MemoryFromProvider MemorySource = "provider"
)

// gbPerGiB converts GiB to GB exactly: 2³⁰ / 10⁹.
var gbPerGiB = decimal.RequireFromString("1.073741824")

// memoryPerDevice is the GPU memory, in GB, that the fit counts for one device
// of acc. It is the one place that decides it, and it agrees with the scenario
// rules (catalog.Accelerator.RuleMemoryGiB): the GPU reference's nominal class
// where the reference knows the model (an A10G is 24 GB, though AWS reports
// 22.35 GiB usable; each GPU of a dual-GPU K80 board, share 0.5, is 12 GB; a
// 1/8 slice of an L4 is 3 GB), set on the catalog by catalog.Reconcile;
// otherwise the provider's per-device GiB, converted to GB. An accelerator that
// was not reconciled (a hand-made catalog) is reconciled here against ref. ok
// is false when neither figure is known.
func memoryPerDevice(acc catalog.Accelerator, ref *catalog.GPUReference) (decimal.Decimal, MemorySource, bool) {
	if acc.NominalMemoryGB == nil && ref != nil {
		acc = ref.Reconcile(catalog.InstanceType{Accelerators: []catalog.Accelerator{acc}}).Accelerators[0]
	}
	if acc.NominalMemoryGB != nil && acc.NominalMemoryGB.IsPositive() {
		return *acc.NominalMemoryGB, MemoryFromReference, true
	}
	if acc.MemoryGiB.IsPositive() && !acc.MemoryFromReference {
		return acc.MemoryGiB.Mul(gbPerGiB), MemoryFromProvider, true
	}
	return decimal.Zero, "", false
}

// MemoryCandidate is one instance type as the fit sees it: its accelerators'
// memory and link, and its cheapest offer of the billing kind, priced per hour
// in the chosen currency (effective: upfront spread over the term; converted
// through the snapshot's FX table; rounded to 8 places).
type MemoryCandidate struct {
	Instance string           `json:"instance"` // provider/type
	Provider catalog.Provider `json:"provider"`
	Type     string           `json:"type"`
	GPUModel string           `json:"gpu_model,omitempty"`
	GPUName  string           `json:"gpu_name"`
	// MappingConfidence is the alias table's confidence in GPUModel where it
	// is not certain (likely, uncertain): outputs mark the name uncertain.
	MappingConfidence string `json:"mapping_confidence,omitempty"`
	Devices           int    `json:"devices"`
	Partial           bool   `json:"partial,omitempty"` // vGPU or partitioned slices
	// MemoryEachGB is nil when unknown.
	MemoryEachGB *decimal.Decimal `json:"memory_each_gb"`
	MemorySource MemorySource     `json:"memory_source,omitempty"`
	// MemoryEachReportedGiB is, where the memory comes from the provider, its
	// figure as it reports it (GiB): words show it in the provider's unit, not
	// converted into a GB column (a 48 GiB figure is not "51.54 GB").
	MemoryEachReportedGiB *decimal.Decimal `json:"memory_each_reported_gib,omitempty"`
	// Link is nvlink, pcie, single or unknown (the scenario rules' reading).
	Link string `json:"link"`
	// Training, NativeBF16 and NativeFP8 are the GPU reference's capability
	// facts (yes, no; absent: unknown), which the capability rule reads.
	Training       catalog.Capability   `json:"training,omitempty"`
	NativeBF16     catalog.Capability   `json:"native_bf16,omitempty"`
	NativeFP8      catalog.Capability   `json:"native_fp8,omitempty"`
	Offer          string               `json:"offer"`
	Region         string               `json:"region"`
	Availability   catalog.Availability `json:"availability"`
	Price          decimal.Decimal      `json:"price"`
	NativePrice    decimal.Decimal      `json:"native_price"`
	NativeCurrency catalog.Currency     `json:"native_currency"`
	// PricePerMonth is, for a subscription or reservation, Price over a
	// month (catalog.MonthlyFromHourly): the cost per month shown beside its
	// hourly equivalent. Nil for pay-as-you-go billing.
	PricePerMonth *decimal.Decimal `json:"price_per_month,omitempty"`
}

// CandidateOptions choose the offers MemoryCandidates prices.
type CandidateOptions struct {
	Billing  catalog.BillingKind
	Currency catalog.Currency
}

// LeftOut counts the instance types with accelerators that have no candidate:
// no offer of the billing kind, or only prices that may not lead an answer
// (suspect, synthetic, reported or estimated: catalog.Offer.Leads).
type LeftOut struct {
	NoOffer            int `json:"no_offer"`
	SuspectOrSynthetic int `json:"suspect_or_synthetic"`
}

// fitKinds are the accelerator kinds a model's memory can be split over.
var fitKinds = map[catalog.AcceleratorKind]bool{catalog.KindGPU: true, catalog.KindNPU: true}

// CandidateSet is every candidate of one billing kind and currency, by
// instance key, with the FX table the prices were converted through and what
// was left out.
type CandidateSet struct {
	Billing    catalog.BillingKind `json:"billing"`
	Currency   catalog.Currency    `json:"currency"`
	FXDate     string              `json:"fx_date"`
	FXSource   string              `json:"fx_source"`
	Candidates []MemoryCandidate   `json:"candidates"`
	LeftOut    LeftOut             `json:"left_out"`
}

// MemoryCandidates lists, by instance key, every GPU or NPU instance type of the
// snapshot with its cheapest offer of the billing kind: an available (or
// unknown-stock) offer before a sold-out one, then the lowest price, then the
// offer key. Suspect and synthetic prices are never used.
func MemoryCandidates(snap *catalog.Snapshot, ref *catalog.GPUReference, opts CandidateOptions) (CandidateSet, error) {
	if opts.Billing == "" {
		opts.Billing = catalog.OnDemand
	}
	if opts.Currency == "" {
		opts.Currency = catalog.USD
	}
	set := CandidateSet{Billing: opts.Billing, Currency: opts.Currency, Candidates: []MemoryCandidate{}}
	if snap == nil {
		return set, nil
	}
	set.FXDate, set.FXSource = snap.FX.Date, snap.FX.Source
	if _, err := snap.FX.Rate(opts.Currency); err != nil {
		return set, fmt.Errorf("price in %s: %w", opts.Currency, err)
	}
	types := map[string]catalog.InstanceType{}
	for _, t := range snap.Instances {
		if a, ok := t.PrimaryAccelerator(); ok && fitKinds[a.Kind] {
			types[t.Key()] = t
		}
	}
	best := map[string]MemoryCandidate{}
	excluded := map[string]bool{}
	for _, o := range snap.Offers {
		t, ok := types[o.InstanceKey()]
		if !ok || o.Billing != opts.Billing {
			continue
		}
		if !o.Leads() || o.Synthetic {
			excluded[t.Key()] = true
			continue
		}
		native, err := o.Price.Hourly(o.Billing.TermHours())
		if err != nil {
			continue
		}
		price, err := snap.FX.Convert(native, o.Price.Currency, opts.Currency)
		if err != nil {
			return set, fmt.Errorf("offer %s: %w", o.Key(), err)
		}
		c := MemoryCandidate{Offer: o.Key(), Region: o.Region, Availability: o.Availability,
			Price: price.Round(RatePlaces), NativePrice: native.Round(RatePlaces), NativeCurrency: o.Price.Currency}
		if o.Billing.TermHours().IsPositive() {
			pm := catalog.MonthlyFromHourly(c.Price)
			c.PricePerMonth = &pm
		}
		if cur, seen := best[t.Key()]; seen && !cheaperCandidate(c, cur) {
			continue
		}
		best[t.Key()] = c
	}
	for _, k := range slices.Sorted(maps.Keys(types)) {
		c, ok := best[k]
		if !ok {
			if excluded[k] {
				set.LeftOut.SuspectOrSynthetic++
			} else {
				set.LeftOut.NoOffer++
			}
			continue
		}
		fillHardware(&c, types[k], ref)
		set.Candidates = append(set.Candidates, c)
	}
	return set, nil
}

func cheaperCandidate(a, b MemoryCandidate) bool {
	if (a.Availability == catalog.SoldOut) != (b.Availability == catalog.SoldOut) {
		return b.Availability == catalog.SoldOut
	}
	if !a.Price.Equal(b.Price) {
		return a.Price.LessThan(b.Price)
	}
	return a.Offer < b.Offer
}

// fillHardware sets a candidate's instance and accelerator facts.
func fillHardware(c *MemoryCandidate, t catalog.InstanceType, ref *catalog.GPUReference) {
	a, _ := t.PrimaryAccelerator()
	sp := specsOf(ref, t)
	c.Instance, c.Provider, c.Type = t.Key(), t.Provider, t.ID
	c.GPUModel, c.GPUName, c.Devices, c.Partial, c.Link = a.Model, a.Name, a.Count, sp.partial, sp.link
	if sp.mapped {
		c.GPUName = sp.model.Name
		c.Training, c.NativeBF16, c.NativeFP8 = sp.model.Training, sp.model.NativeBF16, sp.model.NativeFP8
		if a.MappingConfidence != "" && a.MappingConfidence != "certain" {
			c.MappingConfidence = a.MappingConfidence
		}
	}
	if mem, src, ok := memoryPerDevice(a, ref); ok {
		c.MemoryEachGB, c.MemorySource = &mem, src
		if src == MemoryFromProvider {
			gib := a.MemoryGiB
			c.MemoryEachReportedGiB = &gib
		}
	}
}

// FitOptions choose what FitMemory lists.
type FitOptions struct {
	// Limit is how many fits are listed (0: all); the misses are not limited
	// (one row per GPU model).
	Limit int
	// GPU, when set, keeps only instance types with this GPU model.
	GPU string
}

// Fit verdicts and reasons. A fit's reason says how the model is placed: on
// one device, or split over several with NVLink, over PCIe only, or over a link
// the catalog does not know; a miss's reason is short (the total is more than
// the devices hold).
const (
	FitFits   = "fits"
	FitMayFit = "may_fit" // the estimate is a lower bound
	FitMisses = "does_not_fit"

	ReasonSingle      = "single"
	ReasonSplitNVLink = "split_nvlink"
	ReasonSplitPCIe   = "split_pcie"
	ReasonSplitLink   = "split_link_unknown"
	ReasonShort       = "short"
)

// MemoryFitRow is one instance type against the estimate.
type MemoryFitRow struct {
	MemoryCandidate
	// HaveGB = devices × memory each; NeedGB is the estimate's total in GB
	// (exact); NeedPerGPUGB = NeedGB / devices, to 2 places; GPUsNeeded =
	// ceil(NeedGB / memory each).
	HaveGB       decimal.Decimal `json:"have_gb"`
	NeedGB       decimal.Decimal `json:"need_gb"`
	NeedPerGPUGB decimal.Decimal `json:"need_per_gpu_gb"`
	GPUsNeeded   int64           `json:"gpus_needed"`
	Verdict      string          `json:"verdict"`
	Reason       string          `json:"reason"`
	// For a miss: the other instance types of this GPU model that miss too, and
	// the fewest devices of this GPU model that fit on an instance type here (0:
	// none does).
	OtherTypes int `json:"other_types,omitempty"`
	FitsFrom   int `json:"fits_from,omitempty"`
}

// MemoryOffers is the fit of an estimate against a set of candidates: the fits
// cheapest first, and for each GPU model that misses, its largest
// configuration that misses (nearest miss first).
type MemoryOffers struct {
	Billing     catalog.BillingKind `json:"billing"`
	Currency    catalog.Currency    `json:"currency"`
	FXDate      string              `json:"fx_date"`
	FXSource    string              `json:"fx_source"`
	GPU         string              `json:"gpu,omitempty"`
	NeedGB      decimal.Decimal     `json:"need_gb"`
	LowerBound  bool                `json:"lower_bound"`
	Fits        []MemoryFitRow      `json:"fits"`
	FitsTotal   int                 `json:"fits_total"`
	Misses      []MemoryFitRow      `json:"misses"`
	MissesTotal int                 `json:"misses_total"`
	// UnknownMemory counts instance types whose GPU memory is unknown.
	UnknownMemory int     `json:"unknown_memory"`
	LeftOut       LeftOut `json:"left_out"`
}

// FitMemory fits an estimate's total against a candidate set.
func FitMemory(e MemoryEstimate, cs CandidateSet, fo FitOptions) MemoryOffers {
	need := e.Total.Bytes.Shift(-9) // GB, exact
	res := MemoryOffers{Billing: cs.Billing, Currency: cs.Currency, FXDate: cs.FXDate, FXSource: cs.FXSource, GPU: fo.GPU,
		NeedGB: need, LowerBound: e.LowerBound, Fits: []MemoryFitRow{}, Misses: []MemoryFitRow{}, LeftOut: cs.LeftOut}
	var fits, misses []MemoryFitRow
	smallestFit := map[string]int{}
	training, native := e.Input.Task.training(), NativePrecision(e.Input)
	for _, c := range cs.Candidates {
		if fo.GPU != "" && c.GPUModel != fo.GPU {
			continue
		}
		if c.MemoryEachGB == nil || c.Devices < 1 {
			res.UnknownMemory++
			continue
		}
		r := fitRow(c, need, e.LowerBound)
		// Hardware that cannot run the task at the precision asked never
		// fits, whatever its memory: the capability is the reason shown.
		if why := CapabilityMiss(candidateCapabilities(c), training, native); why != "" {
			r.Verdict, r.Reason = FitMisses, string(why)
		}
		if r.Verdict == FitMisses {
			misses = append(misses, r)
			continue
		}
		fits = append(fits, r)
		if k := gpuKey(c); smallestFit[k] == 0 || c.Devices < smallestFit[k] {
			smallestFit[k] = c.Devices
		}
	}
	sort.SliceStable(fits, func(i, j int) bool {
		a, b := fits[i], fits[j]
		if !a.Price.Equal(b.Price) {
			return a.Price.LessThan(b.Price)
		}
		return a.Instance < b.Instance
	})
	res.FitsTotal = len(fits)
	if fo.Limit > 0 && len(fits) > fo.Limit {
		fits = fits[:fo.Limit]
	}
	res.Fits = append(res.Fits, fits...)
	res.MissesTotal = len(misses)
	res.Misses = append(res.Misses, nearestMisses(misses, smallestFit)...)
	return res
}

// fitRow sets one candidate against the need (GB, exact).
func fitRow(c MemoryCandidate, need decimal.Decimal, lowerBound bool) MemoryFitRow {
	each := *c.MemoryEachGB
	n := decimal.NewFromInt(int64(c.Devices))
	r := MemoryFitRow{MemoryCandidate: c, HaveGB: each.Mul(n), NeedGB: need, NeedPerGPUGB: need.DivRound(n, SizePlaces)}
	if each.IsPositive() {
		q, rem := need.QuoRem(each, 0) // exact: q whole, rem = need − q × each
		r.GPUsNeeded = q.IntPart()
		if rem.IsPositive() {
			r.GPUsNeeded++
		}
	}
	switch {
	case need.GreaterThan(r.HaveGB):
		r.Verdict, r.Reason = FitMisses, ReasonShort
		return r
	case lowerBound:
		r.Verdict = FitMayFit
	default:
		r.Verdict = FitFits
	}
	switch {
	case c.Devices == 1:
		r.Reason = ReasonSingle
	case c.Link == "nvlink":
		r.Reason = ReasonSplitNVLink
	case c.Link == "pcie":
		r.Reason = ReasonSplitPCIe
	default:
		r.Reason = ReasonSplitLink
	}
	return r
}

// gpuKey groups candidates by GPU model (the provider's name when unmapped).
func gpuKey(c MemoryCandidate) string {
	if c.GPUModel != "" {
		return c.GPUModel
	}
	return "name:" + c.GPUName
}

// nearestMisses keeps, per GPU model, the configuration with the most memory
// (then the cheapest, then by key), nearest miss first.
func nearestMisses(misses []MemoryFitRow, smallestFit map[string]int) []MemoryFitRow {
	groups := map[string][]MemoryFitRow{}
	for _, m := range misses {
		groups[gpuKey(m.MemoryCandidate)] = append(groups[gpuKey(m.MemoryCandidate)], m)
	}
	out := make([]MemoryFitRow, 0, len(groups))
	for k, g := range groups {
		sort.SliceStable(g, func(i, j int) bool { return missLess(g[i], g[j]) })
		r := g[0]
		r.OtherTypes, r.FitsFrom = len(g)-1, smallestFit[k]
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return missLess(out[i], out[j]) })
	return out
}

func missLess(a, b MemoryFitRow) bool {
	if c := b.HaveGB.Cmp(a.HaveGB); c != 0 {
		return c < 0
	}
	if !a.Price.Equal(b.Price) {
		return a.Price.LessThan(b.Price)
	}
	return cmp.Less(a.Instance, b.Instance)
}

// MemoryAnswer is an estimate with its offers: what `gpuatlas fit --format
// json` writes and what the site's estimator computes, field for field.
type MemoryAnswer struct {
	Schema   int            `json:"schema"`
	Estimate MemoryEstimate `json:"estimate"`
	Offers   MemoryOffers   `json:"offers"`
}
