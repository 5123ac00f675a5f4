// Command mkdata regenerates the embedded default catalog (data/catalog.json) by
// running `gpuatlas crawl` against the recorded provider responses under
// providers/<cloud>/testdata/replay, served by local replay servers. A replay
// answers with old data, and some replays are made up for the adapters' tests, so
// it then publishes from each provider's crawl only what its fixture manifest
// says is real, dated and labelled as the manifest says (stamp.go).
//
//	go run ./internal/tools/mkdata [-out data/catalog.json]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/data"
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
	regions, err := catalog.LoadRegionTable(data.FS)
	if err != nil {
		return err
	}
	if err := stamp(snap, fixtures(manifests), regions); err != nil {
		return err
	}
	if err := catalog.WriteSnapshot(out, snap); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%swrote %s: %d instance types, %d offers, %d placements\n", stderr.String(), out, len(snap.Instances), len(snap.Offers), len(snap.Placements))
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
