package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/data"
	"github.com/gpuatlas/gpuatlas/sitegen"
	"github.com/gpuatlas/gpuatlas/templates"
)

// benchRuns are benchmark runs on the test snapshot's types: measured on the H100
// and one A10 type (which gives the other A10 type an estimate) and the A10G.
func benchRuns() []catalog.BenchmarkRun {
	return []catalog.BenchmarkRun{
		{File: "data/benchmarks/example.csv", Line: 2, Submitter: "Example Lab", RunDate: "2026-10-01", Provider: catalog.AWS,
			InstanceType: "p5.48xlarge", Region: "us-east-1", GPUCountUsed: 8, Workload: "llm-inference-70b", Metric: "throughput",
			Unit: "tokens/s", Value: catalog.Dec("2400"), HigherIsBetter: true, Driver: "550.54.15", CUDA: "12.4",
			Framework: "vLLM 0.6.3", Image: "763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124",
			SourceURL: "https://example.com/runs/1", Notes: "Llama 3.1 70B, batch 64, 1000 prompts of 512 tokens."},
		{File: "data/benchmarks/example.csv", Line: 3, Submitter: "Other Lab", RunDate: "2026-09-15", Provider: catalog.Alibaba,
			InstanceType: "ecs.gn7i-c8g1.2xlarge", Workload: "llm-inference-8b", Metric: "throughput", Unit: "tokens/s",
			Value: catalog.Dec("45.5"), HigherIsBetter: true, Framework: "TGI 2.0", SourceURL: "javascript:alert(1)"},
		{File: "data/benchmarks/other.yaml", Line: 7, Submitter: "Someone", RunDate: "2026-08-01", Provider: catalog.AWS,
			InstanceType: "g5.xlarge", Workload: "llm-inference-8b", Metric: "throughput", Unit: "tokens/s",
			Value: catalog.Dec("38"), HigherIsBetter: true, CUDA: "12.1", SourceURL: "https://example.org/results"},
	}
}

// dailyHistory records the snapshot as the last of eight daily crawls whose
// prices drift before it, with one type added on the fourth day and an offer sold
// out on the last.
func dailyHistory(t *testing.T, cur *catalog.Snapshot) *catalog.History {
	t.Helper()
	h := catalog.NewHistory()
	const n = 8
	for k := 0; k < n; k++ {
		s := *cur
		s.TakenAt = cur.TakenAt.Add(-time.Duration(n-1-k) * 24 * time.Hour)
		s.Instances, s.Offers, s.Placements = nil, nil, nil
		early := k < 3
		for _, it := range cur.Instances {
			if early && it.ID == "g6f.large" {
				continue
			}
			s.Instances = append(s.Instances, it)
		}
		for _, p := range cur.Placements {
			if !(early && p.InstanceType == "g6f.large") {
				s.Placements = append(s.Placements, p)
			}
		}
		for i, o := range cur.Offers {
			if early && o.InstanceType == "g6f.large" {
				continue
			}
			o.FetchedAt = s.TakenAt
			if k < n-1 {
				// Up to 12% dearer in the past, by offer and day.
				f := decimal.NewFromFloat(1 + 0.02*float64((k*(i+3))%7)).Round(2)
				o.Price.Amount = o.Price.Amount.Mul(f).Round(4)
				if o.Availability == catalog.SoldOut {
					o.Availability = catalog.Available
				}
			}
			s.Offers = append(s.Offers, o)
		}
		if _, err := h.Append(&s); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// buildBenchSite renders the test snapshot with the benchmark runs and an
// eight-day history.
func buildBenchSite(t *testing.T) string {
	t.Helper()
	testdata := filepath.Join("..", "..", "sitegen", "testdata")
	snap, err := catalog.ReadSnapshot(filepath.Join(testdata, "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := catalog.LoadGPUReference(os.DirFS(testdata))
	if err != nil {
		t.Fatal(err)
	}
	w, err := catalog.LoadWorkloads(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	runs := benchRuns()
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := sitegen.Build(sitegen.Options{Snapshot: snap, Reference: ref, Templates: templates.FS, OutDir: dir, BaseURL: "/",
		Benchmarks: runs, Workloads: w, BenchmarkCosts: compare.CostPerWork(snap, runs, w), History: dailyHistory(t, snap)}); err != nil {
		t.Fatal(err)
	}
	return dir
}

const benchRows = `[...document.querySelectorAll('#bench-body tr')].filter(r => !r.hidden).map(r => r.querySelector('td:last-child code').textContent)`

func TestBrowser_BenchmarksFilter(t *testing.T) {
	dir := buildBenchSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)
	exceptions := collectExceptions(ctx)

	do(t, ctx, "open benchmarks", chromedp.Navigate(srv.URL+"/benchmarks.html"), chromedp.WaitReady(chromedp.CSS(`table.bench[data-ready]`)))
	all := []string{"data/benchmarks/example.csv:2", "data/benchmarks/other.yaml:7", "data/benchmarks/example.csv:3"}
	if diff := cmp.Diff(all, eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows before filtering (-want +got):\n%s", diff)
	}
	if hidden := eval[bool](t, ctx, `document.getElementById('bench-filters').hidden`); hidden {
		t.Error("the filters are hidden once the script has run")
	}
	screenshot(t, ctx, "benchmarks.png")

	setControl(t, ctx, "bf-workload", "llm-inference-8b")
	want := []string{"data/benchmarks/other.yaml:7", "data/benchmarks/example.csv:3"}
	if diff := cmp.Diff(want, eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows of llm-inference-8b (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `document.getElementById('bench-count').textContent`); got != "2 of 3 runs" {
		t.Errorf("count = %q", got)
	}
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('section.workload')].filter(s => !s.hidden).map(s => s.dataset.workload)`); !cmp.Equal(got, []string{"llm-inference-8b"}) {
		t.Errorf("cost sections shown = %v, want only llm-inference-8b", got)
	}
	setControl(t, ctx, "bf-provider", "alibaba")
	if diff := cmp.Diff([]string{"data/benchmarks/example.csv:3"}, eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows of llm-inference-8b on Alibaba (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `location.search`); got != "?workload=llm-inference-8b&provider=alibaba" {
		t.Errorf("URL query = %q", got)
	}
	if got := eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); got != "/zh/benchmarks.html?workload=llm-inference-8b&provider=alibaba" {
		t.Errorf("language switch = %q, want the same filters", got)
	}
	screenshot(t, ctx, "benchmarks-filtered.png")

	// The filters come back from the URL; GPU filters too.
	do(t, ctx, "open filtered", chromedp.Navigate(srv.URL+"/zh/benchmarks.html?gpu=nvidia-h100-sxm-80gb"), chromedp.WaitReady(chromedp.CSS(`table.bench[data-ready]`)))
	if diff := cmp.Diff([]string{"data/benchmarks/example.csv:2"}, eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows of the H100 (-want +got):\n%s", diff)
	}
	if got := eval[string](t, ctx, `document.getElementById('bench-count').textContent`); got != "3 条记录中的 1 条" {
		t.Errorf("Chinese count = %q", got)
	}
	do(t, ctx, "reset", chromedp.Click(chromedp.CSS(`#bf-reset`)))
	waitFor(t, ctx, `document.querySelectorAll('#bench-body tr:not([hidden])').length === 3`)
	if got := eval[string](t, ctx, `location.search`); got != "" {
		t.Errorf("after reset the URL query is %q", got)
	}

	// The explorer's cost column tells measured from estimated figures: the
	// Volcano Engine A10 type is estimated from the Alibaba A10 run.
	do(t, ctx, "open explorer", chromedp.Navigate(srv.URL+"/offers.html?wl=1&cols=provider,type,price,work"), chromedp.WaitReady(chromedp.CSS(ready)))
	cell := func(key string) string {
		return eval[string](t, ctx, `(() => { const r = document.querySelector('tr[data-key="`+key+`"] td.c-work'); return r ? r.innerHTML : 'no cell'; })()`)
	}
	if got := cell("alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"); !strings.Contains(got, `class="badge measured"`) {
		t.Errorf("the Alibaba A10 cost cell = %q, want a measured badge", got)
	}
	if got := cell("volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand"); !strings.Contains(got, `class="badge estimated"`) || !strings.Contains(got, "estimated") {
		t.Errorf("the Volcano Engine A10 cost cell = %q, want an estimated badge", got)
	}
	screenshot(t, ctx, "offers-work-cost.png")
	for _, e := range exceptions() {
		t.Errorf("uncaught script exception: %s", e)
	}
}

func TestBrowser_BenchmarksWithoutJavaScript(t *testing.T) {
	dir := buildBenchSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	ctx := newBrowser(t)
	do(t, ctx, "open tab", chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatalf("disable JavaScript: %v", err)
	}
	do(t, ctx, "open benchmarks", chromedp.Navigate(srv.URL+"/benchmarks.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	if n := len(eval[[]string](t, ctx, benchRows)); n != 3 {
		t.Errorf("%d rows without JavaScript, want every run", n)
	}
	if shown := eval[bool](t, ctx, `getComputedStyle(document.getElementById('bench-filters')).display !== 'none'`); shown {
		t.Error("the filters show although they cannot work without JavaScript")
	}
	for _, p := range []string{"/changes/", "/gpus/nvidia-h100-sxm-80gb.html"} {
		do(t, ctx, "open "+p, chromedp.Navigate(srv.URL+p), chromedp.WaitReady(chromedp.CSS("footer")))
		if got := eval[string](t, ctx, `document.querySelector('main h1').textContent`); got == "" {
			t.Errorf("%s has no heading without JavaScript", p)
		}
	}
}

// TestBrowser_BenchmarkAndChangesScreenshots saves the new pages on a desktop and
// a phone for a person to look at, and checks no page is wider than a phone.
func TestBrowser_BenchmarkAndChangesScreenshots(t *testing.T) {
	dir := buildBenchSite(t)
	srv := httptest.NewServer(newServeHandler(dir))
	defer srv.Close()
	pages := []struct{ name, path string }{
		{"benchmarks", "/benchmarks.html"},
		{"changes", "/changes/"},
		{"changes-archive", "/changes/2026-11-27.html"},
		{"zh-changes", "/zh/changes/"},
		{"instance-p5-history-bench", "/instances/aws/p5.48xlarge.html#benchmarks"},
		{"instance-volcengine-estimated", "/instances/volcengine/ecs.gni2.3xlarge.html#benchmarks"},
		{"gpu-a10-trend", "/gpus/nvidia-a10-24gb.html#price-trend"},
		{"zh-gpu-h100-trend", "/zh/gpus/nvidia-h100-sxm-80gb.html#price-trend"},
	}
	for _, size := range []struct {
		name          string
		width, height int
	}{{"desktop", 1400, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ctx := newBrowserSized(t, size.width, size.height)
			if size.name == "phone" {
				do(t, ctx, "emulate a phone", chromedp.EmulateViewport(int64(size.width), int64(size.height),
					chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
			}
			for _, p := range pages {
				do(t, ctx, "open "+p.path, chromedp.Navigate(srv.URL+p.path), chromedp.WaitReady(chromedp.CSS("footer")))
				if size.name == "phone" {
					if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > size.width {
						t.Errorf("%s is %d pixels wide on a %d-pixel screen", p.path, w, size.width)
					}
				}
				if broken := eval[[]string](t, ctx, `[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)`); len(broken) > 0 {
					t.Errorf("%s: images that do not load: %v", p.path, broken)
				}
				screenshot(t, ctx, size.name+"-"+p.name+".png")
			}
		})
	}
}
