// Command mkdata regenerates the embedded default catalog (data/catalog.json) by
// running `gpuatlas crawl` against the recorded provider responses under
// providers/<cloud>/testdata/replay, served by local replay servers. A replay
// answers with old data, and some replays are made up for the adapters' tests, so
// it then publishes from each provider's crawl only what its fixture manifest
// says is real, dated and labelled as the manifest says (stamp.go).
//
// It also builds the history (data/history.jsonl) anew: that crawl, and the dated
// prices of the public archives in data/history-sources (`make
// history-sources`) imported as `gpuatlas history import` would. Both files
// are byte for byte the same for the same inputs.
//
//	go run ./internal/tools/mkdata [-out data/catalog.json] [-history data/history.jsonl] [-sources data/history-sources]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/cli"
	"github.com/gpuatlas/gpuatlas/internal/replayset"
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

func main() {
	out := flag.String("out", "data/catalog.json", "where to write the catalog")
	history := flag.String("history", "", "where to write the history (default: history.jsonl beside -out)")
	sources := flag.String("sources", "data/history-sources", "folder of observation files (*.jsonl, *.csv) to import into the history")
	flag.Parse()
	if *history == "" {
		*history = filepath.Join(filepath.Dir(*out), "history.jsonl")
	}
	if err := run(*out, *history, *sources); err != nil {
		fmt.Fprintln(os.Stderr, "mkdata:", err)
		os.Exit(1)
	}
}

func run(out, history, sources string) error {
	set, err := replayset.Start(".")
	if err != nil {
		return err
	}
	defer set.Close()
	env := set.Env
	args := append([]string{"crawl", "--fx-file", replayset.FXFile, "--no-rate-limit", "--no-history"}, set.Args...)
	manifests := set.Manifests
	tmp, err := os.MkdirTemp("", "mkdata-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // scratch folder in the system temp dir: a leftover costs only disk space
	raw := filepath.Join(tmp, "catalog.json")
	args = append(args, "--out", raw)
	var stderr bytes.Buffer
	code := cli.Main(cli.Env{Stdout: os.Stdout, Stderr: &stderr, Getenv: func(k string) string { return env[k] }}, args)
	if code != cli.ExitOK {
		return fmt.Errorf("crawl of the replay exited %d:\n%s", code, stderr.String())
	}
	snap, err := catalog.ReadSnapshot(raw)
	if err != nil {
		return err
	}
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		return err
	}
	if err := stamp(snap, fixtures(manifests), regions); err != nil {
		return err
	}
	if err := crossCheck(snap); err != nil {
		return err
	}
	if err := catalog.WriteSnapshot(out, snap); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%swrote %s: %d instance types, %d offers, %d placements\n", stderr.String(), out, len(snap.Instances), len(snap.Offers), len(snap.Placements))
	return writeHistory(history, sources, snap)
}

// crossCheck holds the embedded catalog's prices against the second sources
// of data/price_checks.csv (catalog.CrossCheck): a price that disagrees is
// marked suspect with both figures; a check that matches no offer is an
// error, so a table that no longer fits the catalog is noticed.
func crossCheck(snap *catalog.Snapshot) error {
	checks, err := catalog.LoadPriceChecks(data.FS)
	if err != nil {
		return err
	}
	disagree := 0
	for _, r := range catalog.CrossCheck(snap.Offers, checks) {
		c := r.Check
		if r.Offers == 0 {
			return fmt.Errorf("data/price_checks.csv:%d: %s/%s %s in %s matches no offer of the catalog", c.Line, c.Provider, c.InstanceType, c.Billing, c.Region)
		}
		if r.Disagree {
			disagree++
		}
	}
	fmt.Fprintf(os.Stderr, "price checks: %d of %d disagree with the catalog (marked suspect)\n", disagree, len(checks))
	return nil
}

// writeHistory writes the history of the embedded catalog: its crawl and the
// observations of every file in sources, in name order.
func writeHistory(path, sources string, snap *catalog.Snapshot) error {
	h := catalog.NewHistory()
	if _, err := h.Append(snap); err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(sources, "*.jsonl"))
	if err != nil {
		return err
	}
	csvs, err := filepath.Glob(filepath.Join(sources, "*.csv"))
	if err != nil {
		return err
	}
	files = append(files, csvs...)
	sort.Strings(files)
	var obs []catalog.ObservationAt
	for _, f := range files {
		got, err := catalog.ReadObservationFile(f)
		if err != nil {
			return err
		}
		obs = append(obs, got...)
	}
	// No import time: every record says when its archive was retrieved
	// (historysources writes it), so the file does not depend on the clock.
	res, err := h.Import(obs, time.Time{})
	if err != nil {
		return err
	}
	if err := catalog.WriteHistory(path, h); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s: 1 crawl, %d observations from %d files in %s, %d dated price changes\n", path, res.Added, len(files), sources, len(h.ObservedChanges()))
	return nil
}

// fixtures pairs each manifest with the folder its files are in.
func fixtures(manifests map[catalog.Provider]replay.Manifest) map[catalog.Provider]fixture {
	out := map[catalog.Provider]fixture{}
	for p, m := range manifests {
		out[p] = fixture{manifest: m, dir: os.DirFS(replayset.DirOf(p))}
	}
	return out
}
