// Command mkdata regenerates the embedded default catalog (data/catalog.json) by
// running `gpuatlas crawl` against the recorded provider responses under
// providers/<cloud>/testdata/replay, served by local replay servers. It then stamps
// each provider's records with the provenance of its fixtures: the date the
// recorded data describes (fetched_at) and whether it is synthetic.
//
//	go run ./internal/tools/mkdata [-out data/catalog.json]
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
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "mkdata:", err)
		os.Exit(1)
	}
}

func run(out string) error {
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
