package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// publishedSite builds a site from real rows of the embedded catalog with the
// committed published results (data/benchmarks/published) and their costs.
func publishedSite(t *testing.T) string {
	t.Helper()
	testlane.Long(t, "builds a whole site")
	snap, ref := realRows(t, "aws/p5.48xlarge", "aws/p5.4xlarge", "aws/g4dn.xlarge", "aws/g6.xlarge", "aws/g6.48xlarge",
		"aws/g5.xlarge", "alibaba/ecs.gn8v-8x.48xlarge")
	workloads := datatest.Load(t, catalog.LoadWorkloads)
	// The uploads are validated against the whole catalog, as a build does.
	full := datatest.Snapshot(t)
	runs, probs := catalog.LoadBenchmarksFS(data.FS, "benchmarks", "data/", full, workloads, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	if len(probs) > 0 {
		t.Fatalf("uploads: %v", probs)
	}
	out := filepath.Join(t.TempDir(), "site")
	renderSite(t, out, sitegen.Options{Snapshot: snap, Reference: ref,
		Benchmarks: runs, Workloads: workloads, BenchmarkCosts: compare.CostPerWork(snap, runs, workloads)})
	return out
}

// text is the visible text of the element sel selects.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return browsertest.Eval[string](t, ctx, `(document.querySelector(`+browsertest.JSString(sel)+`) || {innerText: ''}).innerText`)
}

// The published results on the pages a buyer reads: an estimate names its
// round, system, submitter and GPU count; NVIDIA's own figures are marked
// vendor-tuned; a type with a published result on itself is measured; a
// type whose count has no result says so; a GPU without any published result
// says so; Chinese pages say it all in Chinese. Screenshots of the H100 GPU
// page and p5.48xlarge, in both languages, on a desktop and a phone.
func TestBrowser_PublishedResults(t *testing.T) {
	t.Parallel()
	dir := publishedSite(t)
	site, ctx, exceptions := browse(t, dir)

	open := func(path string) {
		browsertest.Do(t, ctx, "open "+path, chromedp.Navigate(site+path), chromedp.WaitReady(chromedp.CSS("footer")))
	}
	open("/instances/aws/p5.48xlarge.html")
	p5 := text(t, ctx, "section.published")
	for _, want := range []string{"MLPerf Inference", "MLPerf Llama 2 70B", "Offline", "Server", "8× NVIDIA H100 SXM5 80GB", "submitter", "lower median of"} {
		if !strings.Contains(p5, want) {
			t.Errorf("p5.48xlarge published results lack %q:\n%s", want, p5)
		}
	}
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('table.pub tr[data-basis="measured"]').length`); n != 0 {
		t.Errorf("p5.48xlarge: %d measured published figures, want 0 (no cloud of the five submitted a p5)", n)
	}
	if got := text(t, ctx, "ul.pub-gaps"); !strings.Contains(got, "No result for this count") || !strings.Contains(got, "none at 8") {
		t.Errorf("p5.48xlarge: no count gap said (Llama 3.1 405B has results on 16 and 32 H100 only): %q", got)
	}
	if n := browsertest.Eval[int](t, ctx, `[...document.querySelectorAll('table.pub .badge.vendor')].length`); n == 0 {
		t.Error("p5.48xlarge: no vendor-tuned mark (NVIDIA's own results and tables are used)")
	}

	open("/instances/aws/g4dn.xlarge.html")
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('table.pub tr[data-basis="measured"]').length`); n == 0 {
		t.Error("g4dn.xlarge: cTuning's MLPerf v3.0 results on g4dn.xlarge give no measured figure")
	}

	open("/instances/aws/g6.xlarge.html")
	if got := text(t, ctx, "ul.pub-gaps"); !strings.Contains(got, "none at 1") {
		t.Errorf("g6.xlarge (1x L4): want 'no result for this count' where L4 results are for 8 GPUs: %q", got)
	}

	for _, gpu := range []string{"nvidia-a10g-24gb", "nvidia-h20-96gb"} {
		open("/gpus/" + gpu + ".html")
		if got := text(t, ctx, "#published-heading + p"); !strings.Contains(got, "No published result") {
			t.Errorf("%s: %q, want 'No published result'", gpu, got)
		}
	}
	open("/zh/gpus/nvidia-h20-96gb.html")
	if got := text(t, ctx, "#published-heading + p"); !strings.Contains(got, "没有公开发布的结果") {
		t.Errorf("zh H20 page: %q", got)
	}
	open("/zh/instances/aws/p5.48xlarge.html") // its costs in the page's currency, CNY
	if got := text(t, ctx, "section.published"); !strings.Contains(got, "离线") || !strings.Contains(got, "提交者") || !strings.Contains(got, "人民币 / 百万 token") {
		t.Errorf("zh p5.48xlarge published results not in Chinese: %q", got)
	}
	open("/benchmarks/mlperf-llama2-70b.html")
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('table.pub tbody tr').length`); n == 0 {
		t.Error("the Llama 2 70B page lists no instance type's cost")
	}
	open("/benchmarks/mlperf-llama2-70b/offline.html")
	if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('table.pub-runs tbody tr').length`); n < 50 {
		t.Errorf("the Llama 2 70B Offline results page lists %d results", n)
	}
	exceptions.Check(t)

	// The published sections alone, for a person to read them closely.
	for _, p := range []string{"/instances/aws/p5.48xlarge.html", "/zh/instances/aws/p5.48xlarge.html", "/gpus/nvidia-h100-sxm-80gb.html", "/zh/gpus/nvidia-h100-sxm-80gb.html", "/instances/aws/g6.xlarge.html"} {
		open(p)
		browsertest.ElementShot(t, ctx, "section.published", "section-"+strings.NewReplacer("/", "-", ".html", "").Replace(strings.TrimPrefix(p, "/"))+".png")
	}

	browsertest.Shots{
		Pages: []browsertest.Page{
			{Name: "published-gpu-h100", Path: "/gpus/nvidia-h100-sxm-80gb.html#published"},
			{Name: "published-zh-gpu-h100", Path: "/zh/gpus/nvidia-h100-sxm-80gb.html#published"},
			{Name: "published-p5", Path: "/instances/aws/p5.48xlarge.html#published"},
			{Name: "published-zh-p5", Path: "/zh/instances/aws/p5.48xlarge.html#published"},
			{Name: "published-gpu-h20", Path: "/gpus/nvidia-h20-96gb.html#published"},
			{Name: "published-workload", Path: "/benchmarks/mlperf-llama2-70b.html"},
			{Name: "published-zh-workload", Path: "/zh/benchmarks/mlperf-llama2-70b.html"},
		},
		NoExceptions: true,
	}.Save(t, site)
}
