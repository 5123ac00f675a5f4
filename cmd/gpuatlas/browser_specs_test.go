package main

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// realRowsSite builds a site from the embedded catalog (data/catalog.json) cut
// down to the given instance types, with the committed GPU reference: real
// rows as the crawl reconciled them.
func realRowsSite(t *testing.T, keys ...string) string {
	t.Helper()
	s, ref := realRows(t, keys...)
	out := filepath.Join(t.TempDir(), "site")
	renderSite(t, out, sitegen.Options{Snapshot: s, Reference: ref})
	return out
}

// realRows is the embedded catalog cut down to the given instance types, and
// the committed GPU reference.
func realRows(t *testing.T, keys ...string) (*catalog.Snapshot, *catalog.GPUReference) {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	full := datatest.Snapshot(t)
	ref := datatest.Load(t, catalog.LoadGPUReference)
	s := &catalog.Snapshot{Schema: full.Schema, TakenAt: full.TakenAt, FX: full.FX, Coverage: full.Coverage, Regions: full.Regions}
	for _, it := range full.Instances {
		if slices.Contains(keys, it.Key()) {
			s.Instances = append(s.Instances, it)
		}
	}
	for _, o := range full.Offers {
		if slices.Contains(keys, o.InstanceKey()) {
			s.Offers = append(s.Offers, o)
		}
	}
	for _, p := range full.Placements {
		if slices.Contains(keys, string(p.Provider)+"/"+p.InstanceType) {
			s.Placements = append(s.Placements, p)
		}
	}
	for _, u := range full.Unmapped {
		var ids []string
		for _, id := range u.InstanceTypes {
			if slices.Contains(keys, string(u.Provider)+"/"+id) {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			u.InstanceTypes = ids
			s.Unmapped = append(s.Unmapped, u)
		}
	}
	if len(s.Instances) != len(keys) {
		t.Fatalf("found %d of %v in the embedded catalog", len(s.Instances), keys)
	}
	return s, ref
}

// The explorer's gpu_memory filter reads the nominal class: A10G and L4 report
// 22.35 GiB usable but are 24 GB parts, so gpu_memory>=24 keeps g5.12xlarge and
// g6.12xlarge; a 16 GB T4 stays out. The pages that show the figures are saved
// on a desktop and a phone, in both languages.
func TestBrowser_RealRowsMemoryClassAndConflicts(t *testing.T) {
	t.Parallel()
	dir := realRowsSite(t, "aws/g5.12xlarge", "aws/g6.12xlarge", "aws/g4dn.xlarge", "aws/p5.48xlarge",
		"aws/trn2.48xlarge", "tencent/GN7.2XLARGE32", "alibaba/ecs.gn8t.4xlarge")
	site, ctx, exceptions := browse(t, dir)
	typesShown := `[...new Set([...document.querySelectorAll('tbody#offers-body tr')].map(r => r.dataset.key.split('/').slice(0, 2).join('/')))].sort()`
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{"gpu_memory>=24 provider:aws region:us-east-1", []string{"aws/g5.12xlarge", "aws/g6.12xlarge", "aws/p5.48xlarge"}},
		{"gpu_memory<24 provider:aws region:us-east-1", []string{"aws/g4dn.xlarge"}},
		{"gpu_memory_total>=96 gpu_memory<=24 provider:aws region:us-east-1", []string{"aws/g5.12xlarge", "aws/g6.12xlarge"}},
		{"gpu_memory=16 provider:tencent", []string{"tencent/GN7.2XLARGE32"}},
	} {
		browsertest.Do(t, ctx, tc.expr, chromedp.Navigate(site+"/offers.html"), chromedp.WaitReady(chromedp.CSS(ready)))
		browsertest.SetControl(t, ctx, "filter-x", tc.expr)
		// The URL carries the expression once the explorer has applied it.
		browsertest.WaitFor(t, ctx, `new URLSearchParams(location.search).get('x') === `+browsertest.JSString(tc.expr))
		got := browsertest.Eval[[]string](t, ctx, typesShown)
		sort.Strings(got)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.expr, diff)
		}
	}
	browsertest.Do(t, ctx, "g5.12xlarge page", chromedp.Navigate(site+"/instances/aws/g5.12xlarge.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('dl.specs').innerText`); !strings.Contains(got, "96 GB (89.41 GiB usable)") {
		t.Errorf("g5.12xlarge specs %q lack the class with the usable memory", got)
	}
	exceptions.Check(t)

	browsertest.Shots{NoExceptions: true, Pages: []browsertest.Page{
		{Name: "specs-trn2", Path: "/instances/aws/trn2.48xlarge.html"},
		{Name: "specs-g5.12xlarge", Path: "/instances/aws/g5.12xlarge.html"},
		{Name: "specs-gn7", Path: "/instances/tencent/gn7.2xlarge32.html"},
		{Name: "specs-coverage", Path: "/coverage.html"},
		{Name: "specs-gpu-a10g", Path: "/gpus/nvidia-a10g-24gb.html"},
		{Name: "specs-zh-trn2", Path: "/zh/instances/aws/trn2.48xlarge.html"},
		{Name: "specs-zh-coverage", Path: "/zh/coverage.html"},
		{Name: "specs-offers-gpu-memory", Path: "/offers.html?x=gpu_memory%3E%3D24", Wait: ready},
	}}.Save(t, site)
}
