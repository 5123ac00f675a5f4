// Command mkdata regenerates the embedded default catalog (data/catalog.json) by
// running `gpuatlas crawl` against the recorded provider responses under
// providers/<cloud>/testdata/replay, served by local replay servers. It then stamps
// each provider's records with the provenance of its fixtures: the date the
// recorded data describes (fetched_at) and whether it is synthetic.
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
	"strings"
	"time"

	"github.com/gpuatlas/gpuatlas/catalog"
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
	if err := stamp(snap, manifests); err != nil {
		return err
	}
	if err := catalog.WriteSnapshot(out, snap); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%swrote %s: %d instance types, %d offers, %d placements\n", stderr.String(), out, len(snap.Instances), len(snap.Offers), len(snap.Placements))
	return writeHistory(history, sources, snap)
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
	res, err := h.Import(obs)
	if err != nil {
		return err
	}
	if err := catalog.WriteHistory(path, h); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s: 1 crawl, %d observations from %d files in %s, %d dated price changes\n", path, res.Added, len(files), sources, len(h.ObservedChanges()))
	return nil
}

// stamp sets each provider's provenance from its fixture manifest: fetched_at and
// last confirmation are the date the recorded data describes, synthetic data is
// marked, and the sources are listed in coverage. The crawl clock would otherwise
// put today's date on data captured long ago.
func stamp(s *catalog.Snapshot, manifests map[catalog.Provider]replay.Manifest) error {
	asOf := map[catalog.Provider]time.Time{}
	for p, m := range manifests {
		t, err := time.Parse("2006-01-02", m.AsOf)
		if err != nil {
			return fmt.Errorf("%s fixture manifest: as_of %q is not YYYY-MM-DD", p, m.AsOf)
		}
		asOf[p] = t
	}
	latest := time.Time{}
	for _, t := range asOf {
		if t.After(latest) {
			latest = t
		}
	}
	s.TakenAt = latest
	for i := range s.Offers {
		o := &s.Offers[i]
		m := manifests[o.Provider]
		o.FetchedAt = asOf[o.Provider]
		o.Synthetic = m.Synthetic || m.SyntheticPrices
	}
	for i := range s.Instances {
		it := &s.Instances[i]
		it.Synthetic = manifests[it.Provider].Synthetic
	}
	for i := range s.Coverage {
		c := &s.Coverage[i]
		m, ok := manifests[c.Provider]
		if !ok {
			continue
		}
		c.LastOK = asOf[c.Provider]
		c.Synthetic = m.Synthetic || m.SyntheticPrices
		c.Sources = append([]string{"replay of recorded responses (make data): " + replayset.DirOf(c.Provider)}, m.Sources...)
		sort.Strings(c.Sources[1:])
		for _, n := range m.Notes {
			if strings.HasPrefix(n, "as_of") {
				c.Sources = append(c.Sources, n) // what the date means when it is not a capture date
			}
		}
	}
	return s.Validate()
}
