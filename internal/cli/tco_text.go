package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// writeTCOText writes `gpuatlas tco` in the language of w: every word from the
// site's message catalog (cli.tco.* and the reasons); figures for people in the
// tables and sentences, exact in the steps (the formulas a reader checks);
// every data field (an option's id, the work unit, a note) through
// termtext.Field, since a hand-made --input holds any text.
func writeTCOText(out io.Writer, w words.ReasonWords, r compare.TCOResult) error {
	in := r.Input
	wl := in.Workload
	unit := tf(w.WorkUnit(wl.WorkUnit))
	fmt.Fprintln(out, w.T("cli.tco.header", "months", w.Q(decimalInt(wl.HorizonMonths), compare.UnitMonths),
		"jobs", words.FormatQuantity(wl.JobsPerMonth), "size", words.FormatQuantity(wl.JobSize), "unit", unit,
		"util", w.Q(wl.Utilisation, compare.UnitShare), "idle", w.Q(wl.IdleHoursPerMonth, compare.UnitHours)))
	if s := in.Storage; s != nil {
		fmt.Fprintln(out, w.T("cli.tco.storage", "gb", words.FormatQuantity(s.GB), "price", w.Q(s.USDPerGBMonth, compare.UnitUSD)))
	}
	if e := in.Egress; e != nil {
		fmt.Fprintln(out, w.T("cli.tco.egress", "gb", words.FormatQuantity(e.GBPerMonth), "price", w.Q(e.USDPerGB, compare.UnitUSD)))
	}
	if s := in.Source; s != nil {
		if s.CatalogTakenAt != "" {
			fmt.Fprintln(out, w.T("cli.tco.rates", "taken", tf(s.CatalogTakenAt), "base", tf(string(s.FXBase)), "date", tf(s.FXDate), "source", tf(s.FXSource)))
		}
		if s.Note != "" {
			fmt.Fprintln(out, w.T("cli.tco.rates_note", "note", tf(s.Note)))
		}
	}
	for _, n := range in.Notes {
		fmt.Fprintln(out, w.T("cli.tco.note", "note", tf(w.Reason(n))))
	}
	fmt.Fprintln(out, w.T("cli.tco.rounding"))
	fmt.Fprintln(out)

	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", w.T("cli.tco.col_option"), w.T("cli.tco.col_speed"), w.T("cli.tco.col_usd_hour"),
		w.T("cli.tco.col_hours_job"), w.T("cli.tco.col_needed"), w.T("cli.tco.col_total"), w.T("cli.tco.col_per_unit", "unit", unit))
	for i, o := range r.Options {
		opt := in.Options[i]
		fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\t%s\t%s\t%s\t\n", tf(o.ID), words.FormatQuantity(opt.Speed.WorkPerHour), tf(w.Label("basis", string(opt.Speed.Basis))),
			words.FormatRate(o.USDPerHour), words.FormatQuantity(o.HoursPerJob), words.FormatQuantity(o.NeededHoursPerMonth),
			words.FormatMoney(o.TotalUSD), words.FormatRate(o.CostPerUnitUSD))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, o := range r.Options {
		opt := in.Options[i]
		fmt.Fprintf(out, "\n%s\n", tf(optionHeading(w, opt)))
		if c := opt.Commitment; c != nil && c.Native != nil {
			fmt.Fprintln(out, "  "+tf(w.T("cli.tco.price", "billing", w.Label("billing", string(c.Billing)), "price", nativeText(w, *c.Native))))
		}
		if p := opt.PayAsYouGo; p != nil && p.Native != nil {
			fmt.Fprintln(out, "  "+tf(w.T("cli.tco.price", "billing", w.Label("billing", string(p.Billing)), "price", nativeText(w, *p.Native))))
		}
		fmt.Fprintln(out, "  "+w.T("cli.tco.speed", "speed", tf(w.Exact(opt.Speed.Reason))))
		for _, s := range o.Steps {
			fmt.Fprintln(out, "  "+tf(w.Exact(s)))
		}
	}
	if len(r.BreakEvens) > 0 {
		fmt.Fprintln(out, "\n"+w.T("cli.tco.breakeven"))
		for _, b := range r.BreakEvens {
			fmt.Fprintf(out, "  %s%s%s\n", tf(b.Commitment), w.T("scn.colon"), tf(w.Reason(b.Reason)))
		}
	}
	if len(r.Comparisons) > 0 {
		fmt.Fprintln(out, "\n"+w.T("cli.tco.comparisons"))
		for _, c := range r.Comparisons {
			fmt.Fprintln(out, "  "+tf(w.Reason(c.Reason)))
		}
	}
	fmt.Fprintln(out, "\n"+w.T("cli.tco.cumulative"))
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, w.T("cli.tco.col_month")+"\t")
	for i := range r.Options {
		fmt.Fprintf(tw, "%d\t", i+1)
	}
	fmt.Fprintln(tw)
	for m := 0; m < wl.HorizonMonths; m++ {
		fmt.Fprintf(tw, "%d\t", m+1)
		for _, o := range r.Options {
			fmt.Fprintf(tw, "%s\t", words.FormatMoney(o.CumulativeUSD[m]))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, w.T("cli.tco.columns"))
	for i, o := range r.Options {
		fmt.Fprintf(out, "  %d = %s\n", i+1, tf(o.ID))
	}
	return nil
}

// optionHeading names an option: its hardware and instance type, and its billing
// in words ("8x NVIDIA A100 SXM4 40GB (aws/p4d.24xlarge), On-demand").
func optionHeading(w words.ReasonWords, o compare.TCOOption) string {
	billing := ""
	if c := o.Commitment; c != nil {
		billing = w.Label("billing", string(c.Billing))
	}
	if p := o.PayAsYouGo; p != nil {
		if billing != "" {
			billing += " + "
		}
		billing += w.Label("billing", string(p.Billing))
	}
	if o.Hardware == "" {
		return w.T("cli.tco.option_id", "id", o.ID, "billing", billing)
	}
	return w.T("cli.tco.option", "hardware", o.Hardware, "instance", o.Instance, "billing", billing)
}

// nativeText is a price as published, and the FX rate that converted it:
// "3,500 CNY/month at 0.14084507 USD per CNY".
func nativeText(w words.ReasonWords, n compare.TCONative) string {
	p := n.Price
	s := w.T("cli.tco.native", "amount", words.FormatExact(p.Amount), "currency", string(p.Currency), "unit", w.Label("unit", string(p.Unit)))
	if p.Upfront != nil && !p.Upfront.IsZero() {
		s += w.T("cli.tco.native_upfront", "amount", words.FormatExact(*p.Upfront), "currency", string(p.Currency))
	}
	if n.USDRate != nil && p.Currency != catalog.USD {
		s += w.T("cli.tco.native_fx", "rate", n.USDRate.String(), "currency", string(p.Currency))
	}
	return s
}

func decimalInt(n int) decimal.Decimal { return decimal.NewFromInt(int64(n)) }

// writeTCOCurrencyText prints the options' money in the other currency
// (--currency CNY): compare.TCOResult.InCurrency, worded like the rest.
func writeTCOCurrencyText(out io.Writer, w words.ReasonWords, r compare.TCOResult, c compare.TCOInCurrency) error {
	cur := string(c.Currency)
	fmt.Fprintln(out)
	fmt.Fprintln(out, w.T("cli.tco.in_currency", "currency", cur, "rate", c.Rate.String(), "source", tf(c.FXSource), "date", tf(c.FXDate)))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", w.T("cli.tco.col_option"), w.T("cli.tco.col_cur_hour", "currency", cur),
		w.T("cli.tco.col_cur_total", "currency", cur), w.T("cli.tco.col_cur_per_unit", "currency", cur, "unit", tf(w.WorkUnit(r.Input.Workload.WorkUnit))))
	for _, o := range c.Options {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", tf(o.ID), words.FormatRate(o.PerHour), words.FormatMoney(o.Total), words.FormatRate(o.CostPerUnit))
	}
	return tw.Flush()
}
