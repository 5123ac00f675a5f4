package compare

import (
	"fmt"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// The TCO presets: for each scenario a comparison of a few representative offers
// from its ranking (cumulative cost over the horizon, cost per unit of work,
// break-even utilisation of commitments), with the options of a few more offers
// that a calculator can add, each option in one billing group. The site draws
// them and its calculator recomputes the same model in the browser from Preset
// and the offers' options (ScenarioTCO.Input is the calculator's arithmetic).

const (
	// TCOMaxOffers is how many offers of a scenario a calculator can pick from.
	TCOMaxOffers = 5
	// TCOPresetOffers is how many of those, the first, make the preset comparison.
	TCOPresetOffers = 3
	// tcoCandidates bounds how far down a ranking offers are looked for.
	tcoCandidates = 60
)

// Billing groups: the calculator's billing mix. Each offer has at most one option
// per group.
const (
	TCOGroupOnDemand = "on_demand"
	TCOGroupSpot     = "spot"
	TCOGroupCommit1y = "commit_1y" // the cheapest 1-year commitment: reserved 1y or yearly subscription
	TCOGroupCommit3y = "commit_3y" // the cheapest 3-year reservation
	TCOGroupSubMonth = "subscription_month"
	TCOGroupBurst    = "burst" // the 1-year (else monthly) commitment as a base, spot (else on-demand) burst
)

// TCOGroups lists the billing groups in display order.
var TCOGroups = []string{TCOGroupOnDemand, TCOGroupSpot, TCOGroupCommit1y, TCOGroupCommit3y, TCOGroupSubMonth, TCOGroupBurst}

// TCOPresetGroups are the billing groups of the preset comparison.
var TCOPresetGroups = []string{TCOGroupOnDemand, TCOGroupCommit1y}

// ScenarioTCO is one scenario's comparison: the offers a calculator offers, and
// the preset's input and result.
type ScenarioTCO struct {
	ID       string
	Scenario Scenario
	WorkUnit string
	RefGPU   string
	// BaseSpeed is the base instance type's work per hour: the hours a month
	// entered are hours on it, job_size = hours × BaseSpeed.
	BaseSpeed decimal.Decimal
	Base      string // the base's instance key
	Source    *TCOSource
	Offers    []TCOOffer
	Preset    TCOInput
	Result    TCOResult
}

// TCOOffer is one instance type in one region with an option per billing group
// it has.
type TCOOffer struct {
	Instance string // provider/type
	Type     string // type id
	Region   string
	Provider catalog.Provider
	Hardware string
	GPUModel string
	Preset   bool
	Options  []TCOGroupOption
}

// TCOGroupOption is an offer's option in one billing group.
type TCOGroupOption struct {
	Group  string
	Option TCOOption
}

// Key is the offer's key in a TCOChoice: instance + "@" + region.
func (o TCOOffer) Key() string { return o.Instance + "@" + o.Region }

// TCOChoice is what a calculator's controls hold; the preset is one choice.
type TCOChoice struct {
	Hours, Utilisation, Idle decimal.Decimal
	// CheckpointMinutes and RestartMinutes are the spot interruption model's
	// inputs; SpotRate the interruptions a month for spot offers with no
	// published band (nil: none entered, and those options are left out).
	CheckpointMinutes, RestartMinutes decimal.Decimal
	SpotRate                          *decimal.Decimal
	Months                            int
	Offers                            map[string]bool // TCOOffer.Key
	Groups                            map[string]bool
}

// TCOPresetDefaults is the preset workload: busy hours a month on the base (the
// first offer's instance type), utilisation, idle hours, horizon, the spot
// model's default checkpoint and restart minutes and no entered rate; no
// offers or groups chosen.
func TCOPresetDefaults() TCOChoice {
	return TCOChoice{Hours: decimal.NewFromInt(500), Utilisation: decimal.RequireFromString("0.9"), Idle: decimal.Zero,
		CheckpointMinutes: DefaultCheckpointMinutes, RestartMinutes: DefaultRestartMinutes, Months: 12}
}

// Input is the TCO input of a choice, built exactly as the site's calculator
// (static/tco.js) builds it: the job is the entered hours on the base, the
// options are those of the chosen offers and billing groups in offer order, spot
// options take the entered checkpoint and restart minutes, and those without a
// band the entered rate (without one they are left out).
func (t *ScenarioTCO) Input(st TCOChoice) TCOInput {
	in := TCOInput{Schema: TCOSchema, Source: t.Source, Workload: TCOWorkload{
		WorkUnit: t.WorkUnit, JobSize: st.Hours.Mul(t.BaseSpeed), JobsPerMonth: decimal.NewFromInt(1),
		Utilisation: st.Utilisation, IdleHoursPerMonth: st.Idle, HorizonMonths: st.Months,
	}}
	for _, o := range t.Offers {
		if !st.Offers[o.Key()] {
			continue
		}
		for _, g := range o.Options {
			if !st.Groups[g.Group] {
				continue
			}
			opt := g.Option
			if p := opt.PayAsYouGo; p != nil && p.Risk != nil {
				c, r := *p, *p.Risk
				r.CheckpointMinutes, r.RestartMinutes = st.CheckpointMinutes, st.RestartMinutes
				if r.Band == "" {
					if st.SpotRate == nil {
						continue
					}
					v := *st.SpotRate
					r.InterruptionsPerMonth = &v
				}
				c.Risk = &r
				opt.PayAsYouGo = &c
			}
			in.Options = append(in.Options, opt)
		}
	}
	return in
}

// PresetChoice is the preset: the default workload, the preset offers and the
// preset billing groups.
func (t *ScenarioTCO) PresetChoice() TCOChoice {
	st := TCOPresetDefaults()
	st.Offers, st.Groups = map[string]bool{}, map[string]bool{}
	for _, o := range t.Offers {
		if o.Preset {
			st.Offers[o.Key()] = true
		}
	}
	for _, g := range TCOPresetGroups {
		st.Groups[g] = true
	}
	return st
}

// TCOLeftOut is a ranked offer left out of a scenario's comparison because its
// TCO input could not be built (no spec figure to compare its speed with the
// reference GPU's, a price that cannot be converted or spread over a term).
type TCOLeftOut struct {
	Scenario     string
	Instance     string // provider/type
	Region       string
	ReferenceGPU string
	Err          error
}

func (l TCOLeftOut) Error() string {
	return fmt.Sprintf("scenario %s: %s in %s left out of the TCO comparison (reference GPU %s): %v", l.Scenario, l.Instance, l.Region, l.ReferenceGPU, l.Err)
}

func (l TCOLeftOut) Unwrap() error { return l.Err }

// TCOPresetSet is every scenario's comparison and what was left out of them.
type TCOPresetSet struct {
	// Scenarios holds a comparison per scenario that has one, in the matrix's
	// scenario order; a scenario none of whose ranked offers can be compared
	// (no USD price, no spec figure) has none.
	Scenarios []ScenarioTCO
	// LeftOut lists every offer whose TCO input failed to build, once per
	// scenario, offer and reference GPU, in the order they were tried.
	LeftOut []TCOLeftOut
}

// Scenario returns the comparison of the scenario with the given id.
func (s TCOPresetSet) Scenario(id string) (*ScenarioTCO, bool) {
	for i := range s.Scenarios {
		if s.Scenarios[i].ID == id {
			return &s.Scenarios[i], true
		}
	}
	return nil, false
}

// TCOPresets picks each scenario's offers from its ranking in m (which must be
// ranked over snap) and computes its preset. An error says that a preset could
// not be computed; offers whose input cannot be built are left out and listed.
func TCOPresets(m Matrix, snap *catalog.Snapshot, gpus *catalog.GPUReference) (TCOPresetSet, error) {
	var set TCOPresetSet
	kinds := billingIndex(snap)
	for _, r := range m.Scenarios {
		t, left, err := newScenarioTCO(snap, gpus, kinds, r)
		set.LeftOut = append(set.LeftOut, left...)
		if err != nil {
			return TCOPresetSet{}, err
		}
		if t != nil {
			set.Scenarios = append(set.Scenarios, *t)
		}
	}
	return set, nil
}

// billingIndex lists the billing kinds each instance type has plausible offers
// of in each region: a suspect price is no option of a preset.
func billingIndex(snap *catalog.Snapshot) map[string][]catalog.BillingKind {
	seen := map[string]map[catalog.BillingKind]bool{}
	for _, o := range snap.Offers {
		if !o.Leads() {
			continue
		}
		k := o.InstanceKey() + "@" + o.Region
		if seen[k] == nil {
			seen[k] = map[catalog.BillingKind]bool{}
		}
		seen[k][o.Billing] = true
	}
	out := map[string][]catalog.BillingKind{}
	for k, have := range seen {
		for _, b := range catalog.BillingKinds {
			if have[b] {
				out[k] = append(out[k], b)
			}
		}
	}
	return out
}

// newScenarioTCO picks a scenario's offers from its ranking and computes the
// preset; nil when no ranked offer can be compared (no USD price, no spec
// figure). It lists the offers whose input failed to build.
func newScenarioTCO(snap *catalog.Snapshot, ref *catalog.GPUReference, kinds map[string][]catalog.BillingKind, r ScenarioRanking) (*ScenarioTCO, []TCOLeftOut, error) {
	sc := r.Scenario
	var cands []OfferFit
	for _, f := range r.Ranked {
		if len(cands) == tcoCandidates {
			break
		}
		if f.USDPerHour != nil && f.USDPerHour.IsPositive() && f.GPUModel != "" {
			cands = append(cands, f)
		}
	}
	t := &ScenarioTCO{ID: sc.ID, Scenario: sc}
	var left []TCOLeftOut
	tried := map[[3]string]bool{}
	offer := func(f OfferFit, refGPU string) (TCOOffer, bool) {
		o, ok, err := t.offer(snap, ref, kinds, f, refGPU)
		if k := [3]string{f.InstanceKey, f.Offer.Region, refGPU}; err != nil && !tried[k] {
			tried[k] = true
			left = append(left, TCOLeftOut{Scenario: sc.ID, Instance: f.InstanceKey, Region: f.Offer.Region, ReferenceGPU: refGPU, Err: err})
		}
		return o, ok
	}
	// The base: the best-ranked candidate whose GPU is in the reference with a
	// compute figure of the scenario; the work is measured in GPU-hours on one
	// of its GPUs.
	for _, f := range cands {
		o, ok := offer(f, f.GPUModel)
		if !ok {
			continue
		}
		t.RefGPU, t.Base = f.GPUModel, f.InstanceKey
		t.BaseSpeed = o.Options[0].Option.Speed.WorkPerHour
		o.Preset = true
		t.Offers = append(t.Offers, o)
		break
	}
	if len(t.Offers) == 0 {
		return nil, left, nil
	}
	used := map[string]bool{t.Base: true}
	providers := map[catalog.Provider]bool{t.Offers[0].Provider: true}
	add := func(f OfferFit, preset bool) {
		if used[f.InstanceKey] || len(t.Offers) >= TCOMaxOffers {
			return
		}
		if o, ok := offer(f, t.RefGPU); ok {
			used[f.InstanceKey] = true
			providers[o.Provider] = true
			o.Preset = preset
			t.Offers = append(t.Offers, o)
		}
	}
	// The preset: the best-ranked offer, the best of another provider, and the
	// cheapest per hour of the rest that fit.
	for _, f := range cands {
		if !providers[f.Offer.Provider] {
			add(f, true)
			break
		}
	}
	byPrice := append([]OfferFit(nil), cands...)
	sort.SliceStable(byPrice, func(i, j int) bool { return byPrice[i].USDPerHour.LessThan(*byPrice[j].USDPerHour) })
	for _, f := range byPrice {
		if !used[f.InstanceKey] && f.Verdict == Fits {
			add(f, len(t.Offers) < TCOPresetOffers)
			break
		}
	}
	// Then more of the ranking for the calculator to pick from.
	for _, f := range cands {
		add(f, len(t.Offers) < TCOPresetOffers)
	}
	t.Preset = t.Input(t.PresetChoice())
	res, err := TCO(t.Preset)
	if err != nil {
		return nil, left, fmt.Errorf("scenario %s: preset TCO: %w", sc.ID, err)
	}
	t.Result = res
	return t, left, nil
}

// offer builds the options of one ranked offer's instance type in its region: one
// per billing group, through NewTCOInput (USD rates, speed relative to one refGPU
// from the scenario's compute figures). ok is false when the offer cannot be
// compared: its input failed to build (err says why) or it has no on-demand
// option.
func (t *ScenarioTCO) offer(snap *catalog.Snapshot, ref *catalog.GPUReference, kinds map[string][]catalog.BillingKind, f OfferFit, refGPU string) (TCOOffer, bool, error) {
	region := f.Offer.Region
	var plans []string
	for _, b := range kinds[f.InstanceKey+"@"+region] {
		plans = append(plans, string(b))
	}
	if len(plans) == 0 {
		return TCOOffer{}, false, nil
	}
	in, err := NewTCOInput(snap, ref, TCORequest{
		Instances: []string{f.InstanceKey}, Region: region, Billing: plans, KeepUnratedSpot: true,
		ReferenceGPU: refGPU, Figures: t.Scenario.Compute,
		Workload: TCOWorkload{JobSize: decimal.NewFromInt(1), JobsPerMonth: decimal.NewFromInt(1), Utilisation: decimal.NewFromInt(1), HorizonMonths: 1},
	})
	if err != nil {
		return TCOOffer{}, false, err
	}
	if len(in.Options) == 0 {
		// Billing is given, so NewTCOInput errs rather than leaving a plan out.
		return TCOOffer{}, false, fmt.Errorf("no billing option of %s in %s", f.InstanceKey, region)
	}
	if t.WorkUnit == "" {
		t.WorkUnit, t.Source = in.Workload.WorkUnit, in.Source
	}
	o := TCOOffer{Instance: f.InstanceKey, Type: f.Offer.InstanceType, Region: region, Provider: f.Offer.Provider, Hardware: in.Options[0].Hardware, GPUModel: f.GPUModel}
	var od, spot, c1, c3, sub *TCOOption
	cheaperCommit := func(a, b *TCOOption) bool {
		if b == nil {
			return true
		}
		return perMonth(a.Commitment).LessThan(perMonth(b.Commitment))
	}
	for i := range in.Options {
		op := &in.Options[i]
		switch {
		case op.PayAsYouGo != nil && op.PayAsYouGo.Billing == catalog.OnDemand:
			od = op
		case op.PayAsYouGo != nil && op.PayAsYouGo.Billing == catalog.Spot:
			spot = op
		case op.Commitment != nil && op.Commitment.TermMonths == 12 && cheaperCommit(op, c1):
			c1 = op
		case op.Commitment != nil && op.Commitment.TermMonths == 36 && cheaperCommit(op, c3):
			c3 = op
		case op.Commitment != nil && op.Commitment.TermMonths == 1:
			sub = op
		}
	}
	if od == nil {
		return TCOOffer{}, false, nil
	}
	for _, g := range []struct {
		group string
		op    *TCOOption
	}{{TCOGroupOnDemand, od}, {TCOGroupSpot, spot}, {TCOGroupCommit1y, c1}, {TCOGroupCommit3y, c3}, {TCOGroupSubMonth, sub}} {
		if g.op != nil {
			o.Options = append(o.Options, TCOGroupOption{Group: g.group, Option: *g.op})
		}
	}
	// The burst: a committed base (1 year, else monthly) with spot (else
	// on-demand) for the hours above it, as `gpuatlas tco --billing C+spot`.
	base, burst := c1, spot
	if base == nil {
		base = sub
	}
	if burst == nil {
		burst = od
	}
	if base != nil {
		c := *base.Commitment
		p := *burst.PayAsYouGo
		plan := string(c.Billing) + "+" + string(p.Billing)
		b := TCOOption{ID: f.InstanceKey + "/" + region + "/" + plan, Instance: base.Instance, Hardware: base.Hardware, Speed: base.Speed,
			Label: optionLabel(base.Hardware, f.InstanceKey, plan), Commitment: &c, PayAsYouGo: &p}
		o.Options = append(o.Options, TCOGroupOption{Group: TCOGroupBurst, Option: b})
	}
	return o, true, nil
}

// perMonth is a commitment's average cost a month over its term.
func perMonth(c *TCOCommitment) decimal.Decimal {
	term := decimal.NewFromInt(int64(c.TermMonths))
	return c.USDPerMonth.Mul(term).Add(c.UpfrontUSD).Div(term)
}
