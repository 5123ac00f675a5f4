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
	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// fixture is one provider's recorded responses and how the crawl reaches them.
type fixture struct {
	provider  catalog.Provider
	dir       string
	dialect   replay.Dialect
	endpoints func(s *replay.Server) []string
	env       map[string]string // test credentials for the replay (never real ones)
}

func fixtures() []fixture {
	return []fixture{
		{
			provider: catalog.AWS, dir: "providers/aws/testdata/replay", dialect: replay.AWS,
			endpoints: func(s *replay.Server) []string { return []string{"aws.ec2=" + s.URL, "aws.pricing=" + s.URL} },
			env:       map[string]string{"AWS_ACCESS_KEY_ID": "AKIDREPLAY", "AWS_SECRET_ACCESS_KEY": "replay-secret", "AWS_REGION": "us-east-1"},
		},
		{
			provider: catalog.Alibaba, dir: "providers/alibaba/testdata/replay", dialect: replay.Alibaba,
			endpoints: func(s *replay.Server) []string { return []string{"alibaba.ecs=" + s.URL} },
			env:       map[string]string{"ALIBABA_CLOUD_ACCESS_KEY_ID": "LTAIREPLAY", "ALIBABA_CLOUD_ACCESS_KEY_SECRET": "replay-secret"},
		},
		{
			provider: catalog.Tencent, dir: "providers/tencent/testdata/replay", dialect: replay.Tencent,
			endpoints: func(s *replay.Server) []string { return []string{"tencent.cvm=" + s.URL} },
			env:       map[string]string{"TENCENTCLOUD_SECRET_ID": "AKIDREPLAY", "TENCENTCLOUD_SECRET_KEY": "replay-secret"},
		},
		{
			provider: catalog.Huawei, dir: "providers/huawei/testdata/replay", dialect: replay.Huawei,
			endpoints: func(s *replay.Server) []string {
				return []string{"huawei.ecs=" + s.URL, "huawei.bss=" + s.URL, "huawei.iam=" + s.URL}
			},
			env: map[string]string{"HUAWEICLOUD_SDK_AK": "AKREPLAY", "HUAWEICLOUD_SDK_SK": "replay-secret"},
		},
		{
			provider: catalog.Volcengine, dir: "providers/volcengine/testdata/replay", dialect: replay.Volcengine,
			endpoints: func(s *replay.Server) []string {
				return []string{"volcengine.ecs=" + s.URL, "volcengine.billing=" + s.URL}
			},
			env: map[string]string{"VOLCENGINE_ACCESS_KEY": "AKREPLAY", "VOLCENGINE_SECRET_KEY": "replay-secret"},
		},
	}
}

// FXFile is the ECB reference-rate file the embedded catalog converts with.
const FXFile = "providers/fx/testdata/ecb-2025-11-28.xml"

func main() {
	out := flag.String("out", "data/catalog.json", "where to write the catalog")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "mkdata:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	fxs := fixtures()
	env := map[string]string{
		// Isolate the AWS SDK from the machine's own configuration.
		"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
	}
	args := []string{"crawl", "--fx-file", FXFile, "--no-rate-limit"}
	var names []string
	manifests := map[catalog.Provider]replay.Manifest{}
	for _, f := range fxs {
		srv, err := replay.Start(os.DirFS(f.dir), f.dialect)
		if err != nil {
			return fmt.Errorf("%s: %w", f.provider, err)
		}
		defer srv.Close()
		manifests[f.provider] = srv.Manifest
		for _, e := range f.endpoints(srv) {
			args = append(args, "--endpoint", e)
		}
		for k, v := range f.env {
			env[k] = v
		}
		names = append(names, string(f.provider))
	}
	tmp, err := os.MkdirTemp("", "mkdata-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	raw := filepath.Join(tmp, "catalog.json")
	args = append(args, "--providers", strings.Join(names, ","), "--out", raw)
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
		c.Sources = append([]string{"replay of recorded responses (make data): " + fixtureDir(c.Provider)}, m.Sources...)
		sort.Strings(c.Sources[1:])
		for _, n := range m.Notes {
			if strings.HasPrefix(n, "as_of") {
				c.Sources = append(c.Sources, n) // what the date means when it is not a capture date
			}
		}
	}
	return s.Validate()
}

func fixtureDir(p catalog.Provider) string {
	for _, f := range fixtures() {
		if f.provider == p {
			return f.dir
		}
	}
	return ""
}
