package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/termtext"
	"github.com/gpuatlas/gpuatlas/words"
)

// tf is a data field of a text line (termtext.Field).
func tf(s string) string { return termtext.Field(s) }

// writeScenariosText writes `gpuatlas scenarios` in the language of w: every
// word from the site's message catalog (cli.scn.* and the reasons), numbers by
// the site's rules, every data field (a scenario's name, an instance type, a
// region, a reason's figures) through termtext.Field.
func writeScenariosText(out io.Writer, w words.ReasonWords, snap *catalog.Snapshot, m compare.Matrix, top int) error {
	region := w.T("cli.scn.all_regions")
	if m.Region != "" {
		region = w.T("cli.scn.region", "region", tf(m.Region))
	}
	fmt.Fprintln(out, w.T("cli.scn.header", "taken", snap.TakenAt.UTC().Format(time.RFC3339), "billing", w.Label("billing", string(m.Billing)), "region", region))
	fmt.Fprintln(out, w.T("cli.scn.note"))
	for _, r := range m.Scenarios {
		s := r.Scenario
		name, desc := s.Name, s.Description
		if w.Lang() == "zh" {
			name, desc = s.NameZH, s.DescriptionZH
		}
		fmt.Fprintf(out, "\n== %s: %s ==\n%s\n", tf(s.ID), tf(name), tf(desc))
		if req := s.Requires.Reasons(); len(req) > 0 {
			fmt.Fprintln(out, w.T("cli.scn.requires", "list", tf(w.Reasons(req))))
		}
		if pref := s.Prefer.Reasons(); len(pref) > 0 {
			fmt.Fprintln(out, w.T("cli.scn.prefers", "list", tf(w.Reasons(pref))))
		}
		fmt.Fprintln(out, w.T("cli.scn.weights", "list", weightsText(w, s.Weights)))
		fits, may := 0, 0
		for _, f := range r.Ranked {
			if f.Verdict == compare.Fits {
				fits++
			} else {
				may++
			}
		}
		fmt.Fprintln(out, w.T("cli.scn.counts", "fits", fmt.Sprint(fits), "may", fmt.Sprint(may), "rejected", fmt.Sprint(len(r.Rejected))))
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		for i, f := range r.Ranked {
			if top > 0 && i >= top {
				fmt.Fprintln(tw, "  "+w.T("cli.scn.more", "n", fmt.Sprint(len(r.Ranked)-top)))
				break
			}
			wc := ""
			if c := f.WorkCost; c != nil {
				parts := []string{w.Label("basis", string(c.Basis))}
				if p := c.Published; p != nil {
					// A published result: its work key, round and system's GPUs.
					parts = append(parts, c.WorkKey(), p.Round, fmt.Sprintf("%dx %s", p.GPUCount, p.GPUModel))
				}
				for i := range parts {
					parts[i] = tf(parts[i])
				}
				wc = "  " + w.T("workcost.value", "cost", w.Q(c.CostPerUnit, compare.UnitUSD), "unit", tf(w.Label(compare.GroupCostUnit, c.Workload))) +
					w.T("reason.parts", "parts", strings.Join(parts, w.T("reason.list_sep")))
			}
			fmt.Fprintf(tw, "  %d.\t%s\t%s\t%s%s\t%s%s\n", i+1, tf(f.InstanceKey), tf(f.Offer.Region), tf(priceText(w, f)), ageMark(w, f.Offer, snap.TakenAt),
				w.T("cli.scn.score", "score", f.Score.StringFixed(2)), wc)
			fmt.Fprintf(tw, "  \t%s\n", tf(fitSummary(w, f)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := writeCells(out, w, w.T("cli.scn.by_provider"), "provider", r.ByProvider, snap.TakenAt); err != nil {
			return err
		}
		if err := writeCells(out, w, w.T("cli.scn.by_tier"), "tier", r.ByTier, snap.TakenAt); err != nil {
			return err
		}
	}
	return nil
}

// fitSummary is an offer's verdict in one line: "fits: 8x NVIDIA A100 SXM4 40GB,
// 40 GiB each, NVLink; strengths: …; weaknesses: …".
func fitSummary(w words.ReasonWords, f compare.OfferFit) string {
	sep := w.T("reason.sep")
	var parts []string
	switch f.Verdict {
	case compare.Fits:
		parts = append(parts, w.T("cli.scn.fits", "hardware", w.Hardware(f.Hardware)))
		if len(f.Strengths) > 0 {
			parts = append(parts, w.T("cli.scn.strengths", "list", w.Reasons(f.Strengths)))
		}
	case compare.MayFit:
		parts = append(parts, w.T("cli.scn.may_fit", "hardware", w.Hardware(f.Hardware)))
		var unknown []compare.Reason
		for _, c := range f.Checks {
			if c.Status == compare.UnknownSpec {
				unknown = append(unknown, c.Reason)
			}
		}
		parts = append(parts, w.T("cli.scn.unknown", "list", w.Reasons(unknown)))
	default:
		var fails []compare.Reason
		for _, c := range f.Checks {
			if c.Status == compare.Fail {
				fails = append(fails, c.Reason)
			}
		}
		return w.T("cli.scn.does_not_fit", "list", w.Reasons(fails))
	}
	if len(f.Weaknesses) > 0 {
		parts = append(parts, w.T("cli.scn.weaknesses", "list", w.Reasons(f.Weaknesses)))
	}
	return strings.Join(parts, sep)
}

// priceText is an offer's effective hourly price in USD, with the price in its
// own currency beside it.
func priceText(w words.ReasonWords, f compare.OfferFit) string {
	if f.USDPerHour == nil {
		if f.NativePerHour != nil {
			return w.T("cli.scn.no_usd", "price", words.FormatRate(*f.NativePerHour), "currency", string(f.NativeCurrency))
		}
		return w.T("cli.scn.price_unknown")
	}
	s := w.Q(*f.USDPerHour, compare.UnitUSDHour)
	if f.NativeCurrency != catalog.USD && f.NativePerHour != nil {
		s += w.T("cli.scn.native", "price", words.FormatRate(*f.NativePerHour), "currency", string(f.NativeCurrency))
	}
	return s
}

// ageMark says on a ranking row when its price is stale, undated or reported
// (a ranking may include such prices, and says so): " [stale: observed
// 2025-11-30, 366 days before the catalog]".
func ageMark(w words.ReasonWords, o catalog.Offer, now time.Time) string {
	var marks []string
	if o.Reported {
		marks = append(marks, w.T("cli.scn.mark_reported"))
	}
	if o.Estimated {
		marks = append(marks, w.T("cli.scn.mark_estimated"))
	}
	switch age := o.AgeAt(now); {
	case !age.Known:
		marks = append(marks, w.T("cli.scn.mark_undated"))
	case age.Stale():
		marks = append(marks, w.T("cli.scn.mark_stale", "date", o.ObservedAt.UTC().Format("2006-01-02"), "days", fmt.Sprint(age.Days)))
	}
	if len(marks) == 0 {
		return ""
	}
	return w.T("cli.scn.marks", "list", strings.Join(marks, w.T("reason.list_sep")))
}

func writeCells(out io.Writer, w words.ReasonWords, title, group string, cells []compare.Cell, now time.Time) error {
	fmt.Fprintln(out, title)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, c := range cells {
		if c.Types == 0 {
			continue
		}
		label := tf(w.Label(group, c.Key))
		if len(c.Best) == 0 {
			why := ""
			if c.Reason != nil {
				why = tf(w.Reason(*c.Reason))
			}
			fmt.Fprintf(tw, "  %s\t%s\n", label, why)
			continue
		}
		var best []string
		for _, f := range c.Best {
			best = append(best, tf(f.InstanceKey)+" "+tf(priceText(w, f))+ageMark(w, f.Offer, now)+w.T("reason.parts", "parts", f.Score.StringFixed(2)))
		}
		fmt.Fprintf(tw, "  %s\t%s\t[%s]\n", label, strings.Join(best, w.T("reason.sep")),
			w.T("scn.cell_counts", "fits", fmt.Sprint(c.Fits), "may", fmt.Sprint(c.MayFit), "n", fmt.Sprint(c.Types)))
	}
	return tw.Flush()
}

func weightsText(w words.ReasonWords, ws compare.Weights) string {
	var parts []string
	for _, d := range compare.Dimensions {
		if v := ws.Of(d); v.IsPositive() {
			parts = append(parts, w.Label("dim", string(d))+" "+v.String())
		}
	}
	return strings.Join(parts, w.T("reason.list_sep"))
}
