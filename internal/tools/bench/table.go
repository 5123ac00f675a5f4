package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gpuatlas/gpuatlas/internal/benchrow"
)

// stageOrder is the order of the table's sections: the nightly job's stages,
// then the page, then the release binary.
var stageOrder = []string{"crawl", "build", "snapshot", "diff", "history", "page", "binary"}

// runTable prints the rows of the given files as one table, figures beside their
// targets, with the notes below it and a line saying which targets were missed.
func runTable(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("table", flag.ExitOnError)
	md := fs.Bool("markdown", false, "print a Markdown table")
	require := fs.String("require", "", "comma-separated stages that must have rows (a check that no step was lost)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var rows []benchrow.Row
	for _, f := range fs.Args() {
		r, err := benchrow.Read(f)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if len(rows) == 0 {
		return fmt.Errorf("table: no rows in %v", fs.Args())
	}
	if *require != "" {
		for _, stage := range strings.Split(*require, ",") {
			if !slices.ContainsFunc(rows, func(r benchrow.Row) bool { return r.Stage == stage }) {
				return fmt.Errorf("table: no rows for the %s stage in %v", stage, fs.Args())
			}
		}
	}
	rank := func(s string) int {
		if i := slices.Index(stageOrder, s); i >= 0 {
			return i
		}
		return len(stageOrder)
	}
	slices.SortStableFunc(rows, func(a, b benchrow.Row) int { return rank(a.Stage) - rank(b.Stage) })
	if *md {
		printMarkdown(w, rows)
		return nil
	}
	return printText(w, rows)
}

func result(r benchrow.Row) string {
	switch {
	case r.Met == nil:
		return "-"
	case *r.Met:
		return "met"
	default:
		return "MISSED"
	}
}

func printText(w io.Writer, rows []benchrow.Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STAGE\tWHAT\tMEASURE\tFIGURE\tTARGET\tRESULT\tNOTE")
	for i, r := range rows {
		target := r.Target
		if target == "" {
			target = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t[%d]\n", r.Stage, r.Name, r.Measure, r.Value, target, result(r), i+1)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for i, r := range rows {
		if r.Note != "" {
			fmt.Fprintf(w, "[%d] %s\n", i+1, r.Note)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, summary(rows))
	return nil
}

func printMarkdown(w io.Writer, rows []benchrow.Row) {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	fmt.Fprintln(w, "| stage | what | measure | figure | target | result | note |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Stage, cell(r.Name), cell(r.Measure), cell(r.Value),
			cell(r.Target), result(r), cell(r.Note))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, summary(rows))
}

func summary(rows []benchrow.Row) string {
	met, targets := 0, 0
	var missed []string
	for _, r := range rows {
		if r.Met == nil {
			continue
		}
		targets++
		if *r.Met {
			met++
		} else {
			missed = append(missed, fmt.Sprintf("%s %s: %s (target %s)", r.Stage, r.Name, r.Value, r.Target))
		}
	}
	s := fmt.Sprintf("%d of %d targets met.", met, targets)
	if len(missed) > 0 {
		s += " Missed: " + strings.Join(missed, "; ") + "."
	}
	return s
}
