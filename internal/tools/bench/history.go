package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
)

// runHistory measures the nightly job's history step on a long history: read
// the file, append the next crawl, write the file back.
func runHistory(args []string) error {
	fs := flag.NewFlagSet("history", flag.ExitOnError)
	histPath := fs.String("history", "", "history file")
	catPath := fs.String("catalog", "", "the history's last snapshot; the next crawl is made from it")
	work := fs.String("work", "", "scratch folder")
	rows := fs.String("rows", "", "file to append the rows to")
	n := fs.Int("runs", 3, "runs of each; the median is reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *histPath == "" || *catPath == "" || *work == "" || *rows == "" {
		return fmt.Errorf("history: -history, -catalog, -work and -rows are required")
	}
	size, err := fileSize(*histPath)
	if err != nil {
		return err
	}
	last, err := catalog.ReadSnapshot(*catPath)
	if err != nil {
		return err
	}
	// The next crawl: a day later, the same offers with a few prices changed.
	next := *last
	next.TakenAt = last.TakenAt.AddDate(0, 0, 1)
	next.Offers = append([]catalog.Offer(nil), last.Offers...)
	for i := range next.Offers {
		next.Offers[i].FetchedAt = next.Offers[i].FetchedAt.AddDate(0, 0, 1)
		if i%500 == 0 && next.Offers[i].Price.Upfront == nil {
			next.Offers[i].Price.Amount = next.Offers[i].Price.Amount.Add(catalog.Dec("0.01"))
		}
	}
	var h *catalog.History
	read, err := timeIt(*n, func() error {
		var err error
		h, err = catalog.ReadHistory(*histPath)
		return err
	})
	if err != nil {
		return err
	}
	crawls := len(h.Crawls())
	// Append alone: each run appends to a history freshly read, untimed.
	var appends []run
	for range *n {
		fresh, err := catalog.ReadHistory(*histPath)
		if err != nil {
			return err
		}
		start := time.Now()
		if _, err := fresh.Append(&next); err != nil {
			return err
		}
		appends = append(appends, run{wall: time.Since(start)})
	}
	slices.SortFunc(appends, func(a, b run) int { return int(a.wall - b.wall) })
	appendTime := median(appends).wall
	if _, err := h.Append(&next); err != nil {
		return err
	}
	out := filepath.Join(*work, "history.jsonl")
	write, err := timeIt(*n, func() error { return catalog.WriteHistory(out, h) })
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%d daily crawls of %d offers, %s", crawls, len(last.Offers), mib(size))
	return benchrow.Append(*rows,
		benchrow.Row{Stage: "history", Name: what, Measure: "read (decode, check)", Value: fmt.Sprintf("%s (%s)", seconds(read), mbps(size, read)),
			Note: fmt.Sprintf("catalog.ReadHistory, median of %d", *n)},
		benchrow.Row{Stage: "history", Name: what, Measure: "append the next crawl", Value: seconds(appendTime),
			Note: fmt.Sprintf("catalog.History.Append of a snapshot with %d offers, %d of them repriced", len(next.Offers), (len(next.Offers)+499)/500)},
		benchrow.Row{Stage: "history", Name: what, Measure: "write (encode, write, fsync)", Value: seconds(write),
			Note: fmt.Sprintf("catalog.WriteHistory, median of %d", *n)},
	)
}
