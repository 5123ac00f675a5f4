package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/words"
)

// writeFitText writes `gpuatlas fit`'s answer in words from the site's message
// catalog (words.FitWords), so that the command line and the estimator page
// say the same in both languages.
func writeFitText(w io.Writer, f words.FitWords, a compare.MemoryAnswer) error {
	e, in := a.Estimate, a.Estimate.Input
	fmt.Fprintln(w, f.T("fit.cli.heading", "model", f.ModelName(e), "task", f.T("fit.task."+string(in.Task))))
	vals := []string{"precision", string(in.Precision), "kv_precision", string(in.KVPrecision),
		"context", words.GroupDigits(fmt.Sprint(in.Context)), "batch", words.GroupDigits(fmt.Sprint(in.Batch)),
		"sequences", words.GroupDigits(fmt.Sprint(in.Sequences)), "checkpointing", string(in.Checkpointing)}
	if in.Task == compare.TaskInference {
		fmt.Fprintln(w, f.T("fit.cli.inputs_inference", vals...))
	} else {
		fmt.Fprintln(w, f.T("fit.cli.inputs_training", vals...))
	}
	for _, fg := range e.Figures {
		fmt.Fprintln(w, f.Figure(fg))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range e.Components {
		label := f.T("fit.comp." + c.Component)
		if c.Status != compare.StatusEstimated {
			fmt.Fprintf(tw, "  %s\t%12s\t%13s\t%s\n", label, "—", "", f.Component(c))
			continue
		}
		fmt.Fprintf(tw, "  %s\t%12s\t%13s\t= %s\n", label, words.GB(c.GB)+" GB", words.GB(c.GiB)+" GiB", f.Component(c))
	}
	fmt.Fprintf(tw, "  %s\t%12s\t%13s\t\n", f.T("fit.total"), words.GB(e.Total.GB)+" GB", words.GB(e.Total.GiB)+" GiB")
	if err := tw.Flush(); err != nil {
		return err
	}
	if e.LowerBound {
		fmt.Fprintln(w, f.T("fit.lower_bound"))
	}
	for _, n := range e.Notes {
		fmt.Fprintln(w, f.Note(n))
	}
	if e.Model != nil {
		fmt.Fprintln(w, f.T("fit.source", "source", e.Model.Source, "date", e.Model.SourceDate))
	}
	fmt.Fprintln(w, f.T("fit.method_note"))
	return writeFitOffers(w, f, a.Offers)
}

func writeFitOffers(w io.Writer, f words.FitWords, o compare.MemoryOffers) error {
	billing := f.T("billing." + string(o.Billing))
	fmt.Fprintln(w)
	if o.FitsTotal == 0 {
		fmt.Fprintln(w, f.T("fit.none"))
	} else {
		fmt.Fprintln(w, f.T("fit.cli.fits", "count", fmt.Sprint(o.FitsTotal), "billing", billing, "currency", string(o.Currency)))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, r := range o.Fits {
		fmt.Fprintf(tw, "  %d.\t%s\t%s\t%s\t%s = %s GB\t%s\t%s\n", i+1, words.Price(r.Price), r.Instance, r.Region,
			f.Hardware(r), words.GB(r.HaveGB), f.T("fit.cli.per_gpu", "per_gpu", words.GB(r.NeedPerGPUGB)), f.Placement(r))
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
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.Hardware(r), r.Instance, words.Price(r.Price), f.MissReason(r))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, f.T("fit.left_out", "unknown", fmt.Sprint(o.UnknownMemory), "no_offer", fmt.Sprint(o.LeftOut.NoOffer),
		"excluded", fmt.Sprint(o.LeftOut.SuspectOrSynthetic), "billing", billing))
	fmt.Fprintln(w, f.T("fit.split_note"))
	fmt.Fprintln(w, f.T("fit.fx", "source", o.FXSource, "date", o.FXDate))
	return nil
}
