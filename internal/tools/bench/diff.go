package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
)

// Targets of the diff stage (issue 10).
const (
	diffTarget   = 500 * time.Millisecond
	memoryTarget = 10.0 // peak memory of `gpuatlas diff`, in snapshot sizes
)

// runDiff measures snapshot load and save throughput and the diff of two
// snapshots: in process (catalog.Diff alone) and as the command a user runs.
func runDiff(args []string) error {
	fs := flag.NewFlagSet("diff", flag.ExitOnError)
	bin := fs.String("gpuatlas", "", "the gpuatlas binary")
	oldPath := fs.String("old", "", "older snapshot")
	newPath := fs.String("new", "", "newer snapshot")
	work := fs.String("work", "", "scratch folder")
	rows := fs.String("rows", "", "file to append the rows to")
	n := fs.Int("runs", 3, "runs of each; the median is reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" || *oldPath == "" || *newPath == "" || *work == "" || *rows == "" {
		return fmt.Errorf("diff: -gpuatlas, -old, -new, -work and -rows are required")
	}
	size, err := fileSize(*newPath)
	if err != nil {
		return err
	}
	var old, cur *catalog.Snapshot
	if old, err = catalog.ReadSnapshot(*oldPath); err != nil {
		return err
	}
	load, err := timeIt(*n, func() error {
		var err error
		cur, err = catalog.ReadSnapshot(*newPath)
		return err
	})
	if err != nil {
		return err
	}
	out := filepath.Join(*work, "saved.json")
	save, err := timeIt(*n, func() error { return catalog.WriteSnapshot(out, cur) })
	if err != nil {
		return err
	}
	var report catalog.DiffReport
	diff, err := timeIt(*n, func() error { report = catalog.Diff(old, cur); return nil })
	if err != nil {
		return err
	}
	var counts catalog.DiffCounts
	for _, p := range report.Providers {
		counts.PriceChanges += p.Counts.PriceChanges
		counts.AvailabilityChanges += p.Counts.AvailabilityChanges
		counts.OffersAdded += p.Counts.OffersAdded
		counts.OffersRemoved += p.Counts.OffersRemoved
	}
	// The command: both files read, compared and the JSON report written.
	cmds, err := repeat(*n, func() (run, error) {
		return execute(*bin, []string{"diff", "--format", "json", *oldPath, *newPath}, 1)
	})
	if err != nil {
		return err
	}
	cli := median(cmds)
	peak := peakRSS(cmds)
	what := fmt.Sprintf("%d offers, %s", len(cur.Offers), mib(size))
	changes := fmt.Sprintf("%d price changes, %d availability changes, %d offers added, %d removed",
		counts.PriceChanges, counts.AvailabilityChanges, counts.OffersAdded, counts.OffersRemoved)
	return benchrow.Append(*rows,
		benchrow.Row{Stage: "snapshot", Name: what, Measure: "load (read, decode, validate)", Value: mbps(size, load),
			Note: fmt.Sprintf("catalog.ReadSnapshot in %s, median of %d", seconds(load), *n)},
		benchrow.Row{Stage: "snapshot", Name: what, Measure: "save (validate, encode, write, fsync)", Value: mbps(size, save),
			Note: fmt.Sprintf("catalog.WriteSnapshot in %s, median of %d", seconds(save), *n)},
		benchrow.Row{Stage: "diff", Name: "two snapshots of " + what, Measure: "diff (catalog.Diff)", Value: seconds(diff),
			Target: "< " + seconds(diffTarget), Met: benchrow.Check(diff < diffTarget),
			Note: fmt.Sprintf("%s; median of %d", changes, *n)},
		benchrow.Row{Stage: "diff", Name: "two snapshots of " + what, Measure: "gpuatlas diff --format json", Value: seconds(cli.wall),
			Target: "< " + seconds(diffTarget), Met: benchrow.Check(cli.wall < diffTarget),
			Note: fmt.Sprintf("the command end to end: both files read and validated, compared, the JSON report written; median of %d", *n)},
		benchrow.Row{Stage: "diff", Name: "two snapshots of " + what, Measure: "gpuatlas diff peak memory / snapshot size",
			Value:  fmt.Sprintf("%.1f× (%s)", float64(peak)/float64(size), mib(peak)),
			Target: fmt.Sprintf("< %.0f×", memoryTarget), Met: benchrow.Check(float64(peak) < memoryTarget*float64(size)),
			Note: "max RSS of the process, which holds both snapshots"},
	)
}
