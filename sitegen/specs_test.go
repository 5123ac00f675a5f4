package sitegen

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/templates"
)

// realRows is the embedded catalog (data/catalog.json) cut down to the given
// instance types with their offers, placements and regions: real rows as the
// crawl reconciled them, with the real GPU reference.
func realRows(t *testing.T, keys ...string) Options {
	t.Helper()
	full := datatest.Snapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	s := &catalog.Snapshot{Schema: full.Schema, TakenAt: full.TakenAt, FX: full.FX, Coverage: full.Coverage}
	keep := map[string]bool{}
	for _, it := range full.Instances {
		if slices.Contains(keys, it.Key()) {
			keep[it.Key()] = true
			s.Instances = append(s.Instances, it)
		}
	}
	if len(s.Instances) != len(keys) {
		t.Fatalf("found %d of the instance types %v", len(s.Instances), keys)
	}
	regions := map[string]bool{}
	for _, o := range full.Offers {
		if keep[o.InstanceKey()] {
			s.Offers = append(s.Offers, o)
			regions[string(o.Provider)+"/"+o.Region] = true
		}
	}
	for _, p := range full.Placements {
		if keep[string(p.Provider)+"/"+p.InstanceType] {
			s.Placements = append(s.Placements, p)
			regions[string(p.Provider)+"/"+p.Region] = true
		}
	}
	for _, r := range full.Regions {
		if regions[r.Key()] {
			s.Regions = append(s.Regions, r)
		}
	}
	for _, u := range full.Unmapped {
		var types []string
		for _, id := range u.InstanceTypes {
			if keep[string(u.Provider)+"/"+id] {
				types = append(types, id)
			}
		}
		if len(types) > 0 {
			u.InstanceTypes = types
			s.Unmapped = append(s.Unmapped, u)
		}
	}
	return Options{Snapshot: s, Reference: ref, Templates: templates.FS, OutDir: filepath.Join(t.TempDir(), "site"), BaseURL: "/"}
}

// The memory and network figures of real rows read as the issue asks, in both
// languages: the nominal class with the usable memory, a figure from the
// reference said so, a spec conflict with both values, the network total.
func TestSpecs_RealRows(t *testing.T) {
	opts := realRows(t, "aws/g5.12xlarge", "aws/trn2.48xlarge", "aws/p5.48xlarge", "tencent/GN7.2XLARGE32",
		"alibaba/ecs.gn8t.4xlarge")
	build(t, opts)
	out := opts.OutDir
	g5 := readPage(t, out, "instances/aws/g5.12xlarge.html")
	wantContains(t, "g5.12xlarge", g5,
		`4 × NVIDIA A10G, 96 GB (89.41 GiB usable)`,
		`<td class="num">24 GB<small class="sub">22.35 GiB usable</small></td>`)
	trn2 := readPage(t, out, "instances/aws/trn2.48xlarge.html")
	wantContains(t, "trn2.48xlarge", trn2,
		`<a class="badge warn" href="#conflicts"`,
		`16 × AWS Trainium2, 1649.28 GB (by the GPU reference; see the spec conflict)`,
		`103.08 GB<small class="sub"><span class="badge warn"`, `the provider reports 512 GiB`,
		`Trainium2: the provider reports 512 GiB of memory per device; the GPU reference (AWS Trainium2) gives 103.08 GB.`,
		`16x 200 Gigabit (3200 Gbit/s for the instance, all network cards together)`,
		`16 network cards, peak Gbit/s each: 16 × 200`, `efa (EFA interfaces: up to 16)`)
	wantContains(t, "zh trn2.48xlarge", readPage(t, out, "zh/instances/aws/trn2.48xlarge.html"),
		`Trainium2：云厂商报告每个设备显存 512 GiB；GPU 参考表（AWS Trainium2）为 103.08 GB。`,
		`整机 3200 Gbit/s，所有网卡合计`)
	wantContains(t, "p5.48xlarge", readPage(t, out, "instances/aws/p5.48xlarge.html"),
		`3200 Gigabit (3200 Gbit/s for the instance, all network cards together)`, `32 network cards, peak Gbit/s each: 32 × 100`)
	wantContains(t, "GN7.2XLARGE32", readPage(t, out, "instances/tencent/gn7.2xlarge32.html"),
		`1 × NVIDIA T4, 16 GB (memory from the GPU reference)`,
		`<td class="num">16 GB<small class="sub">memory from the GPU reference</small></td>`)
	wantContains(t, "zh GN7.2XLARGE32", readPage(t, out, "zh/instances/tencent/gn7.2xlarge32.html"),
		`16 GB (显存数据取自 GPU 参考表)`)

	cov := readPage(t, out, "coverage.html")
	wantContains(t, "coverage page", cov,
		`<td><code>G49</code></td>`,
		`<a href="/instances/aws/trn2.48xlarge.html">trn2.48xlarge</a></td><td>Trainium2 <small class="id" translate="no">AWS Trainium2</small></td><td class="num">512 GiB</td><td class="num">103.08 GB</td>`,
		`<td>Tencent Cloud</td><td><a href="/gpus/nvidia-t4-16gb.html">NVIDIA T4</a></td><td class="num">16 GB</td>`)
	wantContains(t, "zh coverage page", readPage(t, out, "zh/coverage.html"), `规格冲突`, `<td><code>G49</code></td>`)
	idx := readPage(t, out, "index.html")
	wantContains(t, "overview", idx, `Spec conflicts with the GPU reference: 1.`, `<a href="/coverage.html">See the coverage page.</a>`)
	if strings.Contains(idx, `<code>G49</code>`) {
		t.Error("the overview still lists the unmapped accelerators; they are on the coverage page")
	}
	wantContains(t, "A10G page", readPage(t, out, "gpus/nvidia-a10g-24gb.html"),
		`<td class="num">24 GB<small class="sub">22.35 GiB usable</small></td><td>usable memory as the provider reports it</td>`)
	wantContains(t, "Trainium2 page", readPage(t, out, "gpus/aws-trainium2.html"), `the provider reports 512 GiB`)

	// The explorer's gpu_memory filter reads the class: 24 per A10G, 96 in all.
	var f struct {
		Types [][]any `json:"types"`
	}
	if err := json.Unmarshal([]byte(readPage(t, out, "data/offers.json")), &f); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ty := range f.Types {
		if ty[1] == "g5.12xlarge" {
			found = true
			if ty[6] != float64(96) || ty[7] != float64(24) {
				t.Errorf("g5.12xlarge in offers.json: total %v, each %v; want 96, 24", ty[6], ty[7])
			}
		}
	}
	if !found {
		t.Error("g5.12xlarge is not in offers.json")
	}
}
