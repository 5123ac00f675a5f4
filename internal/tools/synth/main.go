// Command synth writes a made-up catalog and its history for benchmarks: a
// snapshot of about -offers offers, a history of -days daily crawls ending with
// it, and the snapshot of -diff-days earlier to diff against. Everything it
// writes is marked synthetic (see internal/synth); it never writes under data/.
//
//	go run ./internal/tools/synth -offers 100000 -days 1095 -out /tmp/large
//
// writes /tmp/large/catalog.json, history.jsonl and old.json.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/synth"
)

func main() {
	offers := flag.Int("offers", 100_000, "about how many offers the catalog holds")
	days := flag.Int("days", 1095, "daily crawls in the history (1 = no history to speak of)")
	seed := flag.Uint64("seed", 1, "seed; the same flags always write the same files")
	churn := flag.Float64("churn", 0, "share of offers whose price changes each day (default 0.002)")
	diffDays := flag.Int("diff-days", 30, "old.json is the crawl this many days before the last (or the first crawl)")
	out := flag.String("out", "", "folder to write catalog.json, history.jsonl and old.json to")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: synth -out DIR [-offers N] [-days N] [-seed N] [-churn F] [-diff-days N]")
		os.Exit(2)
	}
	if err := run(*out, synth.HistoryOptions{Offers: *offers, Days: *days, Seed: *seed, Churn: *churn}, *diffDays); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}

func run(out string, o synth.HistoryOptions, diffDays int) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if wd, err := os.Getwd(); err == nil && strings.HasPrefix(abs+"/", filepath.Join(wd, "data")+"/") {
		return fmt.Errorf("%s is under data/, which holds only real data", out)
	}
	start := time.Now()
	h, last, err := synth.History(o)
	if err != nil {
		return err
	}
	made := time.Since(start)
	crawls := h.Crawls()
	old := last
	if diffDays > 0 && len(crawls) > 1 {
		// diffDays before the last crawl, or the first crawl of a shorter history.
		if old, err = h.At(crawls[max(0, len(crawls)-1-diffDays)]); err != nil {
			return err
		}
	}
	for name, s := range map[string]*catalog.Snapshot{"catalog.json": last, "old.json": old} {
		if err := catalog.WriteSnapshot(filepath.Join(out, name), s); err != nil {
			return err
		}
	}
	if err := catalog.WriteHistory(filepath.Join(out, "history.jsonl"), h); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "synth: %d types, %d offers, %d daily crawls in %s (made in %s) -> %s\n",
		len(last.Instances), len(last.Offers), len(crawls), time.Since(start).Round(time.Millisecond), made.Round(time.Millisecond), out)
	return nil
}
