package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/gpuatlas/gpuatlas/catalog"
	"github.com/gpuatlas/gpuatlas/internal/benchrow"
	"github.com/gpuatlas/gpuatlas/internal/browsertest"
	"github.com/gpuatlas/gpuatlas/internal/synth"
	"github.com/gpuatlas/gpuatlas/internal/testlane"
	"github.com/gpuatlas/gpuatlas/sitegen"
)

// testdata is sitegen's test data: the snapshot and the GPU reference its
// golden tests use.
var testdata = filepath.Join("..", "..", "sitegen", "testdata")

// testSnapshot reads sitegen's test snapshot.
func testSnapshot(t *testing.T) *catalog.Snapshot {
	t.Helper()
	snap, err := catalog.ReadSnapshot(filepath.Join(testdata, "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// buildTestSite renders sitegen's test snapshot, once for the package's tests
// (a shared site: never change it).
func buildTestSite(t *testing.T) string {
	return sites.Get(t, "test", func(t *testing.T, out string) {
		renderSite(t, out, withTestReference(t, sitegen.Options{Snapshot: testSnapshot(t)}))
	})
}

// buildSite renders snap into a temporary folder.
func buildSite(t *testing.T, snap *catalog.Snapshot) string {
	return buildSiteWith(t, sitegen.Options{Snapshot: snap})
}

// buildSiteWith renders the site that opts describe, with the test GPU
// reference and the embedded templates, into a temporary folder.
func buildSiteWith(t *testing.T, opts sitegen.Options) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	renderSite(t, out, withTestReference(t, opts))
	return out
}

// withTestReference gives opts sitegen's test GPU reference.
func withTestReference(t testing.TB, opts sitegen.Options) sitegen.Options {
	t.Helper()
	ref, err := catalog.LoadGPUReference(os.DirFS(testdata))
	if err != nil {
		t.Fatal(err)
	}
	opts.Reference = ref
	return opts
}

// serveSite serves a built site folder as `gpuatlas serve` does, until the test
// ends, and returns its URL.
func serveSite(t *testing.T, dir string) string { return browsertest.Serve(t, newServeHandler(dir)) }

// browse serves a built site folder and starts a browser; it returns the site's
// URL, the browser's tab and the tab's uncaught script exceptions.
func browse(t *testing.T, dir string) (string, context.Context, *browsertest.Exceptions) {
	t.Helper()
	site := serveSite(t, dir)
	ctx := browsertest.Start(t)
	return site, ctx, browsertest.CollectExceptions(ctx)
}

const (
	rowKeys  = `[...document.querySelectorAll('tbody#offers-body tr')].map(r => r.dataset.key)`
	rowCount = `document.getElementById('row-count').textContent`
	ready    = `table#offers[data-ready]`
	headers  = `[...document.querySelectorAll('#offers-head th[data-sort]')].map(th => th.dataset.sort)`
)

// captureDownloads makes the page record every Blob it offers as a download and
// every text it copies, instead of saving or copying them.
const captureDownloads = `(() => {
	window.__downloads = [];
	window.__copied = [];
	const create = URL.createObjectURL;
	URL.createObjectURL = (b) => { window.__downloads.push(b); return create(b); };
	HTMLAnchorElement.prototype.click = function () { window.__lastDownloadName = this.download; };
	Object.defineProperty(navigator, 'clipboard', {value: {writeText: (s) => { window.__copied.push(s); return Promise.resolve(); }}});
})()`

func TestBrowser_OffersExplorer(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildTestSite(t))

	// The offer view: on-demand offers, cheapest first; the suspect price
	// (g5.xlarge in us-west-2) only on request, the g6f.large L4 slice (a
	// partial GPU) too.
	browsertest.Do(t, ctx, "open offers", chromedp.Navigate(site+"/offers.html?view=offers"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := browsertest.Eval[string](t, ctx, rowCount); got != "7 of 12 offers" {
		t.Errorf("row count = %q, want %q", got, "7 of 12 offers")
	}
	if shown := browsertest.Eval[bool](t, ctx, `getComputedStyle(document.getElementById('filters')).display !== 'none'`); !shown {
		t.Error("the filter panel is not shown once the explorer has loaded")
	}
	defaultRows := []string{
		"aws/g5.xlarge/us-east-1//on_demand",
		"alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand",
		"alibaba/ecs.gn8is.4xlarge/cn-hangzhou//on_demand",
		"aws/p5.48xlarge/us-east-1//on_demand",
		"aws/p5.48xlarge/us-west-2//on_demand",
		// A made-up and a reported price come after every price that leads.
		"volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand",
		"huawei/pi2.2xlarge.4/cn-north-4//on_demand",
	}
	if diff := cmp.Diff(defaultRows, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("default rows (-want +got):\n%s", diff)
	}
	browsertest.Do(t, ctx, "show suspect", chromedp.Click(chromedp.CSS(`#filter-suspect`)))
	browsertest.WaitFor(t, ctx, rowCount+` === '8 of 12 offers'`)
	// Shown, the suspect 0.0101 comes after every price that may lead, first
	// of those that may not (then the made-up and the reported ones).
	if keys := browsertest.Eval[[]string](t, ctx, rowKeys); len(keys) != 8 || keys[5] != "aws/g5.xlarge/us-west-2//on_demand" {
		t.Errorf("with suspect prices shown, rows = %v; want the suspect g5.xlarge after the five plausible prices", keys)
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('tr[data-key="aws/g5.xlarge/us-west-2//on_demand"] .badge.suspect').textContent`); got == "" {
		t.Error("the suspect offer has no suspect badge")
	}
	if got := browsertest.Eval[string](t, ctx, `location.search`); !strings.Contains(got, "sus=1") {
		t.Errorf("URL %q does not keep the suspect choice", got)
	}
	browsertest.Do(t, ctx, "hide suspect", chromedp.Click(chromedp.CSS(`#filter-suspect`)))
	browsertest.WaitFor(t, ctx, rowCount+` === '7 of 12 offers'`)
	// Every control the script built has a label.
	if unlabelled := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('main input, main select, main button')]
		.filter(c => !(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !c.textContent.trim())
		.map(c => c.outerHTML)`); len(unlabelled) > 0 {
		t.Errorf("controls without a label: %v", unlabelled)
	}

	// Filter: one GPU model, every billing kind.
	browsertest.Tick(t, ctx, "f-gpu", "nvidia-h100-sxm-80gb", true)
	browsertest.Tick(t, ctx, "f-billing", "on_demand", false)
	want := []string{
		"aws/p5.48xlarge/us-east-1/us-east-1a/spot",          // 39.33
		"aws/p5.48xlarge/us-east-1//reserved_1y_all_upfront", // 530000 / 8760 = 60.50
		"aws/p5.48xlarge/us-east-1//on_demand",               // 98.32
		"aws/p5.48xlarge/us-west-2//on_demand",               // 98.32
	}
	if diff := cmp.Diff(want, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows after filtering H100, all billing (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, rowCount); got != "4 of 12 offers" {
		t.Errorf("row count = %q, want %q", got, "4 of 12 offers")
	}

	// Sort by price: the default is ascending; one press on another column and
	// two on price give descending.
	browsertest.Do(t, ctx, "sort by billing", chromedp.Click(chromedp.CSS(`th[data-sort="billing"] button`)))
	browsertest.Do(t, ctx, "sort by price", chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)))
	if diff := cmp.Diff(want, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows sorted by price ascending (-want +got):\n%s", diff)
	}
	browsertest.Do(t, ctx, "sort by price again", chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)))
	descending := []string{want[2], want[3], want[1], want[0]}
	if diff := cmp.Diff(descending, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows sorted by price descending (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('th[data-sort="price"]').getAttribute('aria-sort')`); got != "descending" {
		t.Errorf("aria-sort of the price column = %q", got)
	}
	// The sort buttons work from the keyboard.
	browsertest.Do(t, ctx, "sort by keyboard", chromedp.Focus(chromedp.CSS(`th[data-sort="gpus"] button`)), chromedp.KeyEvent("\r"))
	if got := browsertest.Eval[string](t, ctx, `new URLSearchParams(location.search).get('sort')`); got != "gpus" {
		t.Errorf("Enter on the GPUs header sorted by %q", got)
	}
	browsertest.Do(t, ctx, "back to price", chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)), chromedp.Click(chromedp.CSS(`th[data-sort="price"] button`)))

	// Columns: add the family and the price per GPU GB, drop the marks.
	browsertest.Tick(t, ctx, "choose-columns", "family", true)
	browsertest.Tick(t, ctx, "choose-columns", "gib_price", true)
	browsertest.Tick(t, ctx, "choose-columns", "marks", false)
	cols := browsertest.Eval[[]string](t, ctx, headers)
	if diff := cmp.Diff([]string{"type", "provider", "family", "gpu", "gpus", "gpu_memory", "vcpus", "memory", "price", "gib_price", "gpu_price", "billing", "interruption", "region", "availability", "per_month"}, cols); diff != "" {
		t.Errorf("columns after choosing (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('tr[data-key="aws/p5.48xlarge/us-east-1//on_demand"] td.c-gib_price').textContent`); got != "0.1536 USD" {
		t.Errorf("USD per GPU GB-hour of p5.48xlarge = %q, want 98.32 / 640 = 0.1536 USD", got)
	}

	// The whole view is in the URL and survives a reload.
	search := browsertest.Eval[string](t, ctx, `location.search`)
	for _, part := range []string{"view=offers", "gpu=nvidia-h100-sxm-80gb", "billing=&", "dir=desc", "cols=type%2Cprovider%2Cfamily"} {
		if !strings.Contains(search+"&", part) {
			t.Errorf("URL query %q lacks %q", search, part)
		}
	}
	browsertest.Do(t, ctx, "reload", chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(ready)))
	if diff := cmp.Diff(descending, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows after reload (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(cols, browsertest.Eval[[]string](t, ctx, headers)); diff != "" {
		t.Errorf("columns after reload (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[bool](t, ctx, `document.querySelector('#f-gpu input[value="nvidia-h100-sxm-80gb"]').checked && !document.querySelector('#f-billing input[value="on_demand"]').checked`); !got {
		t.Error("the GPU and billing choices are not restored after a reload")
	}
	browsertest.Screenshot(t, ctx, "offers-h100-all-billing.png")

	// Number ranges and the region selector.
	browsertest.Do(t, ctx, "region", chromedp.Navigate(site+"/offers.html?view=offers&region=us-east-1"), chromedp.WaitReady(chromedp.CSS(ready)))
	browsertest.SetControl(t, ctx, "f-gpus-min", "1")
	browsertest.WaitFor(t, ctx, `location.search.includes('gpus=1')`)
	browsertest.WaitFor(t, ctx, rowCount+` === '2 of 12 offers'`)
	if diff := cmp.Diff([]string{"aws/g5.xlarge/us-east-1//on_demand", "aws/p5.48xlarge/us-east-1//on_demand"}, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows in us-east-1 with at least 1 GPU (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `new URLSearchParams(location.search).get('gpus')`); got != "1~" {
		t.Errorf("the URL's GPU range = %q, want 1~", got)
	}

	// The filter expression.
	browsertest.Do(t, ctx, "expression", chromedp.Navigate(site+"/offers.html?view=offers"), chromedp.WaitReady(chromedp.CSS(ready)))
	browsertest.SetControl(t, ctx, "filter-x", "gpu_memory>=80 gpus>=8 provider:aws,alibaba -region:west")
	browsertest.WaitFor(t, ctx, rowCount+` === '1 of 12 offers'`)
	if diff := cmp.Diff([]string{"aws/p5.48xlarge/us-east-1//on_demand"}, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows for the expression (-want +got):\n%s", diff)
	}
	browsertest.SetControl(t, ctx, "filter-x", "gpus>=x nonsense:1 a10")
	browsertest.WaitFor(t, ctx, `document.getElementById('filter-x-error').textContent.includes('gpus>=x')`)
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('filter-x-error').textContent`); !strings.Contains(got, "nonsense:1") {
		t.Errorf("expression error = %q, want both bad terms named", got)
	}
	// The bare word a10 matches the A10 and A10G offers.
	if diff := cmp.Diff([]string{"aws/g5.xlarge/us-east-1//on_demand",
		"alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand", "volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand"}, browsertest.Eval[[]string](t, ctx, rowKeys)); diff != "" {
		t.Errorf("rows for the bare word a10 (-want +got):\n%s", diff)
	}
	parsed := browsertest.Eval[[]int](t, ctx, `(() => { const p = GPUAtlasExplorer.parse('provider:aws gpus>=8 price<1 x'); return [p.terms.length + p.words.length, p.errors.length]; })()`)
	if diff := cmp.Diff([]int{4, 0}, parsed); diff != "" {
		t.Errorf("parse: tests, errors (-want +got):\n%s", diff)
	}

	// Synthetic offers carry a badge and can be hidden.
	browsertest.Do(t, ctx, "synthetic", chromedp.Navigate(site+"/offers.html?view=offers"), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('tr[data-key="volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand"] .badge.synthetic').textContent`); got != "synthetic" {
		t.Errorf("synthetic badge = %q", got)
	}
	browsertest.Do(t, ctx, "hide synthetic", chromedp.Click(chromedp.CSS(`#filter-synthetic`)))
	if got := browsertest.Eval[string](t, ctx, rowCount); got != "6 of 12 offers" {
		t.Errorf("row count without synthetic offers = %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `location.search`); !strings.Contains(got, "syn=0") {
		t.Errorf("URL query %q lacks syn=0", got)
	}

	// Currency and period: a CNY-priced row in USD, CNY and as published.
	const cnyRow = `document.querySelector('tr[data-key="alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"] td.c-price').textContent`
	const usdRow = `document.querySelector('tr[data-key="aws/g5.xlarge/us-east-1//on_demand"] td.c-price').textContent`
	browsertest.Do(t, ctx, "alibaba offers", chromedp.Navigate(site+"/offers.html?view=offers&provider=alibaba,aws&billing="), chromedp.WaitReady(chromedp.CSS(ready)))
	if got := browsertest.Eval[string](t, ctx, cnyRow); got != "1.1972 USD" {
		t.Errorf("CNY row in USD = %q, want %q", got, "1.1972 USD")
	}
	browsertest.SetControl(t, ctx, "filter-currency", "CNY")
	if got := browsertest.Eval[string](t, ctx, cnyRow); got != "8.5000 CNY" {
		t.Errorf("CNY row in CNY = %q, want %q", got, "8.5000 CNY")
	}
	if got := browsertest.Eval[string](t, ctx, usdRow); got != "7.1426 CNY" {
		t.Errorf("USD row in CNY = %q, want 1.006 × 7.1 = %q", got, "7.1426 CNY")
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('th[data-sort="price"]').textContent`); got != "Price (CNY/hour)" {
		t.Errorf("price header in CNY = %q", got)
	}
	browsertest.SetControl(t, ctx, "filter-per", "month")
	if got := browsertest.Eval[string](t, ctx, cnyRow); got != "6205.00 CNY" {
		t.Errorf("CNY row per month = %q, want 8.5 × 730 = %q", got, "6205.00 CNY")
	}
	browsertest.SetControl(t, ctx, "filter-currency", "native")
	if got := browsertest.Eval[string](t, ctx, usdRow); got != "734.38 USD" {
		t.Errorf("USD row per month as published = %q, want 1.006 × 730 = %q", got, "734.38 USD")
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('fx-note').textContent`); !strings.Contains(got, "2026-11-28") || !strings.Contains(got, "1 USD = 7.1 CNY") {
		t.Errorf("FX note = %q, want the rate and its date", got)
	}
	if got := browsertest.Eval[string](t, ctx, `location.search`); !strings.Contains(got, "cur=native") || !strings.Contains(got, "per=month") {
		t.Errorf("URL query %q lacks the currency and period", got)
	}

	// The language switch keeps the view.
	href := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`)
	if !strings.HasPrefix(href, "/zh/offers.html?") || !strings.Contains(href, "cur=native") {
		t.Errorf("language switch = %q, want the Chinese explorer with the same query", href)
	}
	// The old page matches the ready selector too: wait for the Chinese page's
	// explorer, then for its script to have applied the view from the URL.
	browsertest.Do(t, ctx, "switch language", chromedp.Click(chromedp.CSS(`#lang-switch`)), chromedp.WaitReady(chromedp.CSS(`html[lang="zh-CN"] `+ready)))
	browsertest.WaitFor(t, ctx, `(`+usdRow+`) === '734.38 USD'`)
	if got := browsertest.Eval[string](t, ctx, usdRow); got != "734.38 USD" {
		t.Errorf("the Chinese explorer does not show the same view: %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('tr[data-key="alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand"] td.c-provider').textContent`); got != "阿里云" {
		t.Errorf("provider name on the Chinese page = %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('tr[data-key="aws/g5.xlarge/us-east-1//on_demand"] td.c-region').textContent`); !strings.HasPrefix(got, "美国东部") {
		t.Errorf("region name on the Chinese page = %q", got)
	}
	browsertest.Screenshot(t, ctx, "zh-offers-month-native.png")

	// Download and copy the current view as CSV and Markdown.
	browsertest.Do(t, ctx, "view to export", chromedp.Navigate(site+"/offers.html?view=offers&gpu=nvidia-h100-sxm-80gb&billing=&cols=provider,type,price,billing"), chromedp.WaitReady(chromedp.CSS(ready)))
	browsertest.Do(t, ctx, "capture downloads", chromedp.Evaluate[chromedp.Void](captureDownloads))
	browsertest.Do(t, ctx, "download csv", chromedp.Click(chromedp.CSS(`#download-csv`)))
	csv := browsertest.EvalAsync[string](t, ctx, `window.__downloads[0].text()`)
	wantLines := []string{
		"Provider,Instance type,Price (USD/hour),Billing",
		"AWS,p5.48xlarge,39.33,Spot",
		"AWS,p5.48xlarge,60.50,\"Reserved 1y, all upfront\"",
		"AWS,p5.48xlarge,98.32,On-demand",
		"AWS,p5.48xlarge,98.32,On-demand",
	}
	if diff := cmp.Diff(strings.Join(wantLines, "\r\n")+"\r\n", csv); diff != "" {
		t.Errorf("downloaded CSV (-want +got):\n%s", diff)
	}
	if got := browsertest.Eval[string](t, ctx, `window.__lastDownloadName + ' ' + window.__downloads[0].type`); got != "gpuatlas-offers.csv text/csv;charset=utf-8" {
		t.Errorf("download name and type = %q", got)
	}
	browsertest.Do(t, ctx, "download markdown", chromedp.Click(chromedp.CSS(`#download-md`)))
	md := browsertest.EvalAsync[string](t, ctx, `window.__downloads[1].text()`)
	wantMD := "| Provider | Instance type | Price (USD/hour) | Billing |\n| --- | --- | --- | --- |\n" +
		"| AWS | p5.48xlarge | 39.33 | Spot |\n| AWS | p5.48xlarge | 60.50 | Reserved 1y, all upfront |\n" +
		"| AWS | p5.48xlarge | 98.32 | On-demand |\n| AWS | p5.48xlarge | 98.32 | On-demand |\n"
	if diff := cmp.Diff(wantMD, md); diff != "" {
		t.Errorf("downloaded Markdown (-want +got):\n%s", diff)
	}
	browsertest.Do(t, ctx, "copy csv", chromedp.Click(chromedp.CSS(`#copy-csv`)))
	browsertest.WaitFor(t, ctx, `window.__copied.length === 1`)
	if got := browsertest.Eval[string](t, ctx, `window.__copied[0]`); got != csv {
		t.Errorf("copied CSV differs from the download: %q", got)
	}
	browsertest.Do(t, ctx, "copy markdown", chromedp.Click(chromedp.CSS(`#copy-md`)))
	browsertest.WaitFor(t, ctx, `window.__copied.length === 2`)
	if got := browsertest.Eval[string](t, ctx, `window.__copied[1]`); got != md {
		t.Errorf("copied Markdown differs from the download: %q", got)
	}
	browsertest.WaitFor(t, ctx, `document.getElementById('action-status').textContent.includes('4 rows')`)

	// Select rows and compare them.
	browsertest.Do(t, ctx, "select two", chromedp.Click(chromedp.CSS(`tr[data-key="aws/p5.48xlarge/us-east-1/us-east-1a/spot"] input`)),
		chromedp.Click(chromedp.CSS(`tr[data-key="aws/p5.48xlarge/us-west-2//on_demand"] input`)))
	link := browsertest.Eval[string](t, ctx, `document.getElementById('compare-link').getAttribute('href')`)
	if link != "/compare.html?o=aws%2Fp5.48xlarge%2Fus-east-1%2Fus-east-1a%2Fspot&o=aws%2Fp5.48xlarge%2Fus-west-2%2F%2Fon_demand" {
		t.Errorf("compare link = %q", link)
	}
	if got := browsertest.Eval[string](t, ctx, `location.search`); !strings.Contains(got, "o=aws%2Fp5.48xlarge%2Fus-east-1%2Fus-east-1a%2Fspot") {
		t.Errorf("the selection is not in the URL: %q", got)
	}
	browsertest.Do(t, ctx, "compare", chromedp.Click(chromedp.CSS(`#compare-link`)), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	if got := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table thead th[data-key]')].map(th => th.dataset.key)`); len(got) != 2 {
		t.Errorf("compare page columns = %v, want the two offers", got)
	}
	browsertest.Screenshot(t, ctx, "compare.png")

	exceptions.Check(t)
}

func TestBrowser_Compare(t *testing.T) {
	t.Parallel()
	site, ctx, exceptions := browse(t, buildTestSite(t))

	q := "?o=alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou//on_demand&o=volcengine/ecs.gni2.3xlarge/cn-beijing//on_demand&o=aws/g5.xlarge/us-east-1//on_demand&o=no/such/offer//x"
	browsertest.Do(t, ctx, "compare", chromedp.Navigate(site+"/zh/compare.html"+q), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	cell := func(row, col int) string {
		return browsertest.Eval[string](t, ctx, fmt.Sprintf(`document.querySelectorAll('#compare-table tbody tr')[%d].children[%d].textContent`, row, col))
	}
	rows := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table tbody th')].map(th => th.textContent)`)
	idx := map[string]int{}
	for i, r := range rows {
		idx[r] = i
	}
	if got := cell(idx["云厂商"], 1); got != "阿里云" {
		t.Errorf("provider of the first offer = %q", got)
	}
	// The Chinese page is in CNY first (the lowest marked there), USD after.
	if rows[idx["CNY / 小时"]+1] != "CNY / 月（730 小时）" || idx["CNY / 小时"] > idx["USD / 小时"] {
		t.Errorf("rows %q: want CNY before USD on the Chinese page", rows)
	}
	if got := cell(idx["CNY / 小时"], 3); !strings.HasSuffix(got, "CNY 最低") {
		t.Errorf("CNY per hour of g5.xlarge = %q, want the lowest marked", got)
	}
	if got := cell(idx["USD / 小时"], 3); got != "1.0060 USD" {
		t.Errorf("USD per hour of g5.xlarge = %q", got)
	}
	if got := cell(idx["CNY / 小时"], 2); got != "9.1000 CNY" {
		t.Errorf("CNY per hour of the Volcano Engine offer = %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('compare-status').textContent`); !strings.Contains(got, "1 美元 = ") {
		t.Errorf("status = %q, want the rate", got)
	}
	if got := cell(idx["包含"], 1); got != "40 GiB 系统盘（ESSD）" {
		t.Errorf("what the Alibaba price includes = %q", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('compare-status').textContent`); !strings.Contains(got, "no/such/offer//x") {
		t.Errorf("status = %q, want the unknown key named", got)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); !strings.HasPrefix(got, "/compare.html?o=") {
		t.Errorf("language switch = %q, want the English compare page with the same offers", got)
	}
	browsertest.Screenshot(t, ctx, "zh-compare.png")

	// The reader's choice of USD is kept in the URL and across the language switch.
	browsertest.SetControl(t, ctx, "compare-currency", "USD")
	rows = browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table tbody th')].map(th => th.textContent)`)
	for i, r := range rows {
		idx[r] = i
	}
	if got := cell(idx["USD / 小时"], 3); !strings.HasPrefix(got, "1.0060 USD") || !strings.Contains(got, "最低") || idx["USD / 小时"] > idx["CNY / 小时"] {
		t.Errorf("USD per hour of g5.xlarge = %q in rows %q, want USD first and the lowest marked", got, rows)
	}
	if got := browsertest.Eval[string](t, ctx, `document.getElementById('lang-switch').getAttribute('href')`); !strings.Contains(got, "cur=USD") {
		t.Errorf("language switch = %q, want the chosen currency kept", got)
	}
	browsertest.Do(t, ctx, "English compare in USD", chromedp.Navigate(site+"/compare.html"+q), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	if got := browsertest.Eval[string](t, ctx, `[...document.querySelectorAll('#compare-table tbody th')].map(th => th.textContent).find(s => s.includes(' / hour'))`); got != "USD / hour" {
		t.Errorf("the English page's first price row = %q, want USD / hour", got)
	}

	// A suspect price is never the lowest, even in offers picked by hand: the
	// g5.xlarge in us-west-2 at 0.0101 USD is flagged, the one in us-east-1 at
	// 1.006 is the lowest.
	q = "?o=aws/g5.xlarge/us-west-2//on_demand&o=aws/g5.xlarge/us-east-1//on_demand"
	browsertest.Do(t, ctx, "compare a suspect offer", chromedp.Navigate(site+"/zh/compare.html"+q), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	rows = browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table tbody th')].map(th => th.textContent)`)
	for i, r := range rows {
		idx[r] = i
	}
	if got := cell(idx["CNY / 小时"], 1); strings.Contains(got, "最低") {
		t.Errorf("CNY per hour of the suspect offer = %q, marked the lowest", got)
	}
	if got := cell(idx["CNY / 小时"], 2); !strings.Contains(got, "最低") {
		t.Errorf("CNY per hour of the plausible offer = %q, want the lowest marked", got)
	}

	// Nor is a reported one: Huawei's pi2 at 12.4 CNY (reported) is cheaper
	// than Alibaba's gn8is at 30.2 CNY, which is marked the lowest.
	q = "?o=huawei/pi2.2xlarge.4/cn-north-4//on_demand&o=alibaba/ecs.gn8is.4xlarge/cn-hangzhou//on_demand"
	browsertest.Do(t, ctx, "compare a reported offer", chromedp.Navigate(site+"/zh/compare.html"+q), chromedp.WaitReady(chromedp.CSS(`#compare[data-ready]`)))
	rows = browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-table tbody th')].map(th => th.textContent)`)
	for i, r := range rows {
		idx[r] = i
	}
	if got := cell(idx["CNY / 小时"], 1); !strings.HasPrefix(got, "12.40 CNY") || strings.Contains(got, "最低") {
		t.Errorf("CNY per hour of the reported offer = %q, want 12.40 CNY not marked the lowest", got)
	}
	if got := cell(idx["CNY / 小时"], 2); !strings.HasPrefix(got, "30.20 CNY") || !strings.Contains(got, "最低") {
		t.Errorf("CNY per hour of the verified offer = %q, want 30.20 CNY marked the lowest", got)
	}

	// Without offers the page explains what to do.
	browsertest.Do(t, ctx, "empty compare", chromedp.Navigate(site+"/compare.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	if hidden := browsertest.Eval[bool](t, ctx, `document.getElementById('compare-help').hidden`); hidden {
		t.Error("the instructions are hidden on an empty compare page")
	}
	// Every page states each provider's data age, with a stale mark past 30 days.
	ages := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#data-age li')].map(li => li.dataset.provider + ': ' + li.textContent)`)
	if len(ages) != 4 || !strings.HasPrefix(ages[0], "aws: AWS prices observed 2025-11-30 to 2026-11-30; the oldest 365 days ago") || !strings.HasSuffix(ages[0], "stale") {
		t.Errorf("data age lines = %q", ages)
	}
	exceptions.Check(t)
}

func TestBrowser_OffersWithoutJavaScript(t *testing.T) {
	t.Parallel()
	site, ctx, _ := browse(t, buildTestSite(t))

	browsertest.DisableJavaScript(t, ctx)
	browsertest.Do(t, ctx, "open offers", chromedp.Navigate(site+"/offers.html"), chromedp.WaitReady(chromedp.CSS("footer")))
	// Evaluate runs through the protocol, which works with page scripts disabled.
	if got := browsertest.Eval[bool](t, ctx, `document.querySelector('table#offers').hasAttribute('data-ready')`); got {
		t.Fatal("the explorer script ran although JavaScript is disabled")
	}
	keys := browsertest.Eval[[]string](t, ctx, rowKeys)
	if len(keys) != 6 || keys[0] != "aws/g5.xlarge" {
		t.Errorf("server-rendered rows = %v, want the 6 whole-GPU types by their cheapest plausible on-demand price", keys)
	}
	if got := browsertest.Eval[string](t, ctx, rowCount); got != "6 of 7 instance types" {
		t.Errorf("row count = %q", got)
	}
	for _, id := range []string{"filters", "actions"} {
		if hidden := browsertest.Eval[bool](t, ctx, `getComputedStyle(document.getElementById('`+id+`')).display === 'none'`); !hidden {
			t.Errorf("#%s shows although it cannot work without JavaScript", id)
		}
	}
	browsertest.Screenshot(t, ctx, "offers-nojs.png")

	// Every other page reads without JavaScript.
	for _, p := range []string{"/gpus/nvidia-h100-sxm-80gb.html", "/regions.html", "/methodology.html", "/compare.html"} {
		browsertest.Do(t, ctx, "open "+p, chromedp.Navigate(site+p), chromedp.WaitReady(chromedp.CSS("footer")))
		if got := browsertest.Eval[string](t, ctx, `document.querySelector('main h1').textContent`); got == "" {
			t.Errorf("%s has no heading without JavaScript", p)
		}
	}
	if got := browsertest.Eval[string](t, ctx, `document.querySelector('#compare-help').textContent`); !strings.Contains(got, "compare.html?o=") {
		t.Errorf("the compare page without JavaScript does not explain its address: %q", got)
	}
}

// TestBrowser_Screenshots saves the main pages, on a desktop and on a 390-pixel
// phone screen, for a person to look at, and checks that no page is wider than a
// phone's screen (tables scroll inside their box).
func TestBrowser_Screenshots(t *testing.T) {
	t.Parallel()
	site := serveSite(t, buildTestSite(t))
	browsertest.Shots{Pages: []browsertest.Page{
		{Name: "index", Path: "/"},
		{Name: "offers", Path: "/offers.html", Wait: ready},
		{Name: "instance-p5.48xlarge", Path: "/instances/aws/p5.48xlarge.html"},
		{Name: "gpus", Path: "/gpus/"},
		{Name: "gpu-h100", Path: "/gpus/nvidia-h100-sxm-80gb.html"},
		{Name: "regions", Path: "/regions.html"},
		{Name: "downloads", Path: "/downloads.html"},
		{Name: "methodology", Path: "/methodology.html"},
		{Name: "zh-index", Path: "/zh/"},
		{Name: "zh-gpu-a10", Path: "/zh/gpus/nvidia-a10-24gb.html"},
	}}.Save(t, site)
}

// TestBrowser_Explorer10kRows loads a generated catalog of 10,000 offers and times
// the explorer's filter and render of the visible page with performance.now(), for
// a series of filters a person would set, in the instance view (the default: the
// offers grouped into one row per instance type) and in the offer view. The
// target is under 16 ms (one frame); as a speed target it is reported by make
// bench (bench/run.sh) and enforced only with GPUATLAS_PERF_TARGETS=1, never in
// the ordinary test run, where a loaded machine would make it flaky.
func TestBrowser_Explorer10kRows(t *testing.T) {
	testlane.Long(t, "builds a whole site of 10,000 offers")
	snap := synth.Snapshot(10_000, 1)
	site, ctx, exceptions := browse(t, buildSite(t, snap))

	for _, view := range []string{"instances", "offers"} {
		browsertest.Do(t, ctx, "open "+view, chromedp.Navigate(site+"/offers.html?billing=&view="+view), chromedp.WaitReady(chromedp.CSS(ready)))
		if n := browsertest.Eval[int](t, ctx, `GPUAtlasExplorer.rows().length`); n != len(snap.Offers) {
			t.Fatalf("the explorer loaded %d rows, want %d", n, len(snap.Offers))
		}
		// Each step changes the filters as a control would and times apply():
		// the filter over every offer, the grouping into rows, the sort and the
		// render of the page of rows.
		timings := browsertest.Eval[map[string]float64](t, ctx, `(() => {
			const E = GPUAtlasExplorer, s = E.state();
			const steps = [
				['all rows', () => {}],
				['provider', () => { s.f.provider = {in: ['aws', 'alibaba']}; }],
				['gpu memory range', () => { s.f.gpu_memory = {min: '40', max: ''}; }],
				['expression', () => { s.x = 'gpu_memory>=80 gpus>=8 provider:aws,alibaba'; }],
				['text search', () => { s.x = ''; s.q = 'h100 tokyo'; }],
				['billing', () => { s.q = ''; s.f.billing = {in: ['on_demand', 'spot']}; }],
				['clear', () => { s.f = {}; }],
				['country and kind', () => { s.x = 'country:cn kind:gpu saving>=10'; }],
				['currency CNY', () => { s.x = ''; s.cur = 'CNY'; }],
				['sort by GPU price', () => { s.sort = 'gpu_price'; }],
				['filter after sort', () => { s.f.gpus = {min: '2', max: ''}; }],
			];
			const out = {}, best = [], layout = [];
			for (const [name, change] of steps) {
				change();
				const runs = [], withLayout = [];
				for (let i = 0; i < 7; i++) {
					const t0 = performance.now();
					E.apply();
					runs.push(performance.now() - t0);
					document.body.offsetHeight; // the browser lays the page out
					withLayout.push(performance.now() - t0);
				}
				runs.sort((a, b) => a - b);
				withLayout.sort((a, b) => a - b);
				out[name] = runs[0];
				if (name !== 'currency CNY' && name !== 'sort by GPU price') { best.push(runs[0]); layout.push(withLayout[0]); }
			}
			const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
			out['median'] = median(best);
			out['max'] = best[best.length - 1];
			out['median with layout'] = median(layout);
			out['rows'] = E.shown().length;
			return out;
		})()`)
		// Each figure is the best of seven runs: the machine running the tests is
		// shared, and the best run is the one least disturbed.
		t.Logf("%s view: filter + render of the visible page with %d offers (ms, best of 7): %v", view, len(snap.Offers), timings)
		if m := timings["median"]; m > 16 && os.Getenv("GPUATLAS_PERF_TARGETS") == "1" {
			t.Errorf("%s view: filtering and rendering took %.1f ms (median over the steps), over the 16 ms target", view, m)
		}
		if rows := os.Getenv("GPUATLAS_BENCH_ROWS"); rows != "" {
			m := timings["median"]
			row := benchrow.Row{Stage: "page", Name: fmt.Sprintf("explorer, %s view, %d offers", view, len(snap.Offers)),
				Measure: "filter + render, headless Chromium", Value: fmt.Sprintf("%.1f ms", m), Target: "< 16 ms", Met: benchrow.Check(m < 16),
				Note: fmt.Sprintf("median over 9 filter steps, each the best of 7 runs; slowest step %.1f ms; with layout %.1f ms",
					timings["max"], timings["median with layout"])}
			if err := benchrow.Append(rows, row); err != nil {
				t.Fatal(err)
			}
		}
		browsertest.Screenshot(t, ctx, "offers-10k-"+view+".png")
	}
	exceptions.Check(t)
}

// An offer kept from an earlier crawl because its instance type's price calls
// failed carries the stale badge in the explorer, as a stale provider's do;
// the region's other offers do not.
func TestBrowser_StaleOfferMarks(t *testing.T) {
	t.Parallel()
	snap := testSnapshot(t)
	var kept catalog.Offer
	for _, o := range snap.Offers {
		if o.Key() == "aws/p5.48xlarge/us-east-1//on_demand" {
			kept = o
		}
	}
	for i, c := range snap.Coverage {
		if c.Provider == catalog.AWS {
			snap.Coverage[i].Status = catalog.CoveragePartial
			snap.Coverage[i].FailedTypes = []catalog.TypeFailure{{Region: "us-east-1", InstanceType: "p5.48xlarge", Reason: "aws: get products: throttled", LastConfirmed: kept.FetchedAt}}
		}
	}
	site, ctx, exceptions := browse(t, buildSite(t, snap))
	// The offer view marks the offer; the instance view (the default) marks
	// the type's row, whose on-demand price is that offer.
	for _, v := range []struct {
		query string
		want  []string
	}{
		{"?view=offers", []string{"aws/p5.48xlarge/us-east-1//on_demand", "huawei/pi2.2xlarge.4/cn-north-4//on_demand"}},
		{"", []string{"aws/p5.48xlarge", "huawei/pi2.2xlarge.4"}},
	} {
		browsertest.Do(t, ctx, "open offers"+v.query, chromedp.Navigate(site+"/offers.html"+v.query), chromedp.WaitReady(chromedp.CSS(ready)))
		badged := browsertest.Eval[[]string](t, ctx, `[...document.querySelectorAll('tbody#offers-body tr')].filter(r => r.querySelector('.badge.stale')).map(r => r.dataset.key)`)
		if diff := cmp.Diff(v.want, badged); diff != "" {
			t.Errorf("offers.html%s: rows with the stale badge (-want +got):\n%s", v.query, diff)
		}
	}
	exceptions.Check(t)
}
