package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// writeFitText writes `gpuatlas fit`'s answer in words from the site's message
// catalog (words.FitWords), so that the command line and the estimator page
// say the same in both languages; every data field (a model's name and source,
// an instance type, a region) through termtext.Field.
func writeFitText(w io.Writer, f words.FitWords, a compare.MemoryAnswer) error {
	e, in := a.Estimate, a.Estimate.Input
	fmt.Fprintln(w, f.T("fit.cli.heading", "model", tf(f.ModelName(e)), "task", fitTaskText(f, in)))
	vals := []string{"precision", string(in.Precision), "kv_precision", string(in.KVPrecision),
		"context", words.GroupDigits(fmt.Sprint(in.Context)), "batch", words.GroupDigits(fmt.Sprint(in.Batch)),
		"sequences", words.GroupDigits(fmt.Sprint(in.Sequences)), "checkpointing", string(in.Checkpointing)}
	if in.Task == compare.TaskInference {
		fmt.Fprintln(w, f.T("fit.cli.inputs_inference", vals...))
	} else {
		fmt.Fprintln(w, f.T("fit.cli.inputs_training", vals...))
	}
	for _, fg := range e.Figures {
		fmt.Fprintln(w, tf(f.Figure(fg)))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range e.Components {
		label := f.T("fit.comp." + c.Component)
		if c.Status != compare.StatusEstimated {
			fmt.Fprintf(tw, "  %s\t%12s\t%13s\t%s\n", label, "—", "", tf(f.Component(c)))
			continue
		}
		fmt.Fprintf(tw, "  %s\t%12s\t%13s\t= %s\n", label, words.GB(c.GB)+" GB", words.GB(c.GiB)+" GiB", tf(f.Component(c)))
	}
	fmt.Fprintf(tw, "  %s\t%12s\t%13s\t\n", f.T("fit.total"), words.GB(e.Total.GB)+" GB", words.GB(e.Total.GiB)+" GiB")
	if err := tw.Flush(); err != nil {
		return err
	}
	if e.LowerBound {
		fmt.Fprintln(w, f.T("fit.lower_bound"))
	}
	for _, n := range e.Notes {
		fmt.Fprintln(w, tf(f.Note(n)))
	}
	if e.Model != nil {
		fmt.Fprintln(w, f.T("fit.source", "source", tf(e.Model.Source), "date", tf(e.Model.SourceDate)))
	}
	fmt.Fprintln(w, f.T("fit.method_note"))
	return writeFitOffers(w, f, a.Offers)
}

// fitTaskText names the task; full training also says its precision regime:
// mixed precision (bf16/fp16 weights and gradients, an FP32 master copy and
// optimizer states) or FP32 throughout, as the estimate counts them.
func fitTaskText(f words.FitWords, in compare.MemoryInput) string {
	if in.Task != compare.TaskFull {
		return f.T("fit.task." + string(in.Task))
	}
	if in.Precision == compare.FP32 {
		return f.T("fit.cli.task_full_fp32")
	}
	return f.T("fit.cli.task_full_mixed", "precision", strings.ToUpper(string(in.Precision)))
}

func writeFitOffers(w io.Writer, f words.FitWords, o compare.MemoryOffers) error {
	billing := f.T("billing." + string(o.Billing))
	fmt.Fprintln(w)
	if o.FitsTotal == 0 {
		fmt.Fprintln(w, f.T("fit.none"))
	} else {
		fmt.Fprintln(w, f.T("fit.cli.fits", "count", fmt.Sprint(o.FitsTotal), "billing", billing, "currency", tf(string(o.Currency))))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, r := range o.Fits {
		price := tf(words.Price(r.Price))
		if r.PricePerMonth != nil { // a subscription or reservation: also per month
			price += " (" + f.T("fit.cli.per_month", "month", tf(r.PricePerMonth.StringFixed(2))) + ")"
		}
		fmt.Fprintf(tw, "  %d.\t%s\t%s\t%s\t%s = %s GB\t%s\t%s\n", i+1, price, tf(r.Instance), tf(r.Region),
			tf(f.Hardware(r)), words.GB(r.HaveGB), f.T("fit.cli.per_gpu", "per_gpu", words.GB(r.NeedPerGPUGB)), tf(f.Placement(r)))
	}
	if n := o.FitsTotal - len(o.Fits); n > 0 {
		fmt.Fprintf(tw, "  %s\n", f.T("fit.cli.more", "n", fmt.Sprint(n)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(o.Misses) > 0 {
		fmt.Fprintln(w, f.T("fit.cli.misses"))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range o.Misses {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", tf(f.Hardware(r)), tf(r.Instance), tf(words.Price(r.Price)), tf(f.MissReason(r)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, f.T("fit.left_out", "unknown", fmt.Sprint(o.UnknownMemory), "no_offer", fmt.Sprint(o.LeftOut.NoOffer),
		"excluded", fmt.Sprint(o.LeftOut.SuspectOrSynthetic), "billing", billing))
	fmt.Fprintln(w, f.T("fit.split_note"))
	fmt.Fprintln(w, f.T("fit.fx", "source", tf(o.FXSource), "date", tf(o.FXDate)))
	return nil
}
