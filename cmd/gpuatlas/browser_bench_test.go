package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/compare"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/datatest"
	"github.com/gpuatlas/gpuatlas/sitegen"
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
			if !early || p.InstanceType != "g6f.large" {
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
// eight-day history, once for the package's tests (a shared site: never change
// it).
func buildBenchSite(t *testing.T) string {
	return sites.Get(t, "bench", func(t *testing.T, out string) {
		snap := testSnapshot(t)
		w := datatest.Load(t, catalog.LoadWorkloads)
		runs := benchRuns()
		renderSite(t, out, withTestReference(t, sitegen.Options{Snapshot: snap, Benchmarks: runs, Workloads: w,
			BenchmarkCosts: compare.CostPerWork(snap, runs, w), History: dailyHistory(t, snap)}))
	})
}

const benchRows = `[...document.querySelectorAll('#bench-body tr')].filter(r => !r.hidden).map(r => r.querySelector('td:last-child code').textContent)`

func TestBrowser_BenchmarksFilter(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildBenchSite(t))

	browsertest.Do(t, ctx, "open benchmarks", chromedp.Navigate(site+"/benchmarks.html"), chromedp.WaitReady(chromedp.CSS(`table.bench[data-ready]`)))
	all := []string{"data/benchmarks/example.csv:2", "data/benchmarks/other.yaml:7", "data/benchmarks/example.csv:3"}
	if diff := cmp.Diff(all, browsertest.Eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows before filtering (-want +got):\n%s", diff)
	}
	if hidden := browsertest.Eval[bool](t, ctx, `document.getElementById('bench-filters').hidden`); hidden {
		t.Error("the filters are hidden once the script has run")
	}
	browsertest.Screenshot(t, ctx, "benchmarks.png")

	browsertest.SetControl(t, ctx, "bf-workload", "llm-inference-8b")
	want := []string{"data/benchmarks/other.yaml:7", "data/benchmarks/example.csv:3"}
	if diff := cmp.Diff(want, browsertest.Eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows of llm-inference-8b (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('bench-count').textContent`); got != "2 of 3 runs" {
		t.Errorf("count = %q", got)
	}
	if got := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('section.workload')].filter(s => !s.hidden).map(s => s.dataset.workload)`); !cmp.Equal(got, []string{"llm-inference-8b"}) {
		t.Errorf("cost sections shown = %v, want only llm-inference-8b", got)
	}
	browsertest.SetControl(t, ctx, "bf-provider", "alibaba")
	if diff := cmp.Diff([]string{"data/benchmarks/example.csv:3"}, browsertest.Eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows of llm-inference-8b on Alibaba (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `location.search`); got != "?workload=llm-inference-8b&provider=alibaba" {
		t.Errorf("URL query = %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); got != "/zh/benchmarks.html?workload=llm-inference-8b&provider=alibaba" {
		t.Errorf("language switch = %q, want the same filters", got)
	}
	browsertest.Screenshot(t, ctx, "benchmarks-filtered.png")

	// The filters come back from the URL; GPU filters too.
	browsertest.Do(t, ctx, "open filtered", chromedp.Navigate(site+"/zh/benchmarks.html?gpu=nvidia-h100-sxm-80gb"), chromedp.WaitReady(chromedp.CSS(`table.bench[data-ready]`)))
	if diff := cmp.Diff([]string{"data/benchmarks/example.csv:2"}, browsertest.Eval[[]string](t, ctx, benchRows)); diff != "" {
		t.Errorf("rows of the H100 (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('bench-count').textContent`); got != "3 条记录中的 1 条" {
		t.Errorf("Chinese count = %q", got)
	}
	browsertest.Do(t, ctx, "reset", chromedp.Click(chromedp.CSS(`#bf-reset`)))
	browsertest.WaitFor(t, ctx, `document.querySelectorAll('#bench-body tr:not([hidden])').length === 3`)
	if got := browsertest.Eval[string](t, ctx, `location.search`); got != "" {
		t.Errorf("after reset the URL query is %q", got)
	}

	// The explorer's cost column tells measured from estimated figures: the
	// Volcano Engine A10 type is estimated from the Alibaba A10 run.
	browsertest.Do(t, ctx, "open explorer", chromedp.Navigate(site+"/offers.html?view=offers&wl=1&cols=provider,type,price,work"), chromedp.WaitReady(chromedp.CSS(ready)))
	cell := func(key string) string {
		return browsertest.Eval[string](t, ctx, `(() => { const r = document.querySelector('tr[data-key="`+key+`"] td.c-work'); return r ? r.innerHTML : 'no cell'; })()`)
	}
	if got := cell("alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"); !strings.Contains(got, `class="badge measured"`) {
		t.Errorf("the Alibaba A10 cost cell = %q, want a measured badge", got)
	}
	if got := cell("volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand"); !strings.Contains(got, `class="badge estimated"`) || !strings.Contains(got, "estimated") {
		t.Errorf("the Volcano Engine A10 cost cell = %q, want an estimated badge", got)
	}
	browsertest.Screenshot(t, ctx, "offers-work-cost.png")
	exceptions.Check(t)
}

func TestBrowser_BenchmarksWithoutJavaScript(t *testing.T) {
	t.Parallel()
	site, ctx, _ := browse(t, buildBenchSite(t))
	browsertest.DisableJavaScript(t, ctx)
	browsertest.Do(t, ctx, "open benchmarks", chromedp.Navigate(site+"/benchmarks.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	if n := len(browsertest.Eval[[]string](t, ctx, benchRows)); n != 3 {
		t.Errorf("%d rows without JavaScript, want every run", n)
	}
	if shown := browsertest.Eval[bool](t, ctx, `getComputedStyle(document.getElementById('bench-filters')).display !== 'none'`); shown {
		t.Error("the filters show although they cannot work without JavaScript")
	}
	for _, p := range []string{"/changes/", "/gpus/nvidia-h100-sxm-80gb.html"} {
		browsertest.Do(t, ctx, "open "+p, chromedp.Navigate(site+p), chromedp.WaitReady(chromedp.CSS("footer")))
		if got := browsertest.Eval[string](t, ctx, `document.querySelector('main h1').textContent`); got == "" {
			t.Errorf("%s has no heading without JavaScript", p)
		}
	}
}

// TestBrowser_BenchmarkAndChangesScreenshots saves the new pages on a desktop and
// a phone for a person to look at, and checks no page is wider than a phone.
func TestBrowser_BenchmarkAndChangesScreenshots(t *testing.T) {
	t.Parallel()
	site := serveSite(t, buildBenchSite(t))
	browsertest.Shots{
		Pages: []browsertest.Page{
			{Name: "benchmarks", Path: "/benchmarks.html"},
			{Name: "changes", Path: "/changes/"},
			{Name: "changes-archive", Path: "/changes/2026-11-27.html"},
			{Name: "zh-changes", Path: "/zh/changes/"},
			{Name: "instance-p5-history-bench", Path: "/instances/aws/p5.48xlarge.html#benchmarks"},
			{Name: "instance-volcengine-estimated", Path: "/instances/volcengine/ecs.gni2.3xlarge.html#benchmarks"},
			{Name: "gpu-a10-trend", Path: "/gpus/nvidia-a10-24gb.html#price-trend"},
			{Name: "zh-gpu-h100-trend", Path: "/zh/gpus/nvidia-h100-sxm-80gb.html#price-trend"},
		},
		Check: func(t *testing.T, ctx context.Context, p browsertest.Page) {
			if broken := browsertest.Eval[[]string](t, ctx, `[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)`); len(broken) > 0 {
				t.Errorf("%s: images that do not load: %v", p.Path, broken)
			}
		},
	}.Save(t, site)
}
