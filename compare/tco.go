package compare

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// TCOSchema is the version of the TCO JSON (TCOInput and TCOResult). Field names
// are a public contract: the site's calculator reads and writes the same JSON and
// is tested to agree with TCO to the cent.
const TCOSchema = 1

// Rounding of the TCO model, half away from zero, each at one stated step and
// nowhere else; every other step is exact decimal arithmetic.
const (
	// HourPlaces: hours (busy, needed, pay-as-you-go, per job).
	HourPlaces = 6
	// RatePlaces: USD rates derived by division (FX conversion, effective hourly
	// rate of a commitment).
	RatePlaces = 8
	// MoneyPlaces: each month's cost is rounded to cents, as a bill is; totals are
	// sums of those cents (plus the commitment left after the horizon, in cents).
	MoneyPlaces = 2
	// SharePlaces: utilisations and shares (0.5648 = 56.48 %).
	SharePlaces = 4
)

// TCORounding states the rounding in words; it is part of every result.
const TCORounding = "half away from zero: hours to 6 places, derived USD rates to 8, " +
	"each month's cost to cents (totals are sums of cents), cost per unit of work and per job to 6, " +
	"utilisation to 4, percentages in comparisons to whole percent; everything else exact"

var (
	one         = decimal.NewFromInt(1)
	hundred     = decimal.NewFromInt(100)
	monthHours  = catalog.HoursPerMonth // 730
	maxHorizon  = 600                   // 50 years: a guard against typos, not a business rule
	errNoOption = errors.New("no billing options")
)

// TCOInput is everything the TCO model computes from: a workload and the billing
// options to compare, with their USD rates already resolved (so the JSON alone
// reproduces the result, without the catalog or an FX table).
type TCOInput struct {
	Schema   int         `json:"schema"`
	Workload TCOWorkload `json:"workload"`
	Options  []TCOOption `json:"options"`
	Storage  *TCOStorage `json:"storage,omitempty"`
	Egress   *TCOEgress  `json:"egress,omitempty"`
	// Source says where the rates come from (snapshot date, FX table); display only.
	Source *TCOSource `json:"source,omitempty"`
	// Notes say what was left out while building the input (tco_left_out: a
	// billing kind an instance type does not offer); display only.
	Notes []Reason `json:"notes,omitempty"`
}

// TCOSource is where an input's USD rates come from: the catalog snapshot and
// its FX table. Note is free text for a hand-made input.
type TCOSource struct {
	CatalogTakenAt string           `json:"catalog_taken_at,omitempty"` // RFC 3339, UTC
	FXBase         catalog.Currency `json:"fx_base,omitempty"`
	FXDate         string           `json:"fx_date,omitempty"`
	FXSource       string           `json:"fx_source,omitempty"`
	Note           string           `json:"note,omitempty"`
}

// TCONative is an option's price as published, before conversion to USD, for
// display: the offer's price and, for another currency, the FX rate used (USD per
// one unit of its currency, from the input's source table).
type TCONative struct {
	Price   catalog.Price    `json:"price"`
	USDRate *decimal.Decimal `json:"usd_rate,omitempty"`
}

// TCOWorkload is the work to be done. The job size is in WorkUnit: reference
// GPU-hours ("gpu_hour:nvidia-v100-sxm2-32gb", WorkUnitGPUHour), hours on a base
// instance type ("hour:aws/p3.8xlarge", WorkUnitHour) or units of a benchmark
// workload ("tokens"); each option's Speed says how many such units it does per
// instance-hour. The renderers put the unit into words.
type TCOWorkload struct {
	WorkUnit     string          `json:"work_unit"`
	JobSize      decimal.Decimal `json:"job_size"`
	JobsPerMonth decimal.Decimal `json:"jobs_per_month"`
	// Utilisation is the share of billed instance time spent on the work, in
	// (0, 1]: 0.8 means a quarter more billed hours than busy hours (setup, data
	// loading, queues).
	Utilisation decimal.Decimal `json:"utilisation"`
	// IdleHoursPerMonth are hours an instance is kept up without work (a dev box
	// left running), billed on pay-as-you-go.
	IdleHoursPerMonth decimal.Decimal `json:"idle_hours_per_month"`
	HorizonMonths     int             `json:"horizon_months"`
}

// TCOStorage is storage kept for the whole horizon (datasets, checkpoints).
type TCOStorage struct {
	GB            decimal.Decimal `json:"gb"`
	USDPerGBMonth decimal.Decimal `json:"usd_per_gb_month"`
}

// TCOEgress is data sent out of the cloud each month.
type TCOEgress struct {
	GBPerMonth decimal.Decimal `json:"gb_per_month"`
	USDPerGB   decimal.Decimal `json:"usd_per_gb"`
}

// TCOOption is one way to buy the capacity: a commitment (reserved or
// subscription), pay-as-you-go (on-demand or spot), or both (a committed base
// with pay-as-you-go burst).
type TCOOption struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Instance string `json:"instance"` // provider/type; options of one type share it
	Hardware string `json:"hardware"` // "8x NVIDIA A100 SXM4 80 GB"
	// Speed is work per instance-hour in the workload's unit.
	Speed      Speed          `json:"speed"`
	Commitment *TCOCommitment `json:"commitment,omitempty"`
	PayAsYouGo *TCOPayAsYouGo `json:"pay_as_you_go,omitempty"`
}

// TCOCommitment is a reserved instance or a subscription, per instance.
type TCOCommitment struct {
	Billing catalog.BillingKind `json:"billing"`
	Offer   string              `json:"offer,omitempty"`
	// USDPerMonth is the recurring charge per instance per month (an hourly
	// reserved rate × 730).
	USDPerMonth decimal.Decimal `json:"usd_per_month"`
	// UpfrontUSD is paid per instance at the start of each term (an all-upfront
	// reservation, or a yearly subscription paid in advance).
	UpfrontUSD decimal.Decimal `json:"upfront_usd"`
	TermMonths int             `json:"term_months"`
	// Instances committed. 0: worked out from the workload: enough instances for
	// every needed hour (at least 1) when alone, or the instances busy all month
	// (needed hours / 730, rounded down) under a pay-as-you-go burst.
	Instances int `json:"instances"`
	// Native is the price as published and its conversion, for display.
	Native *TCONative `json:"native,omitempty"`
}

// TCOPayAsYouGo is on-demand or spot billing per instance-hour.
type TCOPayAsYouGo struct {
	Billing    catalog.BillingKind `json:"billing"`
	Offer      string              `json:"offer,omitempty"`
	USDPerHour decimal.Decimal     `json:"usd_per_hour"`
	// InterruptionOverhead is the share of hours lost to interruptions and run
	// again (spot): 0.1 bills and takes 10 % more hours.
	// InterruptionOverhead is a flat overhead, kept for inputs that state one;
	// Risk, the interruption model, replaces it (only one of them is set).
	InterruptionOverhead decimal.Decimal `json:"interruption_overhead"`
	Native               *TCONative      `json:"native,omitempty"`
	Risk                 *TCOSpotRisk    `json:"risk,omitempty"`
}

// TCOResult is the model's answer with its inputs, so that every figure can be
// recomputed from what is shown next to it.
type TCOResult struct {
	Schema      int               `json:"schema"`
	Rounding    string            `json:"rounding"`
	Input       TCOInput          `json:"input"`
	Options     []TCOOptionResult `json:"options"`
	BreakEvens  []BreakEven       `json:"break_evens"`
	Comparisons []Comparison      `json:"comparisons"`
}

// TCOOptionResult is one option over the horizon.
type TCOOptionResult struct {
	ID string `json:"id"`
	// WorkPerMonth = job_size × jobs_per_month (exact).
	WorkPerMonth decimal.Decimal `json:"work_per_month"`
	// BusyHoursPerMonth = work_per_month / speed.
	BusyHoursPerMonth decimal.Decimal `json:"busy_hours_per_month"`
	// NeededHoursPerMonth = work_per_month / (speed × utilisation) + idle hours:
	// the instance-hours the workload occupies.
	NeededHoursPerMonth decimal.Decimal `json:"needed_hours_per_month"`
	CommittedInstances  int             `json:"committed_instances"`
	// CommittedHoursPerMonth = committed instances × 730.
	CommittedHoursPerMonth decimal.Decimal `json:"committed_hours_per_month"`
	// CommitmentUse = min(needed, committed) / committed hours.
	CommitmentUse decimal.Decimal `json:"commitment_use"`
	// PayAsYouGoHoursPerMonth = (needed − committed, at least 0) × (1 + interruption overhead).
	PayAsYouGoHoursPerMonth decimal.Decimal `json:"pay_as_you_go_hours_per_month"`
	// USDPerHour is the option's price per instance-hour: the pay-as-you-go rate,
	// or for a commitment (usd_per_month × term + upfront) / (term × 730).
	USDPerHour decimal.Decimal `json:"usd_per_hour"`
	// HoursPerJob is the time to finish one job on one instance:
	// job_size / (speed × utilisation), × (1 + overhead) on spot alone.
	HoursPerJob decimal.Decimal `json:"hours_per_job"`
	// MonthlyUSD[i] is month i+1's cost in cents; CumulativeUSD the running sum.
	MonthlyUSD    []decimal.Decimal `json:"monthly_usd"`
	CumulativeUSD []decimal.Decimal `json:"cumulative_usd"`
	// PaidInHorizonUSD is the last cumulative figure; CommittedAfterHorizonUSD the
	// recurring charges still owed for a term that runs past the horizon.
	PaidInHorizonUSD         decimal.Decimal `json:"paid_in_horizon_usd"`
	CommittedAfterHorizonUSD decimal.Decimal `json:"committed_after_horizon_usd"`
	TotalUSD                 decimal.Decimal `json:"total_usd"`
	// SpotInterruptionsPerMonth and SpotLostHoursPerMonth are the interruption
	// model's expected interruptions of the pay-as-you-go hours and the hours
	// they cost (spot with a risk model only).
	SpotInterruptionsPerMonth *decimal.Decimal `json:"spot_interruptions_per_month,omitempty"`
	SpotLostHoursPerMonth     *decimal.Decimal `json:"spot_lost_hours_per_month,omitempty"`
	// CostPerUnitUSD = total / (work_per_month × months); CostPerJobUSD = total /
	// (jobs_per_month × months); zero when there is no work.
	CostPerUnitUSD decimal.Decimal `json:"cost_per_unit_usd"`
	CostPerJobUSD  decimal.Decimal `json:"cost_per_job_usd"`
	// Steps are the formulas with their figures (step_* codes), in order.
	Steps []Reason `json:"steps"`
}

// BreakEven is the utilisation above which a commitment costs less than
// on-demand for the same instance type.
type BreakEven struct {
	Commitment string `json:"commitment"` // option id
	OnDemand   string `json:"on_demand"`  // option id
	// HoursPerMonth = (usd_per_month × term + upfront) / (term × on-demand rate),
	// to 2 places; Utilisation is the same over 730 hours, to 4 places.
	HoursPerMonth decimal.Decimal `json:"hours_per_month"`
	Utilisation   decimal.Decimal `json:"utilisation"`
	// Reason is breakeven_pays_off or breakeven_never with the figures.
	Reason Reason `json:"reason"`
}

// Comparison sets two options of different instance types side by side: price
// per hour, time per job and total.
type Comparison struct {
	A string `json:"a"` // the option that costs more per hour
	B string `json:"b"`
	// Percentages, whole: A's hourly price over B's, how much sooner A finishes a
	// job (negative: later), and A's total over B's (negative: less).
	HourlyMorePct decimal.Decimal `json:"hourly_more_pct"`
	SoonerPct     decimal.Decimal `json:"sooner_pct"`
	TotalMorePct  decimal.Decimal `json:"total_more_pct"`
	// Reason is tco_comparison with the names, hours per job and totals the
	// sentence "8x A100 costs 168% more per hour than 4x V100 but finishes 80%
	// sooner" is made of.
	Reason Reason `json:"reason"`
}

// Validate checks the input and says what is wrong, naming the field: every
// figure within its range of TCOBounds (the tco command's flags have the
// same), and the options' shape. An option is named by an excerpt of its id.
func (in TCOInput) Validate() error {
	if in.Schema != TCOSchema {
		return fmt.Errorf("schema %d: this build reads TCO schema %d", in.Schema, TCOSchema)
	}
	if err := in.validateBounds(); err != nil {
		return err
	}
	if len(in.Options) == 0 {
		return errNoOption
	}
	seen := map[string]bool{}
	for i, o := range in.Options {
		if o.ID == "" {
			return fmt.Errorf("options[%d]: id is empty", i)
		}
		id := catalog.Excerpt(o.ID)
		if seen[o.ID] {
			return fmt.Errorf("options[%d]: duplicate id %s", i, id)
		}
		seen[o.ID] = true
		if err := o.validateBounds(); err != nil {
			return err
		}
		if o.Commitment == nil && o.PayAsYouGo == nil {
			return fmt.Errorf("option %s: needs a commitment, a pay_as_you_go part, or both", id)
		}
		if p := o.PayAsYouGo; p != nil && p.Risk != nil {
			if p.Billing != catalog.Spot || !p.InterruptionOverhead.IsZero() {
				return fmt.Errorf("option %s: pay_as_you_go.risk is for spot, without an interruption_overhead", id)
			}
			if err := p.Risk.validate(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// TCO computes every option's cost over the horizon, the break-even
// utilisations and the speed-versus-price comparisons. It is a pure function of
// the input.
func TCO(in TCOInput) (TCOResult, error) {
	if err := in.Validate(); err != nil {
		return TCOResult{}, fmt.Errorf("tco: %w", err)
	}
	res := TCOResult{Schema: TCOSchema, Rounding: TCORounding, Input: in, BreakEvens: []BreakEven{}, Comparisons: []Comparison{}}
	for _, o := range in.Options {
		r, err := optionTCO(in, o)
		if err != nil {
			return TCOResult{}, fmt.Errorf("tco: option %s: %w", catalog.Excerpt(o.ID), err)
		}
		res.Options = append(res.Options, r)
	}
	res.BreakEvens = breakEvens(in.Options)
	res.Comparisons = comparisons(in, res.Options)
	return res, nil
}

func optionTCO(in TCOInput, o TCOOption) (TCOOptionResult, error) {
	w := in.Workload
	months := decimal.NewFromInt(int64(w.HorizonMonths))
	r := TCOOptionResult{ID: o.ID, Steps: []Reason{}}
	step := func(c ReasonCode, figs ...ReasonFigure) { r.Steps = append(r.Steps, reason(c, figs...)) }
	hours := func(name string, v decimal.Decimal) ReasonFigure { return quantity(name, v, UnitHours) }
	usd := func(name string, v decimal.Decimal) ReasonFigure { return quantity(name, v, UnitUSD) }
	num := func(name string, v decimal.Decimal) ReasonFigure { return quantity(name, v, UnitCount) }
	unit := codeList("unit", GroupWorkUnit, w.WorkUnit)

	r.WorkPerMonth = w.JobSize.Mul(w.JobsPerMonth)
	step(ReasonStepWorkPerMonth, num("jobs", w.JobsPerMonth), num("job_size", w.JobSize), unit, num("work", r.WorkPerMonth))
	sp := o.Speed.WorkPerHour
	r.BusyHoursPerMonth = r.WorkPerMonth.DivRound(sp, HourPlaces)
	step(ReasonStepBusyHours, num("work", r.WorkPerMonth), num("speed", sp), codeList("basis", GroupBasis, string(o.Speed.Basis)), hours("hours", r.BusyHoursPerMonth))
	r.NeededHoursPerMonth = r.WorkPerMonth.DivRound(sp.Mul(w.Utilisation), HourPlaces).Add(w.IdleHoursPerMonth)
	step(ReasonStepNeededHours, num("work", r.WorkPerMonth), num("speed", sp), quantity("utilisation", w.Utilisation, UnitShare),
		hours("idle", w.IdleHoursPerMonth), hours("hours", r.NeededHoursPerMonth))

	overhead := decimal.Zero
	var risk *TCOSpotRisk
	if o.PayAsYouGo != nil {
		overhead, risk = o.PayAsYouGo.InterruptionOverhead, o.PayAsYouGo.Risk
	}
	if risk != nil {
		r.Steps = append(r.Steps, risk.riskStep())
	}
	r.HoursPerJob = w.JobSize.DivRound(sp.Mul(w.Utilisation), HourPlaces)
	switch {
	case o.Commitment == nil && risk != nil:
		before := r.HoursPerJob
		n, lost := risk.expected(before)
		r.HoursPerJob = before.Add(lost)
		step(ReasonStepHoursPerJobRisk, num("job_size", w.JobSize), num("speed", sp), quantity("utilisation", w.Utilisation, UnitShare),
			hours("hours_before", before), num("rate", *risk.InterruptionsPerMonth), num("interruptions", n), hours("loss", risk.lossHours()),
			hours("lost", lost), hours("hours", r.HoursPerJob))
	case o.Commitment == nil && overhead.IsPositive():
		r.HoursPerJob = r.HoursPerJob.Mul(one.Add(overhead)).Round(HourPlaces)
		step(ReasonStepHoursPerJobIO, num("job_size", w.JobSize), num("speed", sp), quantity("utilisation", w.Utilisation, UnitShare),
			quantity("overhead", overhead, UnitShare), hours("hours", r.HoursPerJob))
	default:
		step(ReasonStepHoursPerJob, num("job_size", w.JobSize), num("speed", sp), quantity("utilisation", w.Utilisation, UnitShare),
			hours("hours", r.HoursPerJob))
	}

	payg := r.NeededHoursPerMonth
	if c := o.Commitment; c != nil {
		n := c.Instances
		if n == 0 {
			q := r.NeededHoursPerMonth.Div(monthHours) // exact enough: only its floor/ceil is used
			if o.PayAsYouGo == nil {
				n = int(q.Ceil().IntPart())
				if n < 1 {
					n = 1
				}
				step(ReasonStepCommitCeil, hours("needed", r.NeededHoursPerMonth), count("instances", n))
			} else {
				n = int(q.Floor().IntPart())
				step(ReasonStepCommitFloor, hours("needed", r.NeededHoursPerMonth), count("instances", n),
					codeList("billing", GroupBilling, string(o.PayAsYouGo.Billing)))
			}
		}
		r.CommittedInstances = n
		r.CommittedHoursPerMonth = decimal.NewFromInt(int64(n)).Mul(monthHours)
		if n > 0 {
			used := decimal.Min(r.NeededHoursPerMonth, r.CommittedHoursPerMonth)
			r.CommitmentUse = used.DivRound(r.CommittedHoursPerMonth, SharePlaces)
			step(ReasonStepCommitUse, hours("used", used), hours("committed", r.CommittedHoursPerMonth), quantity("use", r.CommitmentUse, UnitShare))
		}
		payg = decimal.Max(decimal.Zero, r.NeededHoursPerMonth.Sub(r.CommittedHoursPerMonth))
		if payg.IsPositive() && o.PayAsYouGo == nil {
			return r, fmt.Errorf("%s needed hours a month exceed the %s committed (%d instances × 730); add a pay_as_you_go part or commit more instances",
				r.NeededHoursPerMonth, r.CommittedHoursPerMonth, n)
		}
		r.USDPerHour = commitmentHourly(*c)
		step(ReasonStepCommitHourly, usd("monthly", c.USDPerMonth), quantity("term", decimal.NewFromInt(int64(c.TermMonths)), UnitMonths),
			usd("upfront", c.UpfrontUSD), quantity("rate", r.USDPerHour, UnitUSDHour))
	}
	if p := o.PayAsYouGo; p != nil {
		r.PayAsYouGoHoursPerMonth = payg.Mul(one.Add(p.InterruptionOverhead)).Round(HourPlaces)
		billing := codeList("billing", GroupBilling, string(p.Billing))
		switch {
		case risk != nil:
			n, lost := risk.expected(payg)
			r.PayAsYouGoHoursPerMonth = payg.Add(lost)
			r.SpotInterruptionsPerMonth, r.SpotLostHoursPerMonth = &n, &lost
			step(ReasonStepPAYGRisk, billing, hours("hours_before", payg), num("rate", *risk.InterruptionsPerMonth), num("interruptions", n),
				hours("loss", risk.lossHours()), hours("lost", lost), hours("hours", r.PayAsYouGoHoursPerMonth))
		case p.InterruptionOverhead.IsZero():
			step(ReasonStepPAYGHours, billing, hours("hours", r.PayAsYouGoHoursPerMonth))
		default:
			step(ReasonStepPAYGOverhead, billing, hours("hours_before", payg), quantity("overhead", p.InterruptionOverhead, UnitShare),
				hours("hours", r.PayAsYouGoHoursPerMonth))
		}
		if o.Commitment == nil {
			r.USDPerHour = p.USDPerHour
		}
	}

	extras := decimal.Zero
	if s := in.Storage; s != nil {
		extras = extras.Add(s.GB.Mul(s.USDPerGBMonth))
	}
	if e := in.Egress; e != nil {
		extras = extras.Add(e.GBPerMonth.Mul(e.USDPerGB))
	}

	var cum decimal.Decimal
	for m := 0; m < w.HorizonMonths; m++ {
		cost := extras
		var terms []Reason
		if c := o.Commitment; c != nil {
			n := decimal.NewFromInt(int64(r.CommittedInstances))
			cost = cost.Add(n.Mul(c.USDPerMonth))
			if !c.USDPerMonth.IsZero() {
				terms = append(terms, reason(ReasonTermCommitMonthly, num("instances", n), usd("monthly", c.USDPerMonth)))
			}
			if m%c.TermMonths == 0 && !c.UpfrontUSD.IsZero() {
				cost = cost.Add(n.Mul(c.UpfrontUSD))
				terms = append(terms, reason(ReasonTermUpfront, num("instances", n), usd("upfront", c.UpfrontUSD)))
			}
		}
		if p := o.PayAsYouGo; p != nil {
			cost = cost.Add(r.PayAsYouGoHoursPerMonth.Mul(p.USDPerHour))
			terms = append(terms, reason(ReasonTermPAYG, hours("hours", r.PayAsYouGoHoursPerMonth), quantity("rate", p.USDPerHour, UnitUSDHour)))
		}
		if !extras.IsZero() {
			terms = append(terms, reason(ReasonTermExtras, usd("usd", extras)))
		}
		if len(terms) == 0 {
			terms = append(terms, reason(ReasonTermZero))
		}
		cost = cost.Round(MoneyPlaces)
		cum = cum.Add(cost)
		r.MonthlyUSD = append(r.MonthlyUSD, cost)
		r.CumulativeUSD = append(r.CumulativeUSD, cum)
		// The steps show the first month and every month whose formula differs
		// (an upfront payment), not all of a 36-month series.
		if m == 0 || (o.Commitment != nil && m%o.Commitment.TermMonths == 0) {
			r.Steps = append(r.Steps, reason(ReasonStepMonth, count("month", m+1), usd("cost", cost)).withParts(terms...))
		}
	}
	r.PaidInHorizonUSD = cum
	if c := o.Commitment; c != nil {
		if left := (c.TermMonths - w.HorizonMonths%c.TermMonths) % c.TermMonths; left > 0 {
			n := decimal.NewFromInt(int64(r.CommittedInstances))
			r.CommittedAfterHorizonUSD = n.Mul(c.USDPerMonth).Mul(decimal.NewFromInt(int64(left))).Round(MoneyPlaces)
			step(ReasonStepAfterHorizon, num("instances", n), usd("monthly", c.USDPerMonth),
				quantity("months_left", decimal.NewFromInt(int64(left)), UnitMonths), usd("usd", r.CommittedAfterHorizonUSD))
		}
	}
	r.TotalUSD = r.PaidInHorizonUSD.Add(r.CommittedAfterHorizonUSD)
	step(ReasonStepTotal, usd("paid", r.PaidInHorizonUSD), quantity("months", months, UnitMonths), usd("after", r.CommittedAfterHorizonUSD),
		usd("total", r.TotalUSD))
	if work := r.WorkPerMonth.Mul(months); work.IsPositive() {
		r.CostPerUnitUSD = r.TotalUSD.DivRound(work, CostPlaces)
		r.CostPerJobUSD = r.TotalUSD.DivRound(w.JobsPerMonth.Mul(months), CostPlaces)
		step(ReasonStepCostPerUnit, unit, usd("total", r.TotalUSD), num("work", work), usd("per_unit", r.CostPerUnitUSD),
			num("jobs", w.JobsPerMonth.Mul(months)), usd("per_job", r.CostPerJobUSD))
	}
	return r, nil
}

// commitmentHourly is a commitment's price per committed instance-hour.
func commitmentHourly(c TCOCommitment) decimal.Decimal {
	term := decimal.NewFromInt(int64(c.TermMonths))
	return c.USDPerMonth.Mul(term).Add(c.UpfrontUSD).DivRound(term.Mul(monthHours), RatePlaces)
}

// breakEvens pairs every option with a commitment and no burst with the
// on-demand-only option of the same instance type.
func breakEvens(opts []TCOOption) []BreakEven {
	out := []BreakEven{}
	for _, c := range opts {
		if c.Commitment == nil || c.PayAsYouGo != nil {
			continue
		}
		for _, od := range opts {
			if od.Instance != c.Instance || !onDemandOnly(od) || !od.PayAsYouGo.USDPerHour.IsPositive() {
				continue
			}
			cm := c.Commitment
			term := decimal.NewFromInt(int64(cm.TermMonths))
			perTerm := cm.USDPerMonth.Mul(term).Add(cm.UpfrontUSD)
			rate := od.PayAsYouGo.USDPerHour
			b := BreakEven{Commitment: c.ID, OnDemand: od.ID,
				HoursPerMonth: perTerm.DivRound(term.Mul(rate), MoneyPlaces),
				Utilisation:   perTerm.DivRound(term.Mul(rate).Mul(monthHours), SharePlaces)}
			code := ReasonBreakEven
			if b.Utilisation.GreaterThanOrEqual(one) {
				code = ReasonBreakEvenNever
			}
			b.Reason = reason(code, codeList("billing", GroupBilling, string(cm.Billing)), quantity("rate", rate, UnitUSDHour),
				quantity("hours", b.HoursPerMonth, UnitHours), quantity("utilisation", b.Utilisation.Mul(hundred), UnitPercent))
			out = append(out, b)
			break
		}
	}
	return out
}

// onDemandOnly reports whether o is paid on demand alone, with no commitment.
func onDemandOnly(o TCOOption) bool {
	return o.Commitment == nil && o.PayAsYouGo != nil && o.PayAsYouGo.Billing == catalog.OnDemand
}

// comparisons sets the representative options of each pair of instance types
// side by side: the first on-demand-only option of a type, else its first
// option. Pairs follow input order; A is the one that costs more per hour.
func comparisons(in TCOInput, rs []TCOOptionResult) []Comparison {
	type rep struct {
		o TCOOption
		r TCOOptionResult
	}
	var reps []rep
	idx := map[string]int{}
	for i, o := range in.Options {
		j, seen := idx[o.Instance]
		switch {
		case !seen:
			idx[o.Instance] = len(reps)
			reps = append(reps, rep{o, rs[i]})
		case onDemandOnly(o) && !onDemandOnly(reps[j].o):
			reps[j] = rep{o, rs[i]}
		}
	}
	out := []Comparison{}
	for i := 0; i < len(reps); i++ {
		for j := i + 1; j < len(reps); j++ {
			a, b := reps[i], reps[j]
			if !a.r.USDPerHour.IsPositive() || !b.r.USDPerHour.IsPositive() || !a.r.HoursPerJob.IsPositive() || !b.r.HoursPerJob.IsPositive() {
				continue
			}
			if a.r.USDPerHour.LessThan(b.r.USDPerHour) || (a.r.USDPerHour.Equal(b.r.USDPerHour) && b.r.HoursPerJob.LessThan(a.r.HoursPerJob)) {
				a, b = b, a
			}
			out = append(out, compare(in.Workload, a.o, a.r, b.o, b.r))
		}
	}
	return out
}

// pct is (x/y − 1) × 100 rounded to a whole percent.
func pct(x, y decimal.Decimal) decimal.Decimal {
	return x.Sub(y).Mul(hundred).DivRound(y, 0)
}

func compare(w TCOWorkload, ao TCOOption, a TCOOptionResult, bo TCOOption, b TCOOptionResult) Comparison {
	c := Comparison{A: ao.ID, B: bo.ID,
		HourlyMorePct: pct(a.USDPerHour, b.USDPerHour),
	}
	// sooner = (1 − a/b) × 100, whole percent.
	c.SoonerPct = b.HoursPerJob.Sub(a.HoursPerJob).Mul(hundred).DivRound(b.HoursPerJob, 0)
	name := func(o TCOOption) string {
		if o.Hardware != "" {
			return o.Hardware
		}
		return o.Instance
	}
	c.Reason = reason(ReasonTCOComparison, text("a", name(ao)), text("b", name(bo)),
		quantity("hourly_more", c.HourlyMorePct, UnitPercent), quantity("sooner", c.SoonerPct, UnitPercent),
		quantity("longer", pct(a.HoursPerJob, b.HoursPerJob), UnitPercent),
		quantity("a_hours", a.HoursPerJob, UnitHours), quantity("b_hours", b.HoursPerJob, UnitHours))
	if b.TotalUSD.IsPositive() {
		c.TotalMorePct = pct(a.TotalUSD, b.TotalUSD)
		c.Reason.Figures = append(c.Reason.Figures, quantity("total_more", c.TotalMorePct, UnitPercent),
			quantity("a_total", a.TotalUSD, UnitUSD), quantity("b_total", b.TotalUSD, UnitUSD),
			quantity("months", decimal.NewFromInt(int64(w.HorizonMonths)), UnitMonths))
	}
	return c
}
