package compare

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Bound is the accepted range of a figure (one of a TCO input, a share of the
// memory estimator's flags): wide enough for any real workload, narrow enough that a typo or a hostile value is refused
// with the range instead of computed (a month has at most 744 hours; 1e999
// would print a thousand digits). The tco command's flags and a TCO input
// file (tco --input, TCOInput.Validate) are held to the same table.
type Bound struct {
	// Flag is the tco flag that sets the figure ("" for a figure only a file
	// holds); Field is its place in the TCO input JSON.
	Flag, Field string
	Min, Max    decimal.Decimal
	MinOpen     bool // Min itself is refused
	Share       bool // a share of 1: 0.8, or on the command line 80%
	Integer     bool // a whole number
}

// tcoMaxPlaces and tcoMaxDigits bound a figure's precision in a file: no
// input the tco command or the site writes has more than 18 digits after the
// point (a share given as a percentage with 9 decimals has 11), and none has
// more than 40 digits in all; a longer one would only slow every step down.
const (
	tcoMaxPlaces = 18
	tcoMaxDigits = 40
)

func tcoInt(n int64) decimal.Decimal { return decimal.NewFromInt(n) }

// TCOBounds are the figures' ranges, in the order they are checked.
var TCOBounds = []Bound{
	// Hours of work a month on the base instance type: up to 744 (a 31-day
	// month) on each of the most instances a commitment covers (10,000): the
	// model runs a workload larger than one instance on several.
	{Flag: "hours-per-month", Field: "workload.job_size (hours on the base instance)", Min: tcoInt(0), Max: tcoInt(744 * 10_000), MinOpen: true},
	{Flag: "job-gpu-hours", Field: "workload.job_size (reference GPU-hours)", Min: tcoInt(0), Max: tcoInt(1_000_000), MinOpen: true},
	{Field: "workload.job_size", Min: tcoInt(0), Max: tcoInt(1_000_000_000_000), MinOpen: true},
	{Flag: "jobs-per-month", Field: "workload.jobs_per_month", Min: tcoInt(0), Max: tcoInt(1_000_000)},
	{Flag: "utilisation", Field: "workload.utilisation", Min: tcoInt(0), Max: tcoInt(1), MinOpen: true, Share: true},
	{Flag: "idle-hours", Field: "workload.idle_hours_per_month", Min: tcoInt(0), Max: tcoInt(744)},
	{Flag: "months", Field: "workload.horizon_months", Min: tcoInt(1), Max: tcoInt(int64(maxHorizon)), Integer: true},
	{Flag: "storage-gb", Field: "storage.gb", Min: tcoInt(0), Max: tcoInt(1_000_000_000)},
	{Flag: "storage-usd-per-gb-month", Field: "storage.usd_per_gb_month", Min: tcoInt(0), Max: tcoInt(1000)},
	{Flag: "egress-gb-per-month", Field: "egress.gb_per_month", Min: tcoInt(0), Max: tcoInt(1_000_000_000)},
	{Flag: "egress-usd-per-gb", Field: "egress.usd_per_gb", Min: tcoInt(0), Max: tcoInt(1000)},
	{Flag: "spot-overhead", Field: "pay_as_you_go.interruption_overhead", Min: tcoInt(0), Max: tcoInt(1), Share: true},
	{Flag: "checkpoint-minutes", Field: "pay_as_you_go.risk.checkpoint_minutes", Min: tcoInt(0), Max: maxMinutes, MinOpen: true},
	{Flag: "restart-minutes", Field: "pay_as_you_go.risk.restart_minutes", Min: tcoInt(0), Max: maxMinutes},
	{Flag: "interruptions-per-month", Field: "pay_as_you_go.risk.interruptions_per_month", Min: tcoInt(0), Max: maxRate},
	{Flag: "reserved-instances", Field: "commitment.instances", Min: tcoInt(0), Max: tcoInt(10_000), Integer: true},
	{Field: "speed.work_per_hour", Min: tcoInt(0), Max: tcoInt(1_000_000_000_000), MinOpen: true},
	{Field: "pay_as_you_go.usd_per_hour", Min: tcoInt(0), Max: tcoInt(1_000_000)},
	{Field: "commitment.usd_per_month", Min: tcoInt(0), Max: tcoInt(1_000_000_000)},
	{Field: "commitment.upfront_usd", Min: tcoInt(0), Max: tcoInt(100_000_000_000)},
	{Field: "commitment.term_months", Min: tcoInt(1), Max: tcoInt(120), Integer: true},
}

// TCOFlagBound is the bound of a tco flag.
func TCOFlagBound(flag string) (Bound, bool) {
	for _, b := range TCOBounds {
		if b.Flag == flag {
			return b, true
		}
	}
	return Bound{}, false
}

// tcoBound is the bound of a field of the input JSON; it panics on a field
// the table lacks (a programming error, caught by every test of Validate).
func tcoBound(field string) Bound {
	for _, b := range TCOBounds {
		if b.Field == field {
			return b
		}
	}
	panic("compare: no TCO bound for " + field)
}

// jobSizeBound is the bound of workload.job_size in its unit: the flag's that
// sets it for hours on a base instance or reference GPU-hours, a wide one
// for another unit (a hand-made input's "tokens").
func jobSizeBound(unit string) Bound {
	switch {
	case strings.HasPrefix(unit, WorkUnitHour):
		b, _ := TCOFlagBound("hours-per-month")
		return b
	case strings.HasPrefix(unit, WorkUnitGPUHour):
		b, _ := TCOFlagBound("job-gpu-hours")
		return b
	}
	return tcoBound("workload.job_size")
}

// Check reports whether d is in the bound; the error says the range. The
// number's size is looked at before its value, so that a file's 1e500000000
// is refused without the arithmetic that would write out its digits.
func (b Bound) Check(d decimal.Decimal) error {
	if !d.IsZero() {
		switch {
		case d.NumDigits() > tcoMaxDigits:
			return fmt.Errorf("more than %d digits", tcoMaxDigits)
		case d.Exponent() > tcoMaxDigits:
			return fmt.Errorf("out of range: want %s", b)
		case d.Exponent() < -(tcoMaxPlaces + tcoMaxDigits):
			return fmt.Errorf("more than %d digits after the point", tcoMaxPlaces)
		}
	}
	if d.LessThan(b.Min) || (b.MinOpen && d.Equal(b.Min)) || d.GreaterThan(b.Max) {
		return fmt.Errorf("out of range: want %s", b)
	}
	if b.Integer && !d.IsInteger() {
		return fmt.Errorf("not a whole number: want %s", b)
	}
	if d.Exponent() < -tcoMaxPlaces && !d.Round(tcoMaxPlaces).Equal(d) {
		return fmt.Errorf("more than %d digits after the point", tcoMaxPlaces)
	}
	return nil
}

// check is Check for a field of the input, naming it, the value (an excerpt)
// and the flag that has the same range.
func (b Bound) check(where string, d decimal.Decimal) error {
	err := b.Check(d)
	if err == nil {
		return nil
	}
	if b.Flag != "" {
		return fmt.Errorf("%s %s: %w (as --%s)", where, boundValue(d), err, b.Flag)
	}
	return fmt.Errorf("%s %s: %w", where, boundValue(d), err)
}

// boundValue quotes a refused figure for a message: as written out when
// that is short, else as digits and exponent ("1e+5000"), or only its size.
func boundValue(d decimal.Decimal) string {
	switch exp := d.Exponent(); {
	case d.NumDigits() > tcoMaxDigits:
		return "(a number of more than " + fmt.Sprint(tcoMaxDigits) + " digits)"
	case exp > tcoMaxDigits || exp < -(tcoMaxPlaces+tcoMaxDigits):
		return catalog.Excerpt(fmt.Sprintf("%se%+d", d.Coefficient(), exp))
	}
	return catalog.Excerpt(d.String())
}

// String says the range in words: "more than 0 and at most 744",
// "0 to 10,000"; a share's in percent, as a reader gives it (the calculator's
// field, 80% on the command line), with the share of 1 a file holds after it:
// "0 % to 100 % (as a share: 0 to 1)".
func (b Bound) String() string {
	span := func(lo, hi string) string {
		if b.MinOpen {
			return "more than " + lo + " and at most " + hi
		}
		return lo + " to " + hi
	}
	s := span(boundThousands(b.Min.String()), boundThousands(b.Max.String()))
	if b.Share {
		hundred := decimal.NewFromInt(100)
		s = span(b.Min.Mul(hundred).String()+" %", b.Max.Mul(hundred).String()+" %") + " (as a share: " + s + ")"
	}
	return s
}

// boundThousands writes a whole number with commas between groups of three.
func boundThousands(s string) string {
	if strings.ContainsAny(s, ".-") {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// boundCheck is a figure of an input and its bound.
type boundCheck struct {
	b     Bound
	where string
	v     decimal.Decimal
}

// validateBounds checks the workload, storage and egress figures of the input
// against TCOBounds.
func (in TCOInput) validateBounds() error {
	w := in.Workload
	checks := []boundCheck{
		{jobSizeBound(w.WorkUnit), "workload.job_size", w.JobSize},
		{tcoBound("workload.jobs_per_month"), "workload.jobs_per_month", w.JobsPerMonth},
		{tcoBound("workload.utilisation"), "workload.utilisation", w.Utilisation},
		{tcoBound("workload.idle_hours_per_month"), "workload.idle_hours_per_month", w.IdleHoursPerMonth},
		{tcoBound("workload.horizon_months"), "workload.horizon_months", tcoInt(int64(w.HorizonMonths))},
	}
	if s := in.Storage; s != nil {
		checks = append(checks, boundCheck{tcoBound("storage.gb"), "storage.gb", s.GB},
			boundCheck{tcoBound("storage.usd_per_gb_month"), "storage.usd_per_gb_month", s.USDPerGBMonth})
	}
	if e := in.Egress; e != nil {
		checks = append(checks, boundCheck{tcoBound("egress.gb_per_month"), "egress.gb_per_month", e.GBPerMonth},
			boundCheck{tcoBound("egress.usd_per_gb"), "egress.usd_per_gb", e.USDPerGB})
	}
	for _, c := range checks {
		if err := c.b.check(c.where, c.v); err != nil {
			return err
		}
	}
	return nil
}

// validateBounds checks an option's figures against TCOBounds, naming the
// option (its id as an excerpt).
func (o TCOOption) validateBounds() error {
	field := func(f string, v decimal.Decimal) error {
		return tcoBound(f).check("option "+catalog.Excerpt(o.ID)+": "+f, v)
	}
	if err := field("speed.work_per_hour", o.Speed.WorkPerHour); err != nil {
		return err
	}
	if p := o.PayAsYouGo; p != nil {
		if err := field("pay_as_you_go.usd_per_hour", p.USDPerHour); err != nil {
			return err
		}
		if err := field("pay_as_you_go.interruption_overhead", p.InterruptionOverhead); err != nil {
			return err
		}
		if r := p.Risk; r != nil {
			if err := field("pay_as_you_go.risk.checkpoint_minutes", r.CheckpointMinutes); err != nil {
				return err
			}
			if err := field("pay_as_you_go.risk.restart_minutes", r.RestartMinutes); err != nil {
				return err
			}
			if r.InterruptionsPerMonth != nil {
				if err := field("pay_as_you_go.risk.interruptions_per_month", *r.InterruptionsPerMonth); err != nil {
					return err
				}
			}
		}
	}
	if c := o.Commitment; c != nil {
		for _, f := range []struct {
			name string
			v    decimal.Decimal
		}{{"commitment.usd_per_month", c.USDPerMonth}, {"commitment.upfront_usd", c.UpfrontUSD},
			{"commitment.term_months", tcoInt(int64(c.TermMonths))}, {"commitment.instances", tcoInt(int64(c.Instances))}} {
			if err := field(f.name, f.v); err != nil {
				return err
			}
		}
	}
	return nil
}
